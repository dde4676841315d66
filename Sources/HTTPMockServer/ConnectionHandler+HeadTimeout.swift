#if Server
import NIOCore

// Configuration.requestHeadTimeout: a connection that takes longer than that to send a complete request head, from
// when it opens or its last response ended, is closed. One timer per connection, re-armed lazily: a request only
// moves the deadline (`headDeadline`), and the timer, when it fires before the deadline, waits again until it.
// No task is scheduled and cancelled per request.
extension ConnectionHandler {
    /// Starts the wait for the next request head: the connection opened, or a response ended with keep-alive.
    func awaitHead(context: ChannelHandlerContext) {
        guard isOpen else { return }
        let deadline = NIODeadline.now() + .seconds(settings.configuration.requestHeadTimeout)
        headDeadline = deadline
        if headTimer == nil { armHeadTimer(until: deadline, context: context) }
    }

    /// No head is awaited any more on this connection (it is closing).
    func stopHeadTimer() {
        headDeadline = nil
        headTimer?.cancel()
        headTimer = nil
    }

    private func armHeadTimer(until deadline: NIODeadline, context: ChannelHandlerContext) {
        headTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.headTimerFired(context: context)
        }
    }

    private func headTimerFired(context: ChannelHandlerContext) {
        headTimer = nil
        // Without a deadline a request is being read or answered: its response's end arms the timer again.
        guard isOpen, let deadline = headDeadline else { return }
        if deadline <= .now() {
            context.close(promise: nil)
        } else {
            armHeadTimer(until: deadline, context: context)
        }
    }
}
#endif
