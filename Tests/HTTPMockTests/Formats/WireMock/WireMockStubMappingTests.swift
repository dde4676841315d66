import Foundation
import Testing
@testable import HTTPMock

/// The package API WireMock's admin API uses: one mapping read from JSON, then registered.
@Suite struct WireMockStubMappingTests {
    @Test func idComesFromIdOrUuidOrIsMadeUp() throws {
        let given = try WireMockStubMapping(json: Data(#"{"uuid": "8C5DB8B0-2DB4-4AD7-A99F-38C9B00DA3F7", "name": "n", "request": {"url": "/a"}}"#.utf8),
                                            source: "admin")
        #expect(given.id == UUID(uuidString: "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7"))
        #expect(given.name == "n")
        let made = try WireMockStubMapping(json: Data(#"{"request": {"url": "/a"}}"#.utf8), source: "admin")
        let listed = try #require(try JSONSerialization.jsonObject(with: made.json) as? [String: Any])
        #expect(listed["id"] as? String == made.id.uuidString.lowercased())
        #expect(listed["request"] as? [String: String] == ["url": "/a"])
        #expect { try WireMockStubMapping(json: Data(#"{"id": "x", "request": {}}"#.utf8), source: "admin") } throws: { error in
            (error as? HTTPMockError)?.message.hasPrefix(#"admin at id: "x" is not a UUID; give one such as ""#) == true
        }
    }

    @Test("an empty or null id is no id; with both id and uuid, id wins; $schema is an editor's hint")
    func idsAsWireMockReadsThem() throws {
        for text in [#"{"id": "", "request": {"url": "/a"}}"#, #"{"uuid": null, "request": {"url": "/a"}}"#,
                     #"{"id": null, "uuid": "", "request": {"url": "/a"}}"#] {
            let mapping = try WireMockStubMapping(json: Data(text.utf8), source: "admin")
            #expect(!mapping.hasGivenID, "\(text)")
        }
        let both = try WireMockStubMapping(json: Data(#"{"id": "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7", "uuid": "11111111-2222-3333-4444-555555555555", "request": {"url": "/a"}}"#.utf8),
                                           source: "admin")
        #expect(both.id == UUID(uuidString: "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7"))
        let schema = try WireMockStubMapping(json: Data(#"{"$schema": "https://example.com/stub-mapping.json", "request": {"url": "/a"}}"#.utf8),
                                             source: "admin")
        let listed = try #require(try JSONSerialization.jsonObject(with: schema.json) as? [String: Any])
        #expect(listed["$schema"] == nil && listed["id"] != nil)
        #expect(listed["uuid"] as? String == listed["id"] as? String, "listed with uuid beside id, as WireMock lists a mapping")
    }

    @Test("a file holding a number written from its point gets the strict reader's error: Foundation's JSON5 reader stops the process on some")
    func leadingPointNumber() {
        let text = ".98999999999999999999999999999999999999999999990000000000101" + "53"
        #expect(throws: HTTPMockError.self) { try WireMockStubMapping.mappings(in: Data(text.utf8), source: "fuzz") }
    }

    @Test func aListOrOneMapping() throws {
        let list = try WireMockStubMapping.mappings(in: Data(#"{"mappings": [{"request": {"url": "/a"}}, {"request": {"url": "/b"}}], "meta": {"total": 2}}"#.utf8),
                                                    source: "admin")
        #expect(list.count == 2)
        #expect(try WireMockStubMapping.mappings(in: Data(#"{"request": {"url": "/a"}}"#.utf8), source: "admin").count == 1)
    }

    @Test func registerIsAllOrNothing() async throws {
        let mock = HTTPMock()
        let good = try WireMockStubMapping(json: Data(#"{"request": {"url": "/a"}, "response": {"body": "a"}}"#.utf8), source: "admin")
        // The file is looked up when the mapping is registered: without a folder, that fails, and nothing is added.
        let file = try WireMockStubMapping(json: Data(#"{"name": "f", "request": {"url": "/f"}, "response": {"bodyFileName": "f.txt"}}"#.utf8), source: "admin")
        #expect { try mock.register([good, file], filesFolder: nil) } throws: { error in
            (error as? HTTPMockError)?.message == #"admin, mapping "f" at response.bodyFileName: there is no __files folder beside the mappings to read "f.txt" from"#
        }
        #expect(mock.stubUsage.isEmpty)
        let loaded = try mock.register([good], filesFolder: nil)
        #expect(loaded.stubCount == 1)
        #expect(try await mock.urlSession.fetch("http://localhost/a").text == "a")
    }
}
