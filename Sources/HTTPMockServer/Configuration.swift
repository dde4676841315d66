#if Server
import Foundation
import HTTPMock
import NIOHTTP1

extension HTTPMockServer {
    /// How a server matches requests to stubs, and what it refuses.
    ///
    /// The limits protect the test process from a runaway client; each refusal is the status a real server sends.
    ///
    /// Some bounds need no setting. A connection queues 64 KiB of responses and one response more at most: past
    /// that, a client that pipelines requests has the next one answered only once the responses before it have
    /// left for the socket, and the server reads nothing more from it meanwhile, so fifty pipelined requests for a
    /// 5 MB body hold about 5 MB, not 250 MB, while the client does not read.
    public struct Configuration: Sendable {
        /// The scheme and host requests are matched and journaled as, such as `https://api.example.com`, so the
        /// stubs registered for that host answer. `nil` (the default): `http://` and the mock's `defaultDomain`.
        ///
        /// A request whose `Host` header names another host than the server's own address (`127.0.0.1`,
        /// `localhost`) is matched as a request to that host, with this scheme: one server can answer for every
        /// host a mock has stubs for (`curl -H 'Host: cdn.example.com' …`). So is a request in the absolute form a
        /// client sends to a proxy (`curl -x http://127.0.0.1:PORT http://cdn.example.com/logo`).
        public var origin: String?
        /// The largest request header section, in bytes (names and values; a single field counts alone too).
        /// A larger one gets `431 Request Header Fields Too Large` and the connection is closed. Default 64 KiB.
        public var maximumHeaderBytes: Int
        /// The largest request body, in bytes. A larger one gets `413 Content Too Large` as soon as it is known
        /// (at once for a `Content-Length` or `Expect: 100-continue`, else when the limit is passed), the rest of
        /// the body is not read, and the connection is closed once the response is written (a lingering close: up
        /// to 1 MiB more is dropped, for 2 seconds at most, so the client can read the `413`). Default 32 MiB.
        public var maximumBodyBytes: Int
        /// Seconds a connection may take to send a complete request head, counted from when it opens or its last
        /// response ended: a client that never finishes its headers, or an idle keep-alive connection, is closed
        /// after this. Default 30.
        public var requestHeadTimeout: TimeInterval
        /// Where a request that no stub answers goes when the mock's unmocked policy is `.passthrough`: a base URL
        /// such as `https://api.example.com` (a path in it prefixes the request's path). The server forwards the
        /// request there, relays the response as it came (redirects included, not followed) and journals it, so
        /// a recording (`startRecording`) writes it. `nil` (the default): such a request gets
        /// `502 Bad Gateway`, and nothing leaves the machine.
        public var proxy: URL?
        /// Whether the server answers WireMock's admin API under `/__admin/` (the journal, reset, settings,
        /// shutdown: see <doc:CommandLineAndAdminAPI>) instead of matching those paths against the stubs.
        /// Default `false`.
        public var adminAPI: Bool
        /// A WireMock root folder (`mappings/`, `__files/`) for the admin API's stub mappings: the `bodyFileName` of
        /// a mapping created with `POST /__admin/mappings` is read from its `__files`, and
        /// `POST /__admin/mappings/save` writes those mappings into its `mappings` folder, and nowhere else. `nil`
        /// (the default): such mappings cannot name body files, and saving is refused. `httpmock serve` sets it to
        /// the WireMock folder it serves. A `GET` no stub answers gets the file of its `__files` at the request's
        /// path, as WireMock's standalone server serves them (a folder by its `index.json` or `index.html`).
        public var wireMockFolder: URL?
        /// How mappings created over the admin API rank against other mappings of the same `priority`: the more
        /// specific answers (`WireMockRanking.specificity`, the default), or the most recently added, as in
        /// WireMock (`.mostRecentlyAdded`: what `httpmock serve` sets, for the folder it serves
        /// too).
        public var wireMockRanking: WireMockRanking = .specificity
        /// The largest WebSocket message (and frame) a client may send, in bytes: a larger one closes the
        /// conversation with code 1009 (message too big). Default 1 MiB.
        public var maximumWebSocketMessageBytes: Int = 1 << 20
        /// Seconds a request's body may pause between its bytes (and a client that sent `Expect: 100-continue` may
        /// take to start it): a body that stalls gets `408 Request Timeout` and the connection is closed, so a
        /// client that never finishes its upload holds no connection for long. Default 30.
        public var requestBodyTimeout: TimeInterval = 30
        /// Seconds a request's whole body may take, however steadily it trickles in: past it, `408` and the
        /// connection is closed. Default 300.
        public var requestBodyTotalTimeout: TimeInterval = 300
        /// The user and password the admin API requires, with HTTP Basic authentication (WireMock's
        /// `--admin-api-basic-auth`): a request without them gets `401`. Required when the server listens beyond
        /// loopback with the admin API on: ``HTTPMockServer/start(serving:port:address:configuration:)`` refuses to
        /// start without them. Default `nil`: none asked for on loopback.
        public var adminCredentials: AdminCredentials?
        /// Host names the admin API answers besides the server's own address (`127.0.0.1`, `localhost`, `::1`, the
        /// address it is bound to): a name that reaches this machine, such as `10.0.2.2` from an Android emulator.
        /// Any other `Host` is refused with `403`, so a web page cannot reach the admin API through DNS rebinding.
        public var adminHosts: Set<String> = []

