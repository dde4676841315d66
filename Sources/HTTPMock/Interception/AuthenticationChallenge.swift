import Foundation

/// A `401` with a `WWW-Authenticate` challenge, as URLSession on Linux would wait on it.
///
/// FoundationNetworking (swift-corelibs-foundation) answers a finished `401` whose first challenge it can read by
/// looking for credentials for it: with none, the task never finishes; with one (from the session's credential
/// storage or its delegate), it sends the request again through its own HTTP protocol, past the mock, to the real
/// network. So on Linux the mock hands URLSession a `401` without its `WWW-Authenticate` header: the app gets the
/// `401` and its body, and the journal keeps the header as the stub gave it. Apple's URLSession asks its delegate,
/// and with no credential delivers the response whole: there the headers go as they are.
enum AuthenticationChallenge {
    static func deliverable(_ headers: [String: String], status: Int) -> [String: String] {
        #if canImport(FoundationNetworking)
        guard status == 401 else { return headers }
        return headers.filter { !ASCIICase.equal($0.key, "www-authenticate") }
        #else
        return headers
        #endif
    }
}
