#if Server
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import NIOPosix

/// The threads on which servers run the user code of their decisions (custom matchers, regular expressions,
/// dynamic responses, body templates), away from the event loops, shared by every server of the process.
///
/// The pool is fair to cheap work: it keeps one thread per core (two at least), and grows by a thread whenever a
/// decision arrives and none is idle, up to ``maximumThreads`` (four per core, and eight more). A decision that
/// burns its whole budget (a regular expression that backtracks, a heavy template) then holds up only itself: a
/// cheap decision sent meanwhile starts on a thread of its own at once, and the kernel's scheduler shares the
/// cores between it and the busy ones, so it is answered in milliseconds. Past ``maximumThreads`` decisions wait
/// in order for a thread. Threads beyond the first ones end after ``idleSeconds`` without work. On Linux the
/// threads run at a lower priority (nice 5) than the event loops, so user code that keeps every core busy still
/// leaves them the time to answer. Requests answered without user code never come here.
enum DecisionPool {
    /// The threads kept for good.
    static let baseThreads = max(2, System.coreCount)
    /// The most threads at once: each can hold a decision's budget of memory (a template's 64 MiB of work at
    /// most), so the pool does not grow without bound.
    static let maximumThreads = 4 * baseThreads + 8
    /// How long a thread beyond the first ones waits for work before it ends.
    static let idleSeconds: TimeInterval = 10

    private static let shared = GrowingPool("HTTPMock decisions", base: baseThreads, maximum: maximumThreads, idleSeconds: idleSeconds)

    /// Runs `work` on the pool; its result arrives on `eventLoop`.
    static func run<Result: Sendable>(on eventLoop: any EventLoop,
                                      _ work: @escaping @Sendable () -> Result) -> EventLoopFuture<Result> {
        let promise = eventLoop.makePromise(of: Result.self)
        shared.submit { promise.succeed(work()) }
        return promise.futureResult
    }
}

/// A pool of threads that grows while work waits and no thread is idle (see ``DecisionPool``).
final class GrowingPool: @unchecked Sendable {  // reason: every access to the mutable state goes through `condition`
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    /// Where the next job is in `queue` (taken jobs are dropped in batches).
    private var head = 0
    private var all = 0
    private var idle = 0
    private let base: Int
    private let maximum: Int
    private let idleSeconds: TimeInterval
    private let name: String

    /// `base` threads kept for good, at most `maximum`; `name` names them (in a debugger, in `top -H`).
    init(_ name: String, base: Int, maximum: Int, idleSeconds: TimeInterval) {
        self.name = name
        self.base = base
        self.maximum = maximum
        self.idleSeconds = idleSeconds
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        queue.append(job)
        // Idle threads already signalled count until they wake: grow only when more jobs wait than threads that
        // will take them.
        let grow = queue.count - head > idle && all < maximum
        if grow { all += 1 }
        condition.signal()
        condition.unlock()
        if grow {
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
    }

    private func work() {
        #if os(Linux)
        // Linux keeps a nice value per thread: 0 names the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
        condition.lock()
        while true {
            while head == queue.count {
                idle += 1
                var woken = true
                if all > base {
                    woken = condition.wait(until: Date(timeIntervalSinceNow: idleSeconds))
                } else {
                    condition.wait()
                }
                idle -= 1
                if !woken, head == queue.count, all > base {
                    all -= 1
                    condition.unlock()
                    return
                }
            }
            let job = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024 {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
#endif
