#if CommandLineTool
import Foundation

/// Runs `handler` once on the first SIGINT (Ctrl-C) or SIGTERM, instead of the default of dying at once, so the
/// server can stop cleanly and a recording be written.
final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "httpmock.signals")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
#endif
