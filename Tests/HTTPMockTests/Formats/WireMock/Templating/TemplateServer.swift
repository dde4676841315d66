import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import HTTPMock

/// A mock serving WireMock templates: each written as the body of a mapping (with the `response-template`
/// transformer) in a folder made for the test, loaded with `loadWireMockMappings(from:)`, reached through the
/// mock's URLSession.
struct TemplateServer {
    let mock: HTTPMock

    /// `templates` maps a path (`/eq`) to the body template served there; `pathTemplates` maps a
    /// `urlPathTemplate` (`/users/{id}`) to its template.
    init(_ templates: [String: String], pathTemplates: [String: String] = [:], headers: [String: [String: String]] = [:]) throws {
        var mappings: [[String: Any]] = []
        for (path, template) in templates.sorted(by: { $0.key < $1.key }) {
            var response: [String: Any] = ["body": template, "transformers": ["response-template"]]
            if let headers = headers[path] { response["headers"] = headers }
            mappings.append(["request": ["urlPath": path, "method": "ANY"], "response": response])
        }
        for (path, template) in pathTemplates.sorted(by: { $0.key < $1.key }) {
            mappings.append(["request": ["urlPathTemplate": path, "method": "ANY"],
                             "response": ["body": template, "transformers": ["response-template"]]])
        }
        let root = try Self.folder(mappings)
        defer { try? FileManager.default.removeItem(at: root) }
        mock = HTTPMock()
        try mock.loadWireMockMappings(from: root)
    }

    /// The body served for `path`.
    func text(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async throws -> String {
        try await reply(path, method: method, headers: headers, body: body).text
    }

    /// Expects the body served for `path` to be `expected`.
    func expect(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil, _ expected: String,
                sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let text = try await text(path, method: method, headers: headers, body: body)
        #expect(text == expected, sourceLocation: sourceLocation)
    }

    func reply(_ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil) async throws -> Reply {
        try await mock.urlSession.fetch("http://localhost" + path, method: method, headers: headers, body: body.map { Data($0.utf8) })
    }

    /// A folder holding `mappings/all.json` with these mappings.
    static func folder(_ mappings: [[String: Any]]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = try JSONSerialization.data(withJSONObject: ["mappings": mappings], options: [.prettyPrinted, .sortedKeys])
        try data.write(to: folder.appendingPathComponent("all.json"))
        return root
    }

    /// The message of the error loading one mapping whose body is `template` (`""` when it loads).
    static func loadError(_ template: String) -> String {
        do {
            _ = try TemplateServer(["/t": template])
            return ""
        } catch {
            return (error as? HTTPMockError)?.message ?? "\(error)"
        }
    }
}
