#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

extension OpenAPIDocument {
    /// Every way `request` breaks the document, as a mock made from it refuses requests: a path it does not list,
    /// a method the path does not have, a required parameter missing, a parameter or a JSON body that does not
    /// match its schema. Empty when the request keeps the contract.
    ///
    /// The request's URL is read against each of the document's `servers` (its base path, and its host when it
    /// names one); without servers, against the paths alone.
    public func violations(of request: CapturedRequest) -> [ContractViolation] {
        switch route(request) {
        case .operation(let contract, let values):
            return contract.violations(of: request, pathValues: values, root: bundle.root)
        case .methodNotAllowed(let path, let allowed):
            return [ContractViolation(operation: nil, place: "method", rule: "method",
                                      message: "\(path) has no \(request.method) operation; it has \(allowed.joined(separator: ", "))")]
        case .noPath:
            return [ContractViolation(operation: nil, place: "path", rule: "path",
                                      message: "the document lists no path that \(request.path) matches")]
        }
    }

    enum Route {
        case operation(OperationContract, pathValues: [String: String])
        case methodNotAllowed(path: String, allowed: [String])
        case noPath
    }

    /// The operation `request` is for, with the values of its path's variables.
    func route(_ request: CapturedRequest) -> Route {
        let segments = request.pathSegments
        var best: (path: String, values: [String: String], literals: Int)?
        for base in basePaths(for: request) {
            guard segments.count >= base.count, Array(segments.prefix(base.count)) == base else { continue }
            let rest = Array(segments.dropFirst(base.count))
            for contract in contracts {
                guard let values = PathTemplate.match(contract.operation.path, rest) else { continue }
                let literals = PathTemplate.segments(contract.operation.path).filter { !$0.contains("{") }.count
                if best == nil || literals > best!.literals { best = (contract.operation.path, values, literals) }
            }
        }
        guard let best else { return .noPath }
        let candidates = contracts.filter { $0.operation.path == best.path }
        if let contract = candidates.first(where: { $0.operation.method == request.method.uppercased() }) {
            return .operation(contract, pathValues: best.values)
        }
        return .methodNotAllowed(path: best.path, allowed: candidates.map(\.operation.method))
    }

    /// The path segments of each server's base path whose host, if it names one, is the request's.
    private func basePaths(for request: CapturedRequest) -> [[String]] {
        guard !servers.isEmpty else { return [[]] }
        var paths: [[String]] = []
        for server in servers {
            if let url = URL(string: server), let host = url.host, !host.isEmpty {
                guard host.lowercased() == request.host.lowercased() else { continue }
                paths.append(PathTemplate.segments(url.path))
            } else {
                paths.append(PathTemplate.segments(server))
            }
        }
        // A request to another host than the servers name: its path alone decides.
        return paths.isEmpty ? servers.map { URL(string: $0)?.path ?? $0 }.map(PathTemplate.segments) : paths
    }
}

/// Path templates matched segment by segment: `/pets/{petId}`, `/files/{name}.json`.
enum PathTemplate {
    static func segments(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The values of the template's variables when `segments` (percent-encoded, as a request has them) match it.
    static func match(_ template: String, _ segments: [String]) -> [String: String]? {
        let parts = self.segments(template)
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            guard part.contains("{") else {
                guard part == segment || part == segment.removingPercentEncoding else { return nil }
                continue
            }
            guard let captured = matchSegment(part, segment) else { return nil }
            values.merge(captured) { $1 }
        }
        return values
    }

    /// `{name}.json` against `report.json`: literal text around the variables must be there.
    private static func matchSegment(_ part: String, _ segment: String) -> [String: String]? {
        guard let open = part.firstIndex(of: "{"), let close = part[open...].firstIndex(of: "}") else {
            return part == segment ? [:] : nil
        }
        let prefix = String(part[..<open])
        let name = String(part[part.index(after: open)..<close])
        let suffix = String(part[part.index(after: close)...])
        guard segment.hasPrefix(prefix), segment.count > prefix.count else { return nil }
        let afterPrefix = segment.dropFirst(prefix.count)
        if suffix.isEmpty {
            return [name: String(afterPrefix).removingPercentEncoding ?? String(afterPrefix)]
        }
        // The literal right after the variable ends it (its last occurrence, so `{name}.json` reads `a.b.json`).
        let literalEnd = suffix.firstIndex(of: "{") ?? suffix.endIndex
        let literal = String(suffix[..<literalEnd])
        guard let range = afterPrefix.range(of: literal, options: .backwards), range.lowerBound > afterPrefix.startIndex else { return nil }
        let value = String(afterPrefix[..<range.lowerBound])
        guard var rest = matchSegment(String(suffix), String(afterPrefix[range.lowerBound...])) else { return nil }
        rest[name] = value.removingPercentEncoding ?? value
        return rest
    }
}

