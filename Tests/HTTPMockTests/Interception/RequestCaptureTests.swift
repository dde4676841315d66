import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The body is visible to the mock however the caller gave it.
@Suite struct RequestCaptureTests {
    private func mock() -> HTTPMock {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/upload", host: "b.test", method: .post, responses: [.empty(status: .created)])
        return mock
    }

    private func request() -> URLRequest {
        var request = URLRequest(url: URL(string: "https://b.test/upload")!)
        request.httpMethod = "post"
        return request
    }

    @Test func httpBody() async throws {
        let mock = mock()
        var request = request()
        request.httpBody = Data("from httpBody".utf8)
        let (_, response) = try await mock.urlSession.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(mock.requests.first?.bodyText == "from httpBody")
        #expect(mock.requests.first?.method == "POST")
    }

    @Test func httpBodyStream() async throws {
        let mock = mock()
        var request = request()
        request.httpBodyStream = InputStream(data: Data("from a stream".utf8))
        _ = try await mock.urlSession.data(for: request)
        #expect(mock.requests.first?.bodyText == "from a stream")
    }

    @Test func uploadFromData() async throws {
        let mock = mock()
        let (_, response) = try await mock.urlSession.upload(for: request(), from: Data("uploaded data".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #if canImport(FoundationNetworking)
        #expect(mock.requests.first?.bodyText == "uploaded data")
        #endif
    }

    @Test func uploadFromFile() async throws {
        let mock = mock()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-upload-\(UUID()).txt")
        try Data("uploaded file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (_, response) = try await mock.urlSession.upload(for: request(), fromFile: file)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #if canImport(FoundationNetworking)
        #expect(mock.requests.first?.bodyText == "uploaded file")
        #endif
    }

    @Test func headersAreCapturedCaseInsensitively() async throws {
        let mock = mock()
        var request = request()
        request.setValue("Bearer t", forHTTPHeaderField: "authorization")
        _ = try await mock.urlSession.data(for: request)
        #expect(mock.requests.first?.headers["Authorization"] == "Bearer t")
    }
}
