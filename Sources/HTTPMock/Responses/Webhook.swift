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

    /// The method, or the text of ``methodTemplate``.
    let method: String
    /// A `method` with `{{…}}`, rendered for each request.
    let methodTemplate: BodyTemplate?
    let url: BodyTemplate
    let headers: [(name: String, value: BodyTemplate)]
    let body: Body
    let delay: Delay
    /// Names the stub in the journal and in errors.
    let source: String

    /// The longest rendered method or URL a journal record quotes.
    static let quotedLimit = 200

    /// The request to send for `original`, or why there is none (a URL that is not `http` or `https`, a method that
    /// is no HTTP method).
    func request(for original: CapturedRequest) -> Result<(url: URL, method: String, headers: [(String, String)], body: Data?), WebhookProblem> {
        func quoted(_ text: String) -> String { text.count > Self.quotedLimit ? String(text.prefix(Self.quotedLimit)) + "…" : text }
        let text = url.text(original)
        var method = self.method
        if let methodTemplate {
            let rendered = methodTemplate.text(original).trimmingCharacters(in: .whitespaces).uppercased()
            if let problem = MethodName.problem(rendered) {
                return .failure(WebhookProblem(url: quoted(text), method: quoted(rendered),
                                               reason: "\"method\" rendered to \(String(reflecting: quoted(rendered))): \(quoted(problem))"))
            }
            method = rendered
        }
        guard let target = URL(string: text), ["http", "https"].contains(target.scheme?.lowercased() ?? ""), target.host?.isEmpty == false else {
            return .failure(WebhookProblem(url: quoted(text), method: method, reason: "\"\(quoted(text))\" is not an http or https URL"))
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
    /// The method it would have had (as rendered).
    let method: String
    let reason: String
}

/// Webhooks due when a journal entry completes: the answered request and what it sends.
struct PendingWebhooks: Sendable {
    let entry: Int
    let request: CapturedRequest
    let webhooks: [Webhook]
}
