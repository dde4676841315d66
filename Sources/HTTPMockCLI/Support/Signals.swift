#if CommandLineTool
import Foundation

/// Runs `handler` on SIGINT (Ctrl-C) and SIGTERM, instead of the default of dying at once, so the server can stop
/// cleanly and a recording be written: with `true` for the first signal, `false` for any after it.
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable (_ first: Bool) -> Void) {
        let queue = DispatchQueue(label: "httpmock.signals")
        nonisolated(unsafe) var received = 0  // reason: only the handlers touch it, all on the serial `queue`
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                received += 1
                handler(received == 1)
            }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
#endif
