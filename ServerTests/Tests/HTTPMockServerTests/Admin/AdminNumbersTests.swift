import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// Numbers in mappings sent over the admin API keep their digits and their kind, as WireMock 2.35.1 keeps them:
/// created, replaced (`PUT`) or imported, an `equalToJson` object tells `100` from `100.0` and keeps a 45-digit integer.
@Suite struct AdminNumbersTests {
    static let big = "123456789012345678901234567890123456789012345"

    @Test("a mapping created, replaced or imported keeps its numbers: 100.0 is no 100, and every digit counts")
    func numbersKeptThroughTheAdminAPI() async throws {
        try await HTTPMockServer.withServer(serving: HTTPMock(), configuration: HTTPMockServer.Configuration(adminAPI: true)) { server in
            let admin = server.baseURL.adding("/__admin")
            let id = "33333333-3333-3333-3333-333333333333"
            let pattern = #"{"method": "POST", "url": "/%@", "bodyPatterns": [{"equalToJson": {"n": 100.0, "b": \#(Self.big)}}]}"#
            func mapping(_ path: String) -> String {
                #"{"request": \#(pattern.replacingOccurrences(of: "%@", with: path)), "response": {"body": "\#(path)"}}"#
            }
            #expect(try await call("POST", admin.adding("/mappings"), body: mapping("created")).status == 201)
            #expect(try await call("POST", admin.adding("/mappings"),
                                   body: #"{"id": "\#(id)", "request": {"url": "/other"}, "response": {"body": "x"}}"#).status == 201)
            #expect(try await call("PUT", admin.adding("/mappings/\(id)"), body: mapping("replaced")).status == 200)
            #expect(try await call("POST", admin.adding("/mappings/import"), body: #"{"mappings": [\#(mapping("imported"))]}"#).status == 200)
            let bigPlusOne = String(Self.big.dropLast()) + "6"
            for path in ["created", "replaced", "imported"] {
                for (n, b, answered) in [("100.0", Self.big, true), ("1e2", Self.big, true), ("100", Self.big, false),
                                         ("100.0", bigPlusOne, false)] {
                    let reply = try await call("POST", server.baseURL.adding("/\(path)"), body: #"{"n": \#(n), "b": \#(b)}"#)
                    #expect((reply.status == 200) == answered, "\(path): n \(n), b …\(b.suffix(3)): \(reply.status)")
                }
            }
            let listed = try await call("GET", admin.adding("/mappings/\(id)"))
            #expect(listed.text.contains(Self.big), "\(listed.text)")
        }
    }
}
