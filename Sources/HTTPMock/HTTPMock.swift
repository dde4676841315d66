import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stand-in for the network of code that talks HTTP through `URLSession`.
///
/// Register what requests should get back, then hand ``urlSession`` to the code under test:
///
/// ```swift
/// let mock = HTTPMock()
/// mock.addResponses(forPath: "/user", host: "api.example.com") {
///     MockResponse.encodable(User(id: 1, name: "Alice"))
///     MockResponse.empty(status: .notFound)     // the second request gets 404
/// }
/// let (data, response) = try await mock.urlSession.data(from: URL(string: "https://api.example.com/user")!)
/// ```
///
/// Every instance has its own stubs, journal and session: instances used at the same time (parallel tests)
/// never see each other's stubs. ``shared`` is one instance like the others, kept for the life of the process.
public final class HTTPMock: Sendable {
    /// A process-wide instance, for code that cannot be handed a mock. Reset it with ``clearQueues()``.
    public static let shared = HTTPMock()

    /// A session whose every request this mock answers. Give it to the code under test.
    ///
    /// Made when first read, then the same session every time: a URLSession holds file descriptors (two on
    /// Linux), so mocks that never use their session cost none.
    public var urlSession: URLSession {
        ownSession.withLock { own in
            switch own {
            case .made(let session):
                return session
            case .pending(let configuration):
                let session = URLSession(configuration: configuration)
                own = .made(session)
                return session
            }
        }
    }

    let core: MockCore
    let protocolClass: InterceptingProtocol.Type
    private let settings = Locked(Settings())
    /// ``urlSession``, or its configuration until it is made. The configuration is built at once (it holds no
    /// descriptor) so that its cookie storage is known before the session exists.
    private let ownSession: Locked<OwnSession>

    private enum OwnSession {
        case pending(URLSessionConfiguration)
        case made(URLSession)
    }

    private struct Settings {
        var defaultDomain = "example.com"
        var fileSizeLimits = FileSizeLimits.standard
    }

    /// Creates a mock with its own session.
    ///
    /// - Parameter passthroughSession: The session that carries requests to the real network under
    ///   ``UnmockedPolicy/passthrough``. Never this mock's own ``urlSession`` (a request would come back to it);
    ///   another mock's session works, to play the network in a test. Default: one ephemeral session shared by
    ///   every mock given none, made when a request first passes through; it stores no cookies, credentials or
    ///   cache (the mock's own cookie storage serves passthrough requests too).
    ///   Its errors reach the caller as it raised them, of whatever type.
    ///
    /// A mock opens no session when it is created: ``urlSession`` is made when first read.
    public init(passthroughSession: URLSession? = nil) {
        core = MockCore(engine: Engine(), passthroughSession: passthroughSession)
        protocolClass = SlotRegistry.allocate(for: core)
        let configuration = SessionFactory.configuration(answeredBy: protocolClass)
        ownSession = Locked(.pending(configuration))
        let storage = configuration.httpCookieStorage
        core.options.withLock { $0.cookieStorage = storage }
        writeJournalIfRequestedByEnvironment()
    }

    deinit {
        SlotRegistry.release(protocolClass)
    }

    /// What happens to a request no stub answers. Default ``UnmockedPolicy/notFound``.
    public var unmockedPolicy: UnmockedPolicy {
        get { core.engine.policy }
        set {
            core.engine.policy = newValue
            if case .mock(let response) = newValue, let problem = response.problem {
                reportingRefusal { () throws(HTTPMockError) in throw problem }
            }
        }
    }

    /// The host used by ``addResponses(forPath:method:query:matching:responses:fileID:filePath:line:column:)`` when none is given.
    /// Default `example.com`.
    public var defaultDomain: String {
        get { settings.withLock { $0.defaultDomain } }
        set {
            settings.withLock { $0.defaultDomain = newValue }
            core.engine.defaultDomain = newValue
        }
    }

    /// The largest files, in bytes, this mock's loads read into memory: `definitions` for a `bundle.json`, a
    /// `*.mock.json` or a HAR file (default 64 MiB), `templatedBodies` for a mapping's body file with
    /// `"template": true` (default 16 MiB). A larger file is refused, before it is read, with an error naming it,
    /// its size and the limit. Plain body files are not limited: they are read when served, not loaded.
    ///
    /// ```swift
    /// mock.fileSizeLimits.definitions = 256 << 20     // a 200 MB HAR file
    /// ```
    public var fileSizeLimits: FileSizeLimits {
        get { settings.withLock { $0.fileSizeLimits } }
        set { settings.withLock { $0.fileSizeLimits = newValue } }
    }

    /// Hosts beyond this machine that WireMock mappings may send requests to: the targets of `proxyBaseUrl` and of
    /// webhooks. Empty by default: a mapping may proxy to loopback only (`localhost`, `127.0.0.1`, `::1`), and one
    /// that names another host is refused when it is loaded, naming the host (set this before loading). A target
    /// that is a template (`"proxyBaseUrl": "http://{{request.headers.X-Target}}"`, a webhook's `url`) is rendered
    /// for each request and checked then, against this set as it is at that moment: a proxied request to another
    /// host is answered `500` naming it, and a webhook to one is not sent, its journal entry saying why.
    ///
    /// ```swift
    /// mock.allowedProxyHosts = ["staging.example.com"]
    /// try mock.loadWireMockMappings(from: folder)
    /// ```
    ///
    /// Proxied requests go through ``passthroughSession``; over HTTPMockServer, the server forwards them.
    public var allowedProxyHosts: Set<String> {
        get { core.engine.allowedHosts }
        set { core.engine.allowedHosts = newValue }
    }

    /// The limits of ``fileSizeLimits``, for the loaders.
    var sizeLimits: FileSizeLimits { settings.withLock { $0.fileSizeLimits } }

    /// The session that carries passthrough requests.
    public var passthroughSession: URLSession { core.passthroughSession }

    /// Removes every stub and queued response of this mock, however it was registered (in code or loaded from
    /// files). Ignore rules, the journal and the policy stay.
    ///
    /// A handle removes what it added (``StubHandle/remove()``, ``LoadedMocks/remove()``,
    /// ``JournalObservation/remove()``); the mock clears a whole collection (``clearQueues()``,
    /// ``clearQueue(forHost:)``, ``clearJournal()``, ``clearIgnoreRules()``).
    public func clearQueues() {
        core.engine.removeAllStubs()
    }

    /// Removes every stub registered for `host` (compared as written, case-insensitively; for a wildcard host,
    /// pass the same pattern).
    public func clearQueue(forHost host: String) {
        core.engine.removeStubs(registeredForHost: host)
    }
}
