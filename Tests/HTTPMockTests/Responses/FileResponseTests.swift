import Foundation
import Testing
import HTTPMock

@Suite struct FileResponseTests {
    @Test func fileFromABundleInfersContentType() async throws {
        let mock = HTTPMock()
        mock.registerResponses {
            Host("api.example.com") {
                Path("/data") {
                    MockResponse.file(named: "user", extension: "json", in: Bundle.module.resourceURL.flatMap { Bundle(url: $0.appendingPathComponent("Fixtures")) } ?? .module)
                    MockResponse.file(url: fixtures.appendingPathComponent("report.csv"))
                }
            }
        }
        #expect(mock.registrationErrors.isEmpty)
        let json = try await mock.urlSession.fetch("https://api.example.com/data")
        #expect(json.text == "{\"fixture\": true}\n")
        #expect(json.header("Content-Type") == "application/json")
        let csv = try await mock.urlSession.fetch("https://api.example.com/data")
        #expect(csv.text.hasPrefix("name,count"))
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
    }

    @Test func givenContentTypeWins() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/r", host: "f.test", responses: [
            .file(fixtures.appendingPathComponent("report.csv"), contentType: "text/plain"),
        ])
        #expect(try await mock.urlSession.fetch("https://f.test/r").header("Content-Type") == "text/plain")
    }

    @Test func relativePathIsResolvedAgainstTheCurrentDirectory() async throws {
        let cwd = FileManager.default.currentDirectoryPath
        let relative = fixtures.appendingPathComponent("report.csv").path.replacingOccurrences(of: cwd + "/", with: "")
        try #require(!relative.hasPrefix("/"), "fixtures are expected under the current directory")
        let mock = HTTPMock()
        mock.addResponses(forPath: "/r", host: "f.test", responses: [.file(url: URL(fileURLWithPath: relative))])
        #expect(try await mock.urlSession.fetch("https://f.test/r").text.hasPrefix("name,count"))
    }

    @Test func missingFileIsRefusedAtRegistrationNamingIt() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/a", host: "f.test", responses: [.plaintext("kept out too")])
        noteExpectedRefusal("a missing response file")
        mock.registerResponses {
            Host("f.test") {
                Path("/b") { MockResponse.plaintext("not registered either") }
                Path("/c") { MockResponse.file(url: URL(fileURLWithPath: "/no/such/dir/missing.json")) }
            }
        }
        let error = try #require(mock.registrationErrors.last)
        #expect(error.code == .missingFile)
        #expect(error.message.contains("/no/such/dir/missing.json"))
        // All or nothing: /b was refused with /c.
        #expect(try await mock.urlSession.fetch("https://f.test/b").status == 404)
        #expect(try await mock.urlSession.fetch("https://f.test/a").text == "kept out too")
    }

    @Test func missingBundleResourceIsRefusedNamingIt() throws {
        let mock = HTTPMock()
        #expect {
            try mock.register {
                Host("f.test") { Path("/x") { MockResponse.file(named: "nope", extension: "json", in: .module) } }
            }
        } throws: { error in
            "\(error)".contains("\"nope.json\" is not in the bundle")
        }
    }

    @Test func folderIsNotAFile() throws {
        let mock = HTTPMock()
        #expect {
            try mock.register { Host("f.test") { Path("/x") { MockResponse.file(url: fixtures) } } }
        } throws: { error in
            "\(error)".contains("is a folder")
        }
    }
}
