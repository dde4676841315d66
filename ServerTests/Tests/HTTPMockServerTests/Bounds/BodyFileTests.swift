import Foundation
import HTTPMock
import HTTPMockServer
import Testing

@Suite("A body file is checked again when it is served: no link followed out of its folder, no short body")
struct BodyFileTests {
    /// A WireMock folder whose mapping answers `/file` from `__files/sub/body.txt`, loaded into a mock, and a
    /// file outside it holding a secret.
    private func loaded() throws -> (mock: HTTPMock, folder: URL, body: URL, secret: URL) {
        let folder = try temporaryFolder([
            "mappings/file.json": #"{"request": {"method": "GET", "url": "/file"}, "response": {"status": 200, "bodyFileName": "sub/body.txt"}}"#,
            "__files/sub/body.txt": "the body",
        ])
        let outside = try temporaryFolder(["body.txt": "a secret outside the folder"])
        let mock = HTTPMock()
        _ = try mock.loadWireMockMappings(from: folder)
        return (mock, folder, folder.appendingPathComponent("__files/sub/body.txt"), outside.appendingPathComponent("body.txt"))
    }

    private func get(_ server: HTTPMockServer) async -> String {
        await RawSocket.exchange(port: server.port, sending: Array("GET /file HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)).reply
    }

    @Test("served as loaded")
    func servedAsLoaded() async throws {
        let (mock, _, _, _) = try loaded()
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = await get(server)
            #expect(reply.hasPrefix("HTTP/1.1 200"))
            #expect(reply.hasSuffix("\r\n\r\nthe body"))
        }
    }

    @Test("a body file swapped for a symbolic link after loading is not followed: 500 naming it")
    func swappedForLink() async throws {
        let (mock, _, body, secret) = try loaded()
        try FileManager.default.removeItem(at: body)
        try FileManager.default.createSymbolicLink(at: body, withDestinationURL: secret)
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = await get(server)
            #expect(reply.hasPrefix("HTTP/1.1 500"))
            #expect(reply.contains("body.txt") && reply.contains("symbolic link"))
            #expect(!reply.contains("secret"))
            #expect(mock.journal.last?.statusCode == 500)
        }
    }

    @Test("a folder on the body file's way swapped for a symbolic link after loading is not followed: 500 naming the file")
    func folderSwappedForLink() async throws {
        let (mock, folder, _, secret) = try loaded()
        let sub = folder.appendingPathComponent("__files/sub")
        try FileManager.default.moveItem(at: sub, to: folder.appendingPathComponent("__files/sub-before"))
        try FileManager.default.createSymbolicLink(at: sub, withDestinationURL: secret.deletingLastPathComponent())
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = await get(server)
            #expect(reply.hasPrefix("HTTP/1.1 500"))
            #expect(reply.contains("body.txt") && reply.contains("symbolic link"))
            #expect(!reply.contains("secret"))
        }
    }

    @Test("a body file deleted after loading answers 500 naming it, not an empty 200")
    func deleted() async throws {
        let (mock, _, body, _) = try loaded()
        try FileManager.default.removeItem(at: body)
        try await HTTPMockServer.withServer(serving: mock) { server in
            let reply = await get(server)
            #expect(reply.hasPrefix("HTTP/1.1 500"))
            #expect(reply.contains(body.lastPathComponent) && reply.contains("deleted"))
        }
    }

    @Test("a body file cut short while it is sent drops the connection: fewer bytes than promised, never a whole response")
    func cutShortWhileSent() async throws {
        let file = try temporaryFile(size: 16 << 20)
        defer { try? FileManager.default.removeItem(at: file) }
        let mock = HTTPMock()
        mock.addResponses(forPath: "/big") { MockResponse.file(url: file, lifetime: .eternal) }
        try await HTTPMockServer.withServer(serving: mock) { server in
            let port = server.port
            let connection = try #require(await offPool { RawConnection(port: port, receiveBuffer: 64 * 1024) })
            #expect(await offPool { connection.send("GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") })
            // The head and the first chunks are out; the client reads nothing, so the rest waits for it.
            while mock.journal.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
            try await Task.sleep(nanoseconds: 300_000_000)
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: 0)
            try handle.close()
            let response = await offPool { connection.nextResponse() }
            #expect(response == nil, "the response was read whole: \(String(describing: response?.bodySize)) bytes")
            let entry = await waitForCompletion(in: mock)
            guard case .failure(let error)? = entry?.outcome else {
                Issue.record("the journal says \(String(describing: entry?.outcome))")
                return
            }
            #expect(error.localizedDescription.contains(file.lastPathComponent) && error.localizedDescription.contains("cut short"))
        }
    }

    private func waitForCompletion(in mock: HTTPMock) async -> JournalEntry? {
        for _ in 0..<3000 {
            if let entry = mock.journal.last, entry.outcome != nil { return entry }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return mock.journal.last
    }
}
