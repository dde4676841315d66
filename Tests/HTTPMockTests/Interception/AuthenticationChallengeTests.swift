import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// A mocked `401` with a Basic challenge is delivered, never left waiting for credentials (URLSession on Linux
/// would wait for ever, or send the request again past the mock).
@Suite struct AuthenticationChallengeTests {
    @Test("a 401 with WWW-Authenticate: Basic arrives, once or served again, with its body; the journal keeps the challenge")
    func basicChallengeArrives() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/keys"), responses: [
            .plaintext("sign in first", status: .other(401), lifetime: .eternal, headers: ["WWW-Authenticate": #"Basic realm="api""#]),
        ])
        try mock.stub(.path("/digest"), responses: [
            .empty(status: .other(401), headers: ["WWW-Authenticate": #"Digest realm="api", nonce="n1", qop="auth""#]),
        ])
        for _ in 0..<2 {
            let reply = try await mock.urlSession.fetch("https://accounts.example.com/keys")
            #expect(reply.status == 401)
            #expect(reply.text == "sign in first")
        }
        #expect(try await mock.urlSession.fetch("https://accounts.example.com/digest").status == 401)
        #expect(mock.journal.first?.responseHeaders?["WWW-Authenticate"] == #"Basic realm="api""#)
    }
}
