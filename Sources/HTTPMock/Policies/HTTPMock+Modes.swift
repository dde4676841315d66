import Foundation

extension HTTPMock {
    /// Whether the mock's stubs answer. Default `true`.
    ///
    /// When `false`, no stub answers: ignore rules still apply, and every other request gets the
    /// ``unmockedPolicy`` (so with ``UnmockedPolicy/passthrough`` everything goes to the real network, and with the
    /// default a 404 says the mock is disabled). Stubs and their queues are kept for when it is enabled again.
    public var isEnabled: Bool {
        get { core.engine.isEnabled }
        set { core.engine.isEnabled = newValue }
    }

    /// Whether redirects (3xx with `Location`) are followed inside the mock. Default `true`.
    ///
    /// URLSession cannot follow a redirect that a `URLProtocol` delivers on Linux, so the mock does it: the
    /// next request goes to the `Location` (resolved against the request's URL) and is answered by the mock's
    /// stubs, and the caller gets the final response with the final URL. Turn it off to receive the 3xx.
    /// ``MockResponse/redirect(to:status:follow:lifetime:delivery:headers:)`` can turn it off per response.
    public var followsRedirects: Bool {
        get { core.options.withLock { $0.followsRedirects } }
        set { core.options.withLock { $0.followsRedirects = newValue } }
    }

    /// How many redirects one request follows before it fails with `URLError(.httpTooManyRedirects)`.
    /// Default 10.
    public var maximumRedirects: Int {
        get { core.options.withLock { $0.maximumRedirects } }
        set { core.options.withLock { $0.maximumRedirects = max(0, newValue) } }
    }
}
