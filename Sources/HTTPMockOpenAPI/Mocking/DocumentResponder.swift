#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

/// Answers the requests of one operation as Prism does: refuses a request that breaks the contract (422 with an
/// `application/problem+json` body naming every violation), else serves the response the request prefers
/// (`Prefer: code=404`, `Prefer: example=cat`, or `?__code=404&__example=cat`), by default the first success: its
/// example, or a body made from its schema.
struct DocumentResponder: Sendable {
    let contract: OperationContract
    /// The template variable each capture of the stub's URI template stands for (`v0` → `petId`).
    let variables: [String: String]
    /// Where each variable is in the request's path, when the stub matches a path glob instead of a URI template
    /// (most documents): read from the segment, with no regular expression to run.
    var segments: [PathVariable] = []

    /// A variable that fills a path segment, or part of one between a literal prefix and suffix (`{id}.json`).
    struct PathVariable: Sendable {
        let index: Int
        let name: String
        let prefix: String
        let suffix: String
    }
    let root: JSONValue
    let options: OpenAPIMockOptions
    /// What a request that asks for nothing in particular gets when the first success has a fixed example and no
    /// header to make up: built once, with its wire form, instead of for each request. With the media type it is.
    private let defaultAnswer: (media: String, response: MockResponse)?
    /// The same, when the first success's body is made from its schema: made for the first request that wants it
    /// (making is the same every time for one document and variant), then kept.
    private let madeAnswer: MadeAnswer?

    /// A default answer made once, on first use.
    final class MadeAnswer: @unchecked Sendable {  // reason: `built` is written once, under `lock`
        let media: String
        private let lock = NSLock()
        private var built: MockResponse?

        init(media: String) {
            self.media = media
        }

        /// The answer, made by `make` the first time (the package's own bounded code, not a user's).
        func response(_ make: () -> MockResponse) -> MockResponse {
            lock.withLock {
                if let built { return built }
                let made = make()
                built = made
                return made
            }
        }
    }

    init(contract: OperationContract, variables: [String: String], root: JSONValue, options: OpenAPIMockOptions) {
        self.contract = contract
        self.variables = variables
        self.root = root
        self.options = options
        if let chosen = contract.primaryResponse, chosen.requiredHeaders.isEmpty, let media = chosen.content.first,
           media.example != nil {
            var built = Self.response(status: Self.status(of: chosen.status), headers: [:], media: media, value: media.example!)
            built.lifetime = .eternal   // as the document's stubs are: nothing changes it when it is served
            defaultAnswer = (media.name, built.withWireForm())
            madeAnswer = nil
        } else {
            defaultAnswer = nil
            if let chosen = contract.primaryResponse, chosen.requiredHeaders.isEmpty, let media = chosen.content.first,
               media.example == nil, media.schemaPointer != nil {
                madeAnswer = MadeAnswer(media: media.name)
            } else {
                madeAnswer = nil
            }
        }
    }

    func answer(_ request: CapturedRequest, captures: [String: String]) -> MockResponse {
        var pathValues: [String: String] = [:]
        for (capture, value) in captures {
            guard let name = variables[capture] else { continue }
            pathValues[name] = value.removingPercentEncoding ?? value
        }
        let requestSegments = request.pathSegments
        for variable in segments where requestSegments.indices.contains(variable.index) {
            let segment = requestSegments[variable.index]
            guard segment.count >= variable.prefix.count + variable.suffix.count else { continue }
            pathValues[variable.name] = String(segment.dropFirst(variable.prefix.count).dropLast(variable.suffix.count))
        }
        if options.validatesRequests, let security = contract.security, !security.isSatisfied(by: request) {
            return unauthorized(request, security: security)
        }
        if options.validatesRequests {
            let violations = contract.violations(of: request, pathValues: pathValues, root: root)
            if !violations.isEmpty { return refusal(request, violations: violations) }
        }
        let preference = Preference(request)
        if preference.code == nil, preference.example == nil, !preference.dynamic, let defaultAnswer,
           let chosen = contract.primaryResponse, Self.media(of: chosen, accepting: request.headers["Accept"])?.name == defaultAnswer.media {
            return defaultAnswer.response
        }
        if preference.code == nil, preference.example == nil, !preference.dynamic, let madeAnswer,
           let chosen = contract.primaryResponse, Self.media(of: chosen, accepting: request.headers["Accept"])?.name == madeAnswer.media {
            return madeAnswer.response {
                var made = respond(with: chosen, status: Self.status(of: chosen.status), example: nil, to: request)
                made.lifetime = .eternal
                return made.withWireForm()
            }
        }
        let chosen: ResponseContract?
        let status: Int
        if let code = preference.code {
            guard let listed = contract.response(for: code) else {
                return Self.problem(status: 404, title: "No such response",
                                    detail: "Prefer asked for a \(code) response, which \(contract.operation) does not list; it lists \(contract.responses.map(\.status).joined(separator: ", ")).",
                                    violations: [])
            }
            chosen = listed
            status = code
        } else {
            chosen = contract.primaryResponse
            status = chosen.map { Self.status(of: $0.status) } ?? 200
        }
        let variant = preference.dynamic ? (preference.seed ?? Int.random(in: 1...Int.max)) : nil
        return respond(with: chosen, status: status, example: preference.example, to: request, dynamicVariant: variant)
    }

