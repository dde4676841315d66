import Foundation
import HTTPMock
import HTTPMockServer
import Testing

/// Admin requests whose JSON holds a value that is no object (`null`, a number, a text, a list) where an object is
/// read: each is answered 422 with its problem, and the server goes on answering (Foundation stops the process when
/// asked to write such a value on its own as JSON).
@Suite struct AdminNonObjectValueTests {
    static let values = ["null", "5", #""text""#, "[]", "true"]

    @Test("an imported mapping that is no object is refused with 422, naming it; the server goes on", arguments: values)
    func importedMapping(_ value: String) async throws {
        try await HTTPMockServer.withServer(serving: HTTPMock(), configuration: HTTPMockServer.Configuration(adminAPI: true)) { server in
            let admin = server.baseURL.adding("/__admin")
            let imported = try await call("POST", admin.adding("/mappings/import"), body: #"{"mappings": [\#(value)]}"#)
            #expect(imported.status == 422 && imported.text.contains("mappings[0]"), "\(value): \(imported.text)")
            #expect(try await call("GET", admin.adding("/mappings")).status == 200)
        }
    }

    @Test("a send's initiatingRequest or a message pattern's channel that is no object is refused with 422; the server goes on", arguments: values)
    func messagingRequestPattern(_ value: String) async throws {
        try await HTTPMockServer.withServer(serving: HTTPMock(), configuration: HTTPMockServer.Configuration(adminAPI: true)) { server in
            let admin = server.baseURL.adding("/__admin")
            let sent = try await call("POST", admin.adding("/channels/send"),
                                      body: #"{"type": "websocket", "initiatingRequest": \#(value), "message": {"body": {"data": "x"}}}"#)
            #expect(sent.status == 422 && sent.text.contains("initiatingRequest"), "\(value): \(sent.text)")
            for route in ["/messages/count", "/messages/find", "/messages/remove"] {
                let reply = try await call("POST", admin.adding(route), body: #"{"channel": \#(value)}"#)
                #expect(reply.status == 422 && reply.text.contains("channel"), "\(route), \(value): \(reply.text)")
            }
            #expect(try await call("GET", admin.adding("/messages")).status == 200)
        }
    }

    @Test("mappings found by metadata when a mapping's metadata is no object: the others are searched, the server goes on", arguments: ["5", #""text""#, "[1]", "true"])
    func metadataThatIsNoObject(_ value: String) async throws {
        try await HTTPMockServer.withServer(serving: HTTPMock(), configuration: HTTPMockServer.Configuration(adminAPI: true)) { server in
            let admin = server.baseURL.adding("/__admin")
            let odd = try await call("POST", admin.adding("/mappings"),
                                     body: #"{"request": {"urlPath": "/odd"}, "response": {"body": "odd"}, "metadata": \#(value)}"#)
            #expect(odd.status == 201, "\(value): \(odd.text)")
            let tagged = try await call("POST", admin.adding("/mappings"),
                                        body: #"{"request": {"urlPath": "/tagged"}, "response": {"body": "tagged"}, "metadata": {"tag": "t"}}"#)
            #expect(tagged.status == 201, "\(tagged.text)")
            let found = try await call("POST", admin.adding("/mappings/find-by-metadata"), body: #"{"matchesJsonPath": "$.tag"}"#)
            #expect(found.status == 200, "\(value): \(found.text)")
            let names = (found.json?["mappings"] as? [[String: Any]])?.compactMap { ($0["request"] as? [String: Any])?["urlPath"] as? String }
            #expect(names == ["/tagged"], "\(value): \(found.text)")
            #expect(try await call("GET", server.baseURL.adding("/odd")).text == "odd")
        }
    }
}
