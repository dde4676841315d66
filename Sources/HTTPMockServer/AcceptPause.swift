#if Server
import Foundation
import NIOCore

/// Pauses accepting when accept fails for want of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`,
/// `ENOMEM`): 100 ms, then it tries again. NIO's listening channel stays registered for readability after such a
/// failure (and `AcceptBackoffHandler`, which only holds back the next read, leaves it so), so the event loop would
/// wake at once, fail again and spin. Turning auto-read off unregisters it; turning it on again registers it.
/// Meanwhile connections wait in the listen backlog, and those already open are served as usual.
final class AcceptPause: ChannelInboundHandler {
    typealias InboundIn = any Channel

    /// How long accepting pauses.
    static let pause = TimeAmount.milliseconds(100)
    private var paused = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let failure = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(failure.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard !paused, let options = context.channel.syncOptions else { return }
        paused = true
        try? options.setOption(.autoRead, value: false)
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.pause) {
            self.paused = false
            guard context.channel.isActive else { return }
            try? context.channel.syncOptions?.setOption(.autoRead, value: true)
        }
    }
}
#endif
