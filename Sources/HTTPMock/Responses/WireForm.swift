import Foundation

/// How a response served more than once goes out, built at its first serving and kept by its stub's queue, so
/// that each request does not build it again: its headers with the body's `Content-Length`, and the last response
/// object a face made from them for one URL (the interception layer keeps its `HTTPURLResponse` here: corelibs
/// Foundation spends about 48,000 instructions building one, three times what HTTPMock's own work on a request
/// costs).
final class WireForm: Sendable {
    /// ``MockResponse/headers`` with the `Content-Length` of the in-memory body.
    let headers: [String: String]
    /// Whether ``headers`` hold a `Set-Cookie` (so there are cookies to store at each serving).
    let setsCookies: Bool
    private let made = Locked<Made?>(nil)

    /// An object built for one URL from these headers.
    private struct Made: @unchecked Sendable {  // reason: `object` is immutable once built (an `HTTPURLResponse`), and only handed out
        let url: URL
        let object: AnyObject
    }

    init(headers: [String: String]) {
        self.headers = headers
        setsCookies = headers.keys.contains { ASCIICase.equal($0, "set-cookie") }
    }

    /// The object made for `url` last time, or the one `make` builds now (kept for the next request to `url`).
    ///
    /// `make` runs outside the lock; it is the face's own code, never the user's. Two requests to different URLs
    /// in turn each build theirs: only the last is kept.
    func object<Object: AnyObject>(for url: URL, make: () -> Object?) -> Object? {
        if let made = made.withLock({ $0 }), made.url == url, let object = made.object as? Object { return object }
        guard let object = make() else { return nil }
        made.withLock { $0 = Made(url: url, object: object) }
        return object
    }
}
