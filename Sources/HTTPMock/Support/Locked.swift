import Foundation

/// A value guarded by a lock.
///
/// `Mutex` would do, but it needs macOS 15 / iOS 18; this box keeps older Apple systems supported.
package final class Locked<Value>: @unchecked Sendable {  // reason: every access to `value` goes through `lock`
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    package var current: Value { withLock { $0 } }
}
