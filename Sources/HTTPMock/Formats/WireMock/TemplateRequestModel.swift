import Foundation
import _HTTPMockTemplates

/// What `request.…` names in a WireMock template, read from the request when a template names it.
///
/// `url` (path and query as sent), `path` (prints as the path; `.[n]` a segment, `.name` a variable of the
/// `urlPathTemplate`), `pathSegments`, `query.name` (one or many values: prints the first, `.[n]` one of them),
/// `headers.name` (names in any case; one or many values), `cookies.name`, `method`, `host`, `port` (the port
/// the request names, or 80 or 443), `scheme`, `baseUrl` (scheme, host and the port when the request names one), `body`,
/// `bodyAsBase64`, `clientIp` (the server's peer; `127.0.0.1` for a request made in process, which comes from this machine), `id` (a new UUID for each
/// rendering), `multipart`.
struct TemplateRequestModel: TemplateModel {
    let request: CapturedRequest
    let pathNames: [String: Int]
    /// `request.id`, made when a render first names it: a UUID reads the system's random source.
    private let id = LazyID()

    private final class LazyID: @unchecked Sendable {  // reason: a model serves one render, which runs on one thread
        lazy var text = UUID.random().lowercasedText
    }

    init(request: CapturedRequest, pathNames: [String: Int]) {
        self.request = request
        self.pathNames = pathNames
    }

    func attribute(_ name: String) -> TemplateValue? {
        switch name {
        case "url": return .string(RelativeURL(request).text)
        case "path":
            var named: [String: TemplateValue] = [:]
            for (name, position) in pathNames where request.pathSegments.indices.contains(position) {
                named[name] = .string(request.pathSegments[position])
            }
            return .multi(TemplateMulti(values: request.pathSegments.map { .string($0) }, text: RelativeURL(request).path, named: named))
        case "pathSegments": return .list(request.pathSegments.map { .string($0) })
        case "query":
            var query = TemplateObject()
            for item in request.queryItems where query[item.name] == nil {
                query[item.name] = .multi(request.queryValues(for: item.name).map { $0 ?? "" })
            }
            return .object(query)
        case "headers":
            // In the order of their names without regard to case, as WireMock keeps them; the first spelling names each.
            var names: [String] = []
            for field in request.headers.fields where !names.contains(where: { $0.caseInsensitiveEquals(field.name) }) {
                names.append(field.name)
            }
            var headers = TemplateObject(caseInsensitive: true)
            for name in names.sorted(by: { $0.javaCaseInsensitivelyPrecedes($1) }) {
                headers[name] = .multi(request.headers.values(for: name))
            }
            return .object(headers)
        case "cookies":
            var cookies = TemplateObject()
            for header in request.headers.values(for: "Cookie") {
                for pair in header.split(separator: ";") {
                    let pair = pair.trimmingCharacters(in: .whitespaces)
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    let name = String(pair[..<equals])
                    if cookies[name] == nil { cookies[name] = .multi(Cookies.values(name, in: request)) }
                }
            }
            return .object(cookies)
        case "method": return .string(request.method)
        case "host": return .string(authority.host)
        case "port": return .int(port)
        case "scheme": return .string(request.scheme)
        case "baseUrl":
            let (host, port) = authority
            return .string("\(request.scheme)://\(host)" + (port.map { ":\($0)" } ?? ""))
        case "body": return .string(request.wireMockBodyText ?? "")
        case "bodyAsBase64": return .string((request.body ?? Data()).base64EncodedString())
        case "clientIp": return .string(request.clientIP)
        case "id": return .string(id.text)
        case "multipart": return .bool(request.headers["Content-Type"]?.lowercased().hasPrefix("multipart/") ?? false)
        case "requestLine": return .request
        default: return nil
        }
    }

    /// The port the request names, or the scheme's.
    var port: Int { authority.port ?? (request.scheme == "https" ? 443 : 80) }

    /// The host and port the request names: through a server, those of its `Host` header, as WireMock reads them (a
    /// server answers its loopback name for the mock's default domain, which the URL then holds); in process, the
    /// URL's.
    private var authority: (host: String, port: Int?) {
        guard request.target != nil, let header = request.headers["Host"], !header.isEmpty else { return (request.host, request.port) }
        var host = Substring(header)
        var port: Int?
        if let colon = host.lastIndex(of: ":"), !host[host.index(after: colon)...].contains("]"),
           let number = Int(host[host.index(after: colon)...]) {
            port = number
            host = host[..<colon]
        }
        return (host.lowercased(), port)
    }

    /// Every attribute, as a map (for `toJson request`).
    var materialized: TemplateValue {
        let names = ["id", "url", "path", "pathSegments", "query", "headers", "cookies", "method", "host", "port", "scheme", "baseUrl",
                     "body", "bodyAsBase64", "clientIp", "multipart"]
        return .object(TemplateObject(names.compactMap { name in attribute(name).map { (name, $0) } }))
    }
}

extension HandlebarsTemplate {
    /// The template filled from `request`, read as WireMock's `request.…` (see ``TemplateRequestModel``).
    func render(_ request: CapturedRequest) -> String {
        render(TemplateRequestModel(request: request, pathNames: pathNames) as any TemplateModel)
    }

    /// The template filled from `request`, or the problem that stopped the render.
    func result(_ request: CapturedRequest) -> Result<String, TemplateProblem> {
        result(TemplateRequestModel(request: request, pathNames: pathNames) as any TemplateModel)
    }
}

private extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool { !javaCaseInsensitivelyPrecedes(other) && !other.javaCaseInsensitivelyPrecedes(self) }

    /// Java's case-insensitive order of strings: UTF-16 code units compared with ASCII letters in lower case, a
    /// shorter string first when one begins the other.
    func javaCaseInsensitivelyPrecedes(_ other: String) -> Bool {
        func folded(_ unit: UInt16) -> UInt16 { (0x41...0x5A).contains(unit) ? unit + 0x20 : unit }
        for (a, b) in zip(utf16, other.utf16) where folded(a) != folded(b) { return folded(a) < folded(b) }
        return utf16.count < other.utf16.count
    }
}
