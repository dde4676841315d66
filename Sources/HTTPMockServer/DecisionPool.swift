#if Server
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix

/// The threads on which servers run the user code of their decisions (custom matchers, regular expressions,
/// dynamic responses, body templates), away from the event loops: one thread per core (two at least), shared by
/// every server of the process. A slow matcher holds up its own request and, when every thread is busy, the other
/// requests that need user code; requests answered without user code never wait for it. On Linux the threads run
/// at a lower priority (nice 5) than the event loops, so user code that keeps every core busy still leaves them
/// the time to answer.
enum DecisionPool {
    private static let shared: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        pool.start()
        return pool
    }()

    /// Runs `work` on the pool; its result arrives on `eventLoop`.
    static func run<Result: Sendable>(on eventLoop: any EventLoop,
                                      _ work: @escaping @Sendable () -> Result) -> EventLoopFuture<Result> {
        shared.runIfActive(eventLoop: eventLoop) {
            #if os(Linux)
            // Linux keeps a nice value per thread: 0 names the calling thread. Setting it again is harmless.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
            #endif
            return work()
        }
    }
}
#endif
