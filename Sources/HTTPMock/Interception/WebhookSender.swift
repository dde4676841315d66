import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the webhooks of answered requests through a mock's passthrough session, after their delays, each only to
/// loopback or to a host the user allowed, and keeps what became of each in the triggering request's journal entry.
enum WebhookSender {
    /// Makes `core`'s engine send webhooks this way.
    static func install(on core: MockCore) {
        core.engine.setWebhookSender { [weak core] pending in
            guard let core else { return }
            for webhook in pending.webhooks { send(webhook, for: pending, core: core) }
        }
    }

    private static func send(_ webhook: Webhook, for pending: PendingWebhooks, core: MockCore) {
        let engine = core.engine
        let entry = pending.entry
        switch webhook.request(for: pending.request) {
        case .failure(let problem):
            engine.recordWebhook(entry, WebhookRecord(method: problem.method, url: problem.url, status: nil,
                                                      error: "not sent: \(problem.reason) (\(webhook.source))"))
        case .success(let planned):
            let host = planned.url.host ?? ""
            guard engine.mayReach(host) else {
                engine.recordWebhook(entry, WebhookRecord(method: planned.method, url: planned.url.absoluteString, status: nil,
                    error: "not sent: \(host) is beyond this machine; \(Loopback.howToAllow(host)) (\(webhook.source))"))
                return
            }
            var request = URLRequest(url: planned.url)
            request.httpMethod = planned.method
            for (name, value) in planned.headers { request.addValue(value, forHTTPHeaderField: name) }
            request.httpBody = planned.body
            let outgoing = request
            let session = core.passthroughSession
            let go: @Sendable () -> Void = {
                session.dataTask(with: outgoing) { _, response, error in
                    let status = (response as? HTTPURLResponse)?.statusCode
                    engine.recordWebhook(entry, WebhookRecord(method: planned.method, url: planned.url.absoluteString,
                                                              status: error == nil ? status : nil,
                                                              error: error.map { "failed: \($0.localizedDescription)" }))
                }.resume()
            }
            // Never on the caller's thread: it may be inside URLSession's delegate queue or an event loop.
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, webhook.delay.seconds), execute: go)
        }
    }
}
