import Foundation
import HTTPMockOpenAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The documents the tests of mocks made from a document read (Documents/), and a way to write one of a test's own.
enum DocumentFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Documents")
    static let pets = folder.appendingPathComponent("pets.yaml")
    static let store = folder.appendingPathComponent("store.json")
    /// The document the generated client is built from.
    static let users = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openapi.yaml")

    /// A new folder holding `files` (name → text); the first one's URL.
    static func write(_ files: [(String, String)]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder.appendingPathComponent(files[0].0)
    }
}

extension HTTPMock {
    /// Sends a request through the mock's session; the status, headers and body as text.
    func send(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) async throws
        -> (status: Int, headers: [String: String], body: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await urlSession.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name)] = String(describing: value) }
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }
}

/// A JSON body's value, for assertions.
func json(_ text: String) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}