    /// A request that breaks the contract, answered as Prism answers it: with the operation's `422` response, else
    /// its `400`, else its `default` (sent as `422`), with its example or a body made from its schema; HTTPMock's
    /// own `422` `application/problem+json` naming every violation only when it lists none of them. Marked as a
    /// broken contract either way, the violations in `X-HTTPMock-Violations` when the body is the document's.
    private func refusal(_ request: CapturedRequest, violations: [ContractViolation]) -> MockResponse {
        let documented = [("422", 422), ("400", 400), ("default", 422)].lazy.compactMap { listed, status in
            contract.responses.first { $0.status == listed }.map { (response: $0, status: status) }
        }.first
        guard let documented else {
            return Self.problem(status: 422, title: "Invalid request",
                                detail: "The request breaks the OpenAPI document's contract for \(contract.operation): \(violations.count) violation(s).",
                                violations: violations)
        }
        var response = respond(with: documented.response, status: documented.status, example: nil, to: request)
        response.headers["X-HTTPMock"] = JournalEntry.contractViolationMarker
        response.headers[JournalEntry.contractViolationsHeader] = Self.summary(of: violations)
        return response
    }

    /// The violations on one line, for a header: `query parameter limit: 0 is less than 1 (minimum); …`, at most
    /// about 4 KB.
    static func summary(of violations: [ContractViolation]) -> String {
        var text = "\(violations.count) violation(s) of the contract for \(contract(violations))"
        for violation in violations {
            let line = "; " + violation.place + (violation.pointer.isEmpty ? "" : " at \(violation.pointer)") + ": \(violation.message) (\(violation.rule))"
            if text.utf8.count + line.utf8.count > 4_000 { return text + "; …" }
            text += line
        }
        return String(text.map { $0 == "\r" || $0 == "\n" ? " " : $0 })
    }

    private static func contract(_ violations: [ContractViolation]) -> String {
        violations.first?.operation ?? "the document"
    }

    /// A request without the credentials the operation asks for: `401` with a `WWW-Authenticate` challenge, as Prism
    /// answers; the operation's own `401` response when it lists one, else an `application/problem+json` naming
    /// what was wanted. It is the API's answer, not a broken contract: HTTPMockTesting does not report it.
    private func unauthorized(_ request: CapturedRequest, security: SecurityContract) -> MockResponse {
        var response: MockResponse
        if let listed = contract.responses.first(where: { $0.status == "401" || $0.status.uppercased() == "4XX" }) {
            response = respond(with: listed, status: 401, example: nil, to: request)
        } else {
            response = Self.problem(status: 401, title: "Unauthorized",
                                    detail: "\(contract.operation) asks for credentials the request does not carry: \(security.wanted).",
                                    violations: [], marksViolation: false)
        }
        let challenges = security.challenges
        if !challenges.isEmpty, !response.headers.keys.contains(where: { $0.caseInsensitiveCompare("WWW-Authenticate") == .orderedSame }) {
            response.headers["WWW-Authenticate"] = challenges.joined(separator: ", ")
        }
        return response
    }

    /// The response `chosen` (listed for `status`), with the example named `example` or its own, else a body made
    /// from its schema; its required headers made up.
    private func respond(with chosen: ResponseContract?, status: Int, example: String?, to request: CapturedRequest,
                         dynamicVariant: Int? = nil) -> MockResponse {
        guard let chosen else { return MockResponse(status: .other(status)) }
        var headers: [String: String] = [:]
        var generator = ValueGenerator(root: root, place: contract.pointer + "/" + chosen.status, variant: dynamicVariant ?? options.variant)
        for header in chosen.requiredHeaders {
            let value = header.schemaValue.map { generator.value(for: $0) } ?? .string("value")
            headers[header.name] = value.text ?? value.description
        }
        guard let media = Self.media(of: chosen, accepting: request.headers["Accept"]) else {
            return MockResponse(status: .other(status), headers: headers)
        }
        let value: JSONValue
        if let name = example {
            guard let named = media.examples.first(where: { $0.name == name }) else {
                let known = media.examples.map(\.name)
                return Self.problem(status: 404, title: "No such example",
                                    detail: "Prefer asked for the example \"\(name)\", which the \(chosen.status) \(media.name) response of \(contract.operation) does not have; \(known.isEmpty ? "it has none" : "it has " + known.joined(separator: ", ")).",
                                    violations: [])
            }
            value = named.value
        } else if dynamicVariant != nil, let pointer = media.schemaPointer, let schema = JSONPointer.value(at: pointer, in: root) {
            value = generator.value(for: schema, ignoringExamples: true)
        } else if let example = media.example {
            value = example
        } else if let pointer = media.schemaPointer, let schema = JSONPointer.value(at: pointer, in: root) {
            value = generator.value(for: schema)
        } else {
            return MockResponse(status: .other(status), headers: headers)
        }
        return Self.response(status: status, headers: headers, media: media, value: value)
    }

