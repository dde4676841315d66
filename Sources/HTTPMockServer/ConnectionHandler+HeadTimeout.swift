#if Server
import NIOCore

// Configuration.requestHeadTimeout: a connection that takes longer than that to send a complete request head, from
// when it opens or its last response ended, is closed. Configuration.requestBodyTimeout and requestBodyTotalTimeout:
// a body that pauses longer, or takes longer in all, gets 408 and the connection is closed. One timer per connection,
// re-armed lazily: a request, or a part of its body, only moves the deadline (`headDeadline`), and the timer, when
// it fires before the deadline, waits again until it. It is scheduled again only when the deadline comes earlier
// than the timer (a body's pause is shorter than the head timeout). No task is scheduled and cancelled per request.
extension ConnectionHandler {
    /// Starts the wait for the next request head: the connection opened, or a response ended with keep-alive.
    func awaitHead(context: ChannelHandlerContext) {
        guard isOpen else { return }
        let deadline = NIODeadline.now() + .seconds(settings.configuration.requestHeadTimeout)
        headDeadline = deadline
        if headTimer == nil { armHeadTimer(until: deadline, context: context) }
    }

    /// More of the body is awaited: the next bytes within the pause allowed, all of it by the body's deadline.
    func awaitBody(context: ChannelHandlerContext) {
        guard isOpen else { return }
        var deadline = NIODeadline.now() + .seconds(settings.configuration.requestBodyTimeout)
        if let bodyDeadline, bodyDeadline < deadline { deadline = bodyDeadline }
        headDeadline = deadline
        if let firesAt = headTimerFiresAt, firesAt <= deadline { return }
        headTimer?.cancel()
        armHeadTimer(until: deadline, context: context)
    }

    /// No head is awaited any more on this connection (it is closing).
    func stopHeadTimer() {
        headDeadline = nil
        headTimer?.cancel()
        headTimer = nil
        headTimerFiresAt = nil
    }

    private func armHeadTimer(until deadline: NIODeadline, context: ChannelHandlerContext) {
        headTimerFiresAt = deadline
        headTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.headTimerFired(context: context)
        }
    }

    private func headTimerFired(context: ChannelHandlerContext) {
        headTimer = nil
        headTimerFiresAt = nil
        // Without a deadline a request is being answered: its response's end arms the timer again.
        guard isOpen, let deadline = headDeadline else { return }
        guard deadline <= .now() else {
            armHeadTimer(until: deadline, context: context)
            return
        }
        guard readingBody else {
            context.close(promise: nil)
            return
        }
        // A body that stalled: say so, and close (the rest of it, if it ever comes, is not read).
        stopHeadTimer()
        readingBody = false
        keepAlive = false
        head = nil
        body = nil
        sendPlain(.requestTimeout, "HTTPMock: the request body stopped arriving (requestBodyTimeout \(settings.configuration.requestBodyTimeout) s, requestBodyTotalTimeout \(settings.configuration.requestBodyTotalTimeout) s); the connection is closed\n", context: context)
    }
}
#endif
