import Foundation
import _HTTPMockJSON

/// A mapping's webhooks: `serveEventListeners` entries named `webhook`, and the older `postServeActions` (a list
/// of `{"name": "webhook", "parameters": …}`, or `{"webhook": …}`). Their `url`, `headers` and `body` are
/// templates filled from the answered request (`{{originalRequest.…}}`, or `{{request.…}}`), as WireMock renders
/// them.
enum WireMockWebhooks {
    static let parameterKeys = ["method", "url", "headers", "body", "base64Body", "delay"]

    /// The webhooks in `fields`. A URL without a template that names a host beyond this machine is refused unless
    /// `allowedHosts` has it (`nil`: not checked, for a mapping read on its own); one with a template is checked
    /// each time it is sent.
    static func read(_ fields: [String: JSONValue], of top: WireMockNode, source: String,
                     allowedHosts: Set<String>?) throws(HTTPMockError) -> [Webhook] {
        var webhooks: [Webhook] = []
        if let listeners = top.child("serveEventListeners", of: fields) {
            for listener in try listeners.elements() { webhooks.append(try named(listener, source: source, allowedHosts: allowedHosts)) }
        }
        if let actions = top.child("postServeActions", of: fields) {
            if case .object = actions.value {
                for (name, parameters) in try actions.members() {
                    guard name == "webhook" else { throw parameters.error(extensionProblem(name)) }
                    webhooks.append(try webhook(parameters, source: source, allowedHosts: allowedHosts))
                }
            } else {
                for action in try actions.elements() { webhooks.append(try named(action, source: source, allowedHosts: allowedHosts)) }
            }
        }
        return webhooks
    }

    private static func extensionProblem(_ name: String) -> String {
        "\"\(name)\" is a WireMock extension, which does not run here; only \"webhook\" does"
    }

    /// `{"name": "webhook", "requestPhases": […], "parameters": {…}}`.
    private static func named(_ node: WireMockNode, source: String, allowedHosts: Set<String>?) throws(HTTPMockError) -> Webhook {
        let fields = try node.object(known: ["name", "requestPhases", "parameters"])
        let name = try node.child("name", of: fields)?.string() ?? ""
        guard name == "webhook" else { throw node.error(extensionProblem(name)) }
        if let phases = node.child("requestPhases", of: fields) { for phase in try phases.elements() { _ = try phase.string() } }
        guard let parameters = node.child("parameters", of: fields) else {
            throw node.error("a webhook needs \"parameters\" with at least a \"url\"")
        }
        return try webhook(parameters, source: source, allowedHosts: allowedHosts)
    }

    private static func webhook(_ node: WireMockNode, source: String, allowedHosts: Set<String>?) throws(HTTPMockError) -> Webhook {
        let fields = try node.object(known: parameterKeys)
        func template(_ text: String, at key: String) throws(HTTPMockError) -> BodyTemplate {
            try BodyTemplate(wireMock: text, pathNames: [:], place: "\(node.place) at \(node.path).\(key)")
        }
        // A method or URL with `{{…}}` is rendered when the webhook is sent, and checked then (not sent, and the
        // journal says why, when it is no method or URL, or names a host beyond this machine that is not allowed).
        let methodText = try node.child("method", of: fields)?.string() ?? "POST"
        var method = methodText.uppercased()
        var methodTemplate: BodyTemplate?
        if methodText.contains("{{") {
            method = methodText
            methodTemplate = try template(methodText, at: "method")
        } else if let problem = MethodName.problem(method) {
            throw node.child("method", of: fields)!.error(problem)
        }
        guard let urlNode = node.child("url", of: fields) else { throw node.error("a webhook needs a \"url\" to send to") }
        let url = try urlNode.string()
        if !url.contains("{{") {
            guard let target = URL(string: url), ["http", "https"].contains(target.scheme?.lowercased() ?? ""), let host = target.host, !host.isEmpty else {
                throw urlNode.error("\"\(url)\" is not an http or https URL to send the webhook to")
            }
            if let allowedHosts, !Loopback.allows(host, among: allowedHosts) {
                throw urlNode.error("the webhook goes to \(host), beyond this machine: \(Loopback.howToAllow(host))")
            }
        }
        var headers: [(name: String, value: BodyTemplate)] = []
        if let headerNode = node.child("headers", of: fields) {
            for (name, value) in try headerNode.members() {
                let values = if case .array = value.value { try value.elements() } else { [value] }
                for element in values { headers.append((name, try template(try element.string(), at: "headers.\(name)"))) }
            }
        }
        var body = Webhook.Body.none
        if let text = node.child("body", of: fields) {
            body = .text(try template(try text.string(), at: "body"))
        }
        if let encoded = node.child("base64Body", of: fields) {
            if case .text = body { throw encoded.error("give \"body\" or \"base64Body\", not both") }
            guard let data = Base64.decode(try encoded.string()) else { throw encoded.error("the text is not valid base64") }
            body = .bytes(data)
        }
        var delay = Webhook.Delay.fixed(0)
        if let delayNode = node.child("delay", of: fields) {
            let delayFields = try delayNode.object(known: ["type", "milliseconds", "lower", "upper"])
            switch try delayNode.child("type", of: delayFields)?.string() ?? "fixed" {
            case "fixed":
                guard let milliseconds = delayNode.child("milliseconds", of: delayFields) else { throw delayNode.error("a fixed delay needs \"milliseconds\"") }
                delay = .fixed(Double(try milliseconds.integer(in: 0...3_600_000)) / 1000)
            case "uniform":
                guard let lower = delayNode.child("lower", of: delayFields), let upper = delayNode.child("upper", of: delayFields) else {
                    throw delayNode.error("a uniform delay needs \"lower\" and \"upper\" milliseconds")
                }
                let low = try lower.integer(in: 0...3_600_000), high = try upper.integer(in: 0...3_600_000)
                guard low <= high else { throw delayNode.error("\"lower\" (\(low)) is more than \"upper\" (\(high))") }
                delay = .uniform(lower: Double(low) / 1000, upper: Double(high) / 1000)
            case let other:
                throw delayNode.error("\"\(other)\" is not a webhook delay; use \"fixed\" or \"uniform\"")
            }
        }
        return Webhook(method: method, methodTemplate: methodTemplate, url: try template(url, at: "url"), headers: headers, body: body, delay: delay, source: source)
    }
}
