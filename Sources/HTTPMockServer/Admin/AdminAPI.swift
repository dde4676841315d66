#if Server
import Foundation
import HTTPMock
import NIOCore

/// WireMock's admin API, the part that HTTPMock's engine has words for: requests under `/__admin/` are answered
/// here, never matched against the stubs nor journaled (see ``HTTPMockServer/Configuration/adminAPI``).
///
/// The routes are a table, one resource per file (an enum with `routes` and, if `POST /__admin/reset` must undo
/// something of it, `reset`).
enum AdminAPI {
    /// The path every admin route starts with.
    static let root = "__admin"

    /// Every resource's routes, in the order they are tried.
    private static let routes: [AdminRoute] = MappingsResource.routes + ScenariosResource.routes + RequestsResource.routes
        + NearMissesResource.routes + RecordingsResource.routes + FilesResource.routes + SettingsResource.routes
        + ServerResource.routes + MessagingResource.routes

    /// What `POST /__admin/reset` undoes, resource by resource: the journal, the mappings created over the API, then
    /// the scenarios (once the mappings that named some of them are gone).
    private static let resets: [@Sendable (AdminContext) -> Void] = [
        RequestsResource.reset, MappingsResource.reset, ScenariosResource.reset, MessagingResource.reset,
    ]

    /// Whether `target` (a request's path and query, as sent) is for the admin API.
    static func handles(_ target: String) -> Bool {
        let path = target.prefix { $0 != "?" && $0 != "#" }
        return path == "/" + root || path.hasPrefix("/" + root + "/")
    }

    /// The threads admin requests run on, off the event loops and off the decision pool: one pool for what only
    /// reads (listings, lookups, searches of the journal), one for what changes something. A listing of the whole
    /// journal holds up neither a mutation nor a request to a stub, and a long import holds up no listing; each
    /// pool grows while work waits (see ``GrowingPool``).
    static let readers = GrowingPool("HTTPMock admin reads", base: 1, maximum: 8, idleSeconds: 10)
    static let writers = GrowingPool("HTTPMock admin changes", base: 1, maximum: 4, idleSeconds: 10)

    /// Whether a request only reads: `GET`, and the searches sent as `POST` (`requests/count`, `requests/find`,
    /// `mappings/find-by-metadata`, `near-misses/…`).
    static func onlyReads(method: String, target: String) -> Bool {
        if method == "GET" || method == "HEAD" { return true }
        guard method == "POST" else { return false }
        let path = target.prefix { $0 != "?" && $0 != "#" }
        return path.hasSuffix("/requests/count") || path.hasSuffix("/requests/find")
            || path.hasSuffix("/mappings/find-by-metadata") || path.contains("/near-misses/")
            || path.hasSuffix("/messages/count") || path.hasSuffix("/messages/find") || path.hasSuffix("/messages/wait")
            || path.hasSuffix("/messages/wait-for-count")
    }

    /// Runs `answer` on the pool for `request` (see ``readers``); its reply arrives on `eventLoop`.
    static func run(_ request: AdminRequest, target: String, on eventLoop: any EventLoop,
                    _ answer: @escaping @Sendable () -> AdminReply) -> EventLoopFuture<AdminReply> {
        let promise = eventLoop.makePromise(of: AdminReply.self)
        let pool = onlyReads(method: request.method, target: target) ? readers : writers
        pool.submit { promise.succeed(answer()) }
        return promise.futureResult
    }

    /// Answers an admin request. Never throws: a bad request gets WireMock's error JSON.
    static func answer(_ request: AdminRequest, context: AdminContext) -> AdminReply {
        var pathMatched = false
        for route in routes {
            guard let parameters = route.match(request.segments) else { continue }
            pathMatched = true
            guard route.method == request.method else { continue }
            do {
                return try route.handle(request, parameters, context)
            } catch {
                return error.reply
            }
        }
        let known = routes.map { "\($0.method) /\(root)/\($0.pattern.joined(separator: "/"))" }
        let title = pathMatched
            ? "\(request.method) is not supported on /\(root)/\(request.segments.joined(separator: "/"))"
            : "No admin route for \(request.method) /\(root)/\(request.segments.joined(separator: "/"))"
        return AdminError(status: 404, code: 40, title: title,
                          detail: "HTTPMock's admin API has: \(known.joined(separator: ", "))").reply
    }

    /// Undoes what every resource keeps, for `POST /__admin/reset`.
    static func resetAll(_ context: AdminContext) {
        for reset in resets { reset(context) }
    }
}

/// One method and path of the admin API.
struct AdminRoute: Sendable {
    typealias Handler = @Sendable (AdminRequest, [String: String], AdminContext) throws(AdminError) -> AdminReply

    let method: String
    /// The segments after `__admin`; `{name}` matches any one segment and is passed to the handler by name.
    let pattern: [String]
    let handle: Handler

    init(_ method: String, _ path: String, _ handle: @escaping Handler) {
        self.method = method
        pattern = path.split(separator: "/").map(String.init)
        self.handle = handle
    }

    func match(_ segments: [String]) -> [String: String]? {
        guard segments.count == pattern.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(pattern, segments) {
            if part.hasPrefix("{"), part.hasSuffix("}") {
                parameters[String(part.dropFirst().dropLast())] = segment
            } else if part != segment {
                return nil
            }
        }
        return parameters
    }
}

