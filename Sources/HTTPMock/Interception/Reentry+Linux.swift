#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

extension InterceptingProtocol {
    /// Returns a function that delivers a plan later, from any thread.
    ///
    /// On Linux the client may only be called on URLSession's work queue. So the plan is parked, and the task is
    /// suspended and resumed: corelibs then calls `startLoading` again, on the work queue, where it is delivered.
    /// If the task was cancelled or has finished meanwhile, suspend/resume does nothing.
    func reentry() -> @Sendable (Plan) -> Void {
        let progress = self.progress
        let task = self.task
        return { plan in
            let live = progress.withLock { progress -> Bool in
                guard !progress.stopped else { return false }
                progress.pending = plan
                progress.due = true
                return true
            }
            guard live, let task else { return }
            task.suspend()
            task.resume()
        }
    }
}
#endif
