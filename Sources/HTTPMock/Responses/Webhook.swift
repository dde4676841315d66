import Foundation

/// A request a stub sends after its response has been served (WireMock's `webhook` serve-event listener): its URL,
/// headers and body are templates filled from the request that was answered (`{{originalRequest.body}}`…).
struct Webhook: Sendable {
    enum Body: Sendable {
        case none
        case text(BodyTemplate)
        case bytes(Data)
    }

    /// When it goes, after the response: a fixed delay or one drawn between two bounds, in seconds.
    enum Delay: Sendable {
        case fixed(Double)
        case uniform(lower: Double, upper: Double)

        var seconds: Double {
            switch self {
            case .fixed(let seconds): seconds
            case .uniform(let lower, let upper): Double.random(in: lower...max(lower, upper))
            }
        }
    }

    let method: String
    let url: BodyTemplate
    let headers: [(name: String, value: BodyTemplate)]
    let body: Body
    let delay: Delay
    /// Names the stub in the journal and in errors.
    let source: String

    /// The request to send for `original`, or why there is none (a URL that is not `http` or `https`).
    func request(for original: CapturedRequest) -> Result<(url: URL, method: String, headers: [(String, String)], body: Data?), WebhookProblem> {
        let text = url.text(original)
        guard let target = URL(string: text), ["http", "https"].contains(target.scheme?.lowercased() ?? ""), target.host?.isEmpty == false else {
            return .failure(WebhookProblem(url: text, reason: "\"\(text)\" is not an http or https URL"))
        }
        let fields = headers.map { ($0.name, $0.value.text(original)) }
        let data: Data? = switch body {
        case .none: nil
        case .text(let template): template.render(original)
        case .bytes(let bytes): bytes
        }
        return .success((target, method, fields, data))
    }
}

/// Why a webhook was not sent.
struct WebhookProblem: Error {
    let url: String
    let reason: String
}

/// Webhooks due when a journal entry completes: the answered request and what it sends.
struct PendingWebhooks: Sendable {
    let entry: Int
    let request: CapturedRequest
    let webhooks: [Webhook]
}