/// What an admin route gets to work with.
struct AdminContext: Sendable {
    let mock: HTTPMock
    let state: ServerState
    /// The URL a request for this target and `Host` header is matched as (the origin, or the mock's default domain,
    /// for the server's own address), as the server matches what it serves.
    var matchedURL: @Sendable (_ target: String, _ host: String?) -> URL? = { target, _ in URL(string: "http://example.com" + target) }
}

/// A request to the admin API.
struct AdminRequest: Sendable {
    /// Upper-cased.
    let method: String
    /// The path's segments after `__admin`, percent-decoded.
    let segments: [String]
    /// The query's parameters (the last value of a repeated one).
    let query: [String: String]
    let body: Data?

    /// `target` is the request's path and query as sent, which ``AdminAPI/handles(_:)`` accepted.
    init(method: String, target: String, body: Data?) {
        self.method = method.uppercased()
        let components = URLComponents(string: target)
        let path = components?.percentEncodedPath ?? target
        segments = Array(path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }.dropFirst())
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        self.query = query
        self.body = body
    }

    /// The body as a JSON object, or WireMock's "Error parsing JSON" (422).
    func jsonObject() throws(AdminError) -> [String: Any] {
        guard let body, !body.isEmpty else {
            throw AdminError.invalidJSON(pointer: "/", detail: "the request has no body; send a JSON object")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            let start = String(decoding: body.prefix(80), as: UTF8.self)
            throw AdminError.invalidJSON(pointer: "/", detail: "the body is not valid JSON: \(start)\(body.count > 80 ? "…" : "")")
        }
        guard let object = parsed as? [String: Any] else {
            throw AdminError.invalidJSON(pointer: "/", detail: "the body is JSON but not an object; send {…}")
        }
        return object
    }
}

/// What the admin API answers.
struct AdminReply: Sendable {
    var status: Int
    /// JSON, or empty.
    var body: Data
    /// What the server does once the reply is sent.
    var then: FollowUp?

    enum FollowUp: Sendable {
        /// Stop the server (`POST /__admin/shutdown`).
        case shutdown
    }

    /// `200` with `object` as JSON.
    static func json(_ object: Any, status: Int = 200) -> AdminReply {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return AdminReply(status: status, body: data)
    }

    /// JSON written straight to bytes (see ``JSONBytes``).
    static func json(_ written: JSONBytes, status: Int = 200) -> AdminReply {
        AdminReply(status: status, body: written.data)
    }

    /// `200` with no body.
    static let ok = AdminReply(status: 200, body: Data())
}

/// A refused admin request, answered in WireMock's error shape:
/// `{"errors":[{"code":10,"source":{"pointer":"/fixedDelay"},"title":"…","detail":"…"}]}`.
struct AdminError: Error {
    var status: Int
    /// WireMock's error code: 10 for input it cannot read, 40 for a route it does not have.
    var code: Int
    var pointer: String?
    var title: String
    var detail: String?

    init(status: Int, code: Int, pointer: String? = nil, title: String, detail: String? = nil) {
        self.status = status
        self.code = code
        self.pointer = pointer
        self.title = title
        self.detail = detail
    }

    /// JSON that cannot be read, or does not say what the route needs: 422, as WireMock answers.
    static func invalidJSON(pointer: String, detail: String) -> AdminError {
        AdminError(status: 422, code: 10, pointer: pointer, title: "Error parsing JSON", detail: detail)
    }

    /// A stub mapping or request pattern that cannot be read or served: 422, as WireMock answers, with the key
    /// HTTPMock's message names (`… at request.headers.Accept: …`) as the JSON pointer (`/request/headers/Accept`)
    /// and the message as the detail.
    static func unreadable(_ error: HTTPMockError) -> AdminError {
        invalidJSON(pointer: pointer(in: error.message) ?? "/", detail: error.message)
    }

    /// The JSON pointer of the first `at <key path>:` in `message`.
    private static func pointer(in message: String) -> String? {
        var rest = message[...]
        while let at = rest.range(of: " at ") {
            let after = rest[at.upperBound...]
            if let colon = after.range(of: ": ") {
                let path = after[..<colon.lowerBound]
                if path == "the top level" { return "/" }
                let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-$[]"))
                if !path.isEmpty, path.unicodeScalars.allSatisfy(allowed.contains) {
                    let keys = path.replacingOccurrences(of: "[", with: ".").replacingOccurrences(of: "]", with: "")
                        .split(separator: ".")
                        .map { $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
                    return "/" + keys.joined(separator: "/")
                }
            }
            rest = after
        }
        return nil
    }

    var reply: AdminReply {
        var error: [String: Any] = ["code": code, "title": title]
        if let pointer { error["source"] = ["pointer": pointer] }
        if let detail { error["detail"] = detail }
        return .json(["errors": [error]], status: status)
    }
}
extension AdminRequest {
    /// The query parameter `name` (`offset`, `limit`) as a whole number from 0; `nil` when absent; a 400 naming it
    /// and `what` is counted otherwise.
    func wholeNumber(_ name: String, counting what: String) throws(AdminError) -> Int? {
        guard let text = query[name] else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw AdminError(status: 400, code: 10, pointer: name, title: "Invalid parameter",
                             detail: "\(name)=\(text) is not a whole number of \(what)")
        }
        return number
    }
}
#endif