extension OperationContract {
    /// Every way `request` breaks this operation's parameters and body.
    func violations(of request: CapturedRequest, pathValues: [String: String], root: JSONValue) -> [ContractViolation] {
        var violations: [ContractViolation] = []
        // Worked out only when needed: most requests keep the contract, and most operations take no cookie.
        func add(_ place: String, _ rule: String, _ message: String, pointer: String = "") {
            violations.append(ContractViolation(operation: operation.description, place: place, pointer: pointer, rule: rule, message: message))
        }
        var cookies: [String: String] = [:]
        if parameters.contains(where: { $0.location == .cookie }) {
            switch Self.cookies(request.headers.values(for: "Cookie")) {
            case .success(let pairs): cookies = pairs
            case .failure(let problem): add("header Cookie", "cookie", problem.message)
            }
        }
        for parameter in parameters {
            switch parameter.read(from: request, pathValues: pathValues, cookies: cookies, root: root) {
            case .missing:
                if parameter.required { add(parameter.place, "required", "the required \(parameter.place) is missing") }
            case .malformed(let problem):
                add(parameter.place, "style", problem)
            case .value(let value):
                guard let schema = parameter.schema else { continue }
                for violation in schema.violations(of: value, limit: 20) {
                    add(parameter.place, violation.keyword, violation.message, pointer: violation.instancePath)
                }
            }
        }
        guard let body else { return violations }
        let bytes = request.body ?? Data()
        guard !bytes.isEmpty else {
            if body.required { add("request body", "required", "the request body is required, and there is none") }
            return violations
        }
        guard !body.content.isEmpty else { return violations }
        let contentType = request.headers["Content-Type"] ?? ""
        guard let media = body.content.first(where: { $0.accepts(contentType) }) else {
            add("request body", "media type", contentType.isEmpty
                ? "the body has no Content-Type; send one of \(body.content.map(\.name).joined(separator: ", "))"
                : "\"\(contentType)\" is not a media type the operation takes; it takes \(body.content.map(\.name).joined(separator: ", "))")
            return violations
        }
        guard let schema = media.schema else { return violations }
        let type = contentType.isEmpty ? media.name : contentType
        let value: JSONValue
        if MediaContract.isJSON(type) {
            guard let parsed = JSONValue.parse(bytes) else {
                add("request body", "json", "the body is not JSON")
                return violations
            }
            value = parsed
        } else if FormBody.isURLEncoded(type) || FormBody.isMultipart(type) {
            let shape = Shape(media.schemaPointer.flatMap { JSONPointer.value(at: $0, in: root) } ?? .object([:]), root: root)
            switch FormBody.isURLEncoded(type) ? FormBody.urlEncoded(bytes, shape) : FormBody.multipart(bytes, contentType: type, shape) {
            case .success(let parsed): value = parsed
            case .failure(let problem):
                add("request body", "media type", problem.message)
                return violations
            }
        } else {
            return violations
        }
        for violation in schema.violations(of: value, limit: 50) {
            add("request body", violation.keyword, violation.message, pointer: violation.instancePath)
        }
        return violations
    }

    /// The cookies of the `Cookie` headers (RFC 6265: `name=value` pairs separated by `;`); a piece that is not a
    /// pair means the header is not one the operation's cookie parameters can be read from.
    private static func cookies(_ headers: [String]) -> Result<[String: String], ReadingProblem> {
        var cookies: [String: String] = [:]
        for header in headers {
            for pair in header.split(separator: ";") where !pair.trimmingCharacters(in: .whitespaces).isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].trimmingCharacters(in: .whitespaces).isEmpty else {
                    return .failure(ReadingProblem(message: "\"\(pair.trimmingCharacters(in: .whitespaces))\" in the Cookie header is not a name=value pair; send cookies as name=value; other=value"))
                }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if cookies[name] == nil { cookies[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        return .success(cookies)
    }
}
#endif