        /// Settings with the defaults above, changed where given.
        public init(
            origin: String? = nil,
            maximumHeaderBytes: Int = 64 * 1024,
            maximumBodyBytes: Int = 32 << 20,
            requestHeadTimeout: TimeInterval = 30,
            proxy: URL? = nil,
            adminAPI: Bool = false,
            wireMockFolder: URL? = nil
        ) {
            self.origin = origin
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBodyBytes = maximumBodyBytes
            self.requestHeadTimeout = requestHeadTimeout
            self.proxy = proxy
            self.adminAPI = adminAPI
            self.wireMockFolder = wireMockFolder
        }

        var decoderLimits: NIOHTTPDecoderLimitConfiguration {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = max(1, maximumHeaderBytes)
            limits.maxHeaderListSize = max(1, maximumHeaderBytes)
            return limits
        }
    }
}

/// What every connection of one server shares.
struct ConnectionSettings: Sendable {
    let mock: HTTPMock
    let configuration: HTTPMockServer.Configuration
    let lifecycle: ServerLifecycle
    /// Carries unanswered requests to ``HTTPMockServer/Configuration/proxy``, if one is set.
    let forwarder: Forwarder?
    /// What the admin API changes.
    let state: ServerState
    /// `scheme://host` of ``HTTPMockServer/Configuration/origin``, or `nil` to use the mock's default domain.
    private let origin: (scheme: String, authority: String)?
    /// The address the server is bound to, which a `Host` header may name too.
    private let address: String

    init(mock: HTTPMock, configuration: HTTPMockServer.Configuration, address: String, lifecycle: ServerLifecycle) {
        self.mock = mock
        self.lifecycle = lifecycle
        self.address = address.lowercased()
        self.configuration = configuration
        let state = ServerState(wireMockFolder: configuration.wireMockFolder, ranking: configuration.wireMockRanking)
        self.state = state
        // A message stub triggered by an HTTP stub names it by its WireMock id.
        let folderMappings = Locked<[UUID: WireMockStubMapping?]>([:])
        mock.messaging.setStubIdentity { stub, summary, wanted in
            if let created = state.mappings.mapping(forStub: stub) { return created.id == wanted }
            // One of the served folder's files: looked up once by its id (found or not), then told by the stub's
            // summary, so a request never reads the folder again.
            let mapping: WireMockStubMapping?
            if let known = folderMappings.withLock({ $0[wanted] }) {
                mapping = known
            } else {
                mapping = MappingsResource.folderMappings(AdminContext(mock: mock, state: state)).first { $0.mapping.id == wanted }?.mapping
                folderMappings.withLock { $0[wanted] = .some(mapping) }
            }
            return mapping?.isLoaded(asStubSummarized: summary) ?? false
        }
        forwarder = configuration.proxy.map { Forwarder(upstream: $0, via: state.via) }
        if let origin = configuration.origin {
            if let range = origin.range(of: "://") {
                self.origin = (String(origin[..<range.lowerBound]).lowercased(),
                               String(origin[range.upperBound...]).trimmingTrailingSlashes)
            } else {
                self.origin = ("http", origin.trimmingTrailingSlashes)
            }
        } else {
            self.origin = nil
        }
    }