    /// `value` served as `media`, with `headers`.
    private static func response(status: Int, headers: [String: String], media: MediaContract, value: JSONValue) -> MockResponse {
        var headers = headers
        let contentType = media.name.contains("*") ? (media.isJSON || media.name == "*/*" ? "application/json" : "application/octet-stream") : media.name
        headers["Content-Type"] = contentType
        let body: Data
        if !MediaContract.isJSON(contentType), case .string(let text) = value {
            body = Data(text.utf8)
        } else {
            body = value.data
        }
        return MockResponse(status: .other(status), headers: headers, body: body)
    }

    /// `200` for `200`, `2XX` and `default`.
    static func status(of listed: String) -> Int {
        if let code = Int(listed) { return code }
        if let first = listed.first?.wholeNumberValue, listed.count == 3 { return first * 100 }
        return 200
    }

    /// The media type served: the first the `Accept` header takes, JSON before others.
    private static func media(of response: ResponseContract, accepting accept: String?) -> MediaContract? {
        guard let accept, !accept.isEmpty else { return response.content.first }
        let ranges = accept.split(separator: ",").map { String($0) }
        return response.content.first { media in ranges.contains { MediaContract.matches(range: $0, media.name) } }
            ?? response.content.first
    }

    /// An `application/problem+json` response (RFC 9457) marked for HTTPMockTesting as a broken contract, with a
    /// `violations` member listing each violation.
    static func problem(status: Int, title: String, detail: String, violations: [ContractViolation],
                        extraHeaders: [String: String] = [:], marksViolation: Bool = true) -> MockResponse {
        var object: [String: JSONValue] = [
            "type": .string("about:blank"),
            "title": .string(title),
            "status": .int(status),
            "detail": .string(detail),
        ]
        if !violations.isEmpty {
            object["violations"] = .array(violations.map { violation in
                .object([
                    "place": .string(violation.place),
                    "pointer": .string(violation.pointer),
                    "rule": .string(violation.rule),
                    "message": .string(violation.message),
                ])
            })
        }
        var headers = ["Content-Type": "application/problem+json"]
        if marksViolation { headers["X-HTTPMock"] = JournalEntry.contractViolationMarker }
        headers.merge(extraHeaders) { $1 }
        return MockResponse(status: .other(status), headers: headers, body: JSONValue.object(object).prettyData)
    }
}

/// What a request asks of a mock made from a document, as Prism reads it: the `Prefer` header's `code` and
/// `example` (`Prefer: code=404, example=missing`), or the query items `__code` and `__example`.
struct Preference {
    var code: Int?
    var example: String?
    /// `dynamic=true`: a body made from the schema for each request, examples aside, varied by `seed` when given
    /// (the same seed, the same body), else by a new random number.
    var dynamic = false
    var seed: Int?

    init(_ request: CapturedRequest) {
        // Most requests ask for nothing: no `Prefer` header, no `__` query item.
        let preferences = request.headers.values(for: "Prefer")
        guard !preferences.isEmpty || request.url.query?.contains("__") == true else { return }
        for value in preferences {
            for item in value.split(whereSeparator: { $0 == "," || $0 == ";" }) {
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                let text = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                switch parts[0].lowercased() {
                case "code": code = Int(text)
                case "example": example = text
                case "dynamic": dynamic = text.lowercased() == "true"
                case "seed": seed = Int(text)
                default: break
                }
            }
        }
        if let text = request.queryValues(for: "__code").first ?? nil { code = Int(text) }
        if let text = request.queryValues(for: "__example").first ?? nil { example = text }
        if let text = request.queryValues(for: "__dynamic").first ?? nil { dynamic = text.lowercased() == "true" }
        if let text = request.queryValues(for: "__seed").first ?? nil { seed = Int(text) }
    }
}
#endif
