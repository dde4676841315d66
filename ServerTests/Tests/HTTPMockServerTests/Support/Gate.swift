import Foundation

/// A matcher that holds every request it is asked about until the test opens it, and says how many it holds.
final class Gate: @unchecked Sendable {  // reason: every access to `held` and `open` goes through `condition`
    private let condition = NSCondition()
    private var held = 0
    private var open = false

    func pass() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        held += 1
        condition.broadcast()
        while !open { condition.wait() }
        return true
    }

    /// Waits until `count` requests are held (or 60 s pass, to end a test that would hang).
    func waitUntilHolding(_ count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(60)
        while held < count { if !condition.wait(until: deadline) { return false } }
        return true
    }

    func openUp() {
        condition.lock()
        open = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Names in the order they arrived, from any task.
final class Arrivals: @unchecked Sendable {  // reason: every access to `list` goes through `lock`
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ name: String) { lock.lock(); list.append(name); lock.unlock() }
    var names: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
