import Foundation

/// A stub's answer that another server gives: the request goes on to ``base`` and its answer comes back as it is
/// (WireMock's `proxyBaseUrl`). Faces carry it out as they carry out a passthrough: the mock's passthrough session in
/// process, HTTPMockServer's forwarding over the socket.
struct Forwarding: Sendable {
    /// Scheme, authority and an optional path that the request's own path follows.
    private(set) var base: URL
    /// A path prefix taken off the request's path first (`proxyUrlPrefixToRemove`).
    let prefixToRemove: String?
    /// Headers set on the forwarded request, replacing any of the same name (`additionalProxyRequestHeaders`).
    private(set) var addedHeaders: [(name: String, value: String)]
    /// Headers not forwarded (`removeProxyRequestHeaders`), by name in any case.
    let removedHeaders: Set<String>
    /// Where ``base`` was rendered from, when it is a template filled from each request (`mappings/p.json at
    /// response.proxyBaseUrl`): its host was not known when the mapping loaded, so the engine checks it when it
    /// answers. `nil`: a fixed base, checked when loaded.
    private(set) var renderedFrom: String?

    init(base: URL, prefixToRemove: String? = nil, addedHeaders: [(name: String, value: String)] = [], removedHeaders: [String] = []) {
        self.base = base
        self.prefixToRemove = prefixToRemove
        self.addedHeaders = addedHeaders
        self.removedHeaders = Set(removedHeaders.map { $0.lowercased() })
    }

    /// The same forwarding to `base`, rendered from the template at `place` for one request.
    func rebased(on base: URL, renderedFrom place: String) -> Forwarding {
        var copy = self
        copy.base = base
        copy.renderedFrom = place
        return copy
    }

    /// The same forwarding with the added headers' values `values` (in order), rendered for one request.
    func adding(values: [String]) -> Forwarding {
        var copy = self
        copy.addedHeaders = zip(addedHeaders, values).map { ($0.name, $1) }
        return copy
    }

    /// Whether `value` can be sent as a header's value: no line break, nor any other control character but the tab.
    static func isHeaderValue(_ value: String) -> Bool {
        !value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }

    /// `text` as a base URL to forward to: absolute `http` or `https`, with a host, a port (if any) from 1 to 65535,
    /// and no query, fragment or user (which would hide the host a reader sees); `nil` otherwise.
    static func base(_ text: String) -> URL? {
        guard let base = URL(string: text), ["http", "https"].contains(base.scheme?.lowercased() ?? ""), base.host?.isEmpty == false,
              base.query == nil, base.fragment == nil, base.user == nil, base.password == nil,
              base.port.map({ (1...65_535).contains($0) }) ?? true else { return nil }
        return base
    }

    /// The request that goes on: `base` followed by the request's path (less the prefix) and query, its method and
    /// body, its headers less the removed ones and `Host` (the target's own is sent), with the added ones.
    func request(for request: CapturedRequest) -> CapturedRequest {
        let relative = RelativeURL(request.url)
        var path = relative.path
        if let prefixToRemove, !prefixToRemove.isEmpty, path.hasPrefix(prefixToRemove) { path.removeFirst(prefixToRemove.count) }
        if !path.isEmpty, !path.hasPrefix("/") { path = "/" + path }
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if let query = relative.query { text += "?" + query }
        let replaced = Set(addedHeaders.map { $0.name.lowercased() })
        var headers = HeaderFields()
        for field in request.headers {
            let name = field.name.lowercased()
            if name == "host" || removedHeaders.contains(name) || replaced.contains(name) { continue }
            headers.add(field.name, field.value)
        }
        for (name, value) in addedHeaders { headers.add(name, value) }
        var forwarded = CapturedRequest(method: request.method, url: URL(string: text) ?? base, headers: headers, body: request.body)
        forwarded.sentBody = request.sentBody
        return forwarded
    }
}