    /// The authority of a request whose `Host` names this machine: the origin's, or the mock's default domain
    /// (which can change while the server runs).
    var defaultAuthority: String { origin?.authority ?? mock.defaultDomain }

    /// The URL a request for `uri` with this `Host` header is matched as; `nil` when `uri` cannot be one.
    func url(uri: String, hostHeader: String?, defaultAuthority: String) -> URL? {
        var target = uri
        var hostHeader = hostHeader
        // The origin form (`/user?id=1`) is every request but a proxy's: joined as it is, and URL(string:) checks
        // it. The absolute form a client sends to a proxy (`GET http://api.example.com/user`) names the host itself.
        if uri.utf8.first != UInt8(ascii: "/"),
           let absolute = URLComponents(string: uri), absolute.scheme != nil, let host = absolute.host {
            hostHeader = absolute.port.map { "\(host):\($0)" } ?? host
            target = absolute.percentEncodedPath.isEmpty ? "/" : absolute.percentEncodedPath
            if let query = absolute.percentEncodedQuery { target += "?" + query }
        }
        let scheme = origin?.scheme ?? "http"
        var authority = defaultAuthority
        if let hostHeader, !isLocal(hostHeader) { authority = hostHeader }
        let path = target.utf8.first == UInt8(ascii: "/") ? target : "/" + target
        return URL(string: scheme + "://" + authority + Self.encodingInvalidBytes(path))
    }

    /// `target` with each byte a URL may not hold percent-encoded (`[`, `|`, a space, bytes past ASCII; a `%` not
    /// followed by two hex digits), and what is already encoded left as it is. URL(string:) would otherwise encode
    /// the whole text again when it meets one, `%20` as `%2520`, and a query value would read back wrong.
    static func encodingInvalidBytes(_ target: String) -> String {
        func allowed(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            // Unreserved, sub-delimiters, `:`, `@`, `/`, `?`, and `#`, which starts a fragment as it always did.
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
                 UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                 UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"),
                 UInt8(ascii: "?"), UInt8(ascii: "#"): true
            default: false
            }
        }
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        let bytes = Array(target.utf8)
        func kept(_ index: Int) -> Bool {
            let byte = bytes[index]
            if allowed(byte) { return true }
            return byte == UInt8(ascii: "%") && index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])
        }
        guard let first = bytes.indices.first(where: { !kept($0) }) else { return target }
        let digits = Array("0123456789ABCDEF".utf8)
        var out = Array(bytes[..<first])
        out.reserveCapacity(bytes.count + 16)
        for index in first..<bytes.count {
            let byte = bytes[index]
            if kept(index) { out.append(byte) } else { out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a `Host` header names this machine (the server itself) rather than a host to mock: a loopback
    /// literal or `localhost` (``HostName``), the address the server is bound to, or no name at all.
    func isLocal(_ host: String) -> Bool {
        guard let name = HostName.withoutPort(host.utf8[...]) else { return false }
        return name.isEmpty || HostName.isLoopbackName(name) || HostName.same(name, address)
            || HostName.same(name, "0.0.0.0")
    }

    /// Whether the admin API answers a request with this `Host` header: a loopback literal or `localhost`
    /// (``HostName``), the server's own address, or a name the configuration allows
    /// (``HTTPMockServer/Configuration/adminHosts``). `0.0.0.0` is no name a client uses.
    func isAdminHost(_ host: String) -> Bool {
        guard let name = HostName.withoutPort(host.utf8[...]), !name.isEmpty, !HostName.same(name, "0.0.0.0") else {
            return false
        }
        if HostName.isLoopbackName(name) || HostName.same(name, address) { return true }
        let lowered = String(Substring(name)).lowercased()
        return configuration.adminHosts.contains { $0.lowercased() == lowered }
    }
}

extension String {
    fileprivate var trimmingTrailingSlashes: String {
        var copy = self
        while copy.hasSuffix("/") { copy.removeLast() }
        return copy
    }
}
#endif
