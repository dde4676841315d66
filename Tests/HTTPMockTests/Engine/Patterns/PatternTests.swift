import Testing
@testable import HTTPMock

@Suite struct PatternTests {
    private func host(_ pattern: String, matches host: String) throws -> Bool {
        try HostGlob(pattern).matches(host: host.split(separator: ".").map(String.init), port: nil)
    }

    private func path(_ pattern: String, matches path: String) throws -> Bool {
        try PathGlob(pattern).matches(PathNormalization.segments(of: path))
    }

    @Test(arguments: [
        ("*.example.com", "api.example.com", true),
        ("*.example.com", "staging.example.com", true),
        ("*.example.com", "api.staging.example.com", false),
        ("*.example.com", "example.com", false),
        ("**.example.com", "api.example.com", true),
        ("**.example.com", "api.staging.example.com", true),
        ("**.example.com", "example.com", true),
        ("**.example.com", "example.org", false),
        ("api-*.example.com", "api-staging.example.com", true),
        ("api-*.example.com", "web-staging.example.com", false),
        ("API.Example.com", "api.example.com", true),
    ])
    func hostGlobs(pattern: String, host: String, expected: Bool) throws {
        #expect(try self.host(pattern, matches: host) == expected)
    }

    @Test(arguments: [
        ("/api/*/users", "/api/v1/users", true),
        ("/api/*/users", "/api/v2/users", true),
        ("/api/*/users", "/api/v1/beta/users", false),
        ("/api/**/data", "/api/data", true),
        ("/api/**/data", "/api/v1/data", true),
        ("/api/**/data", "/api/v1/beta/data", true),
        ("/api/**/data", "/api/v1/beta/other", false),
        ("/api/**/users/*", "/api/v1/beta/users/123", true),
        ("/files/*.json", "/files/a.json", true),
        ("/files/*.json", "/files/a.xml", false),
        ("/user", "/user/", true),
        ("user", "/user", true),
        ("/", "/", true),
        ("/**", "/", true),
        ("/*", "/", false),
    ])
    func pathGlobs(pattern: String, path: String, expected: Bool) throws {
        #expect(try self.path(pattern, matches: path) == expected)
    }

    @Test(arguments: [
        ("", "host is empty"),
        ("api.***.com", "\"***\" is not a wildcard"),
        ("api example.com", "contains the character"),
        ("https://api.example.com", "without a scheme"),
        ("api.example.com/users", "cannot appear in a host"),
        ("api..example.com", "empty label"),
        ("a**.example.com", "must stand alone"),
        ("localhost:99999", "is not a port number"),
    ])
    func invalidHostsAreRefusedWithTheirReason(pattern: String, reason: String) {
        #expect {
            try HostGlob(pattern)
        } throws: { error in
            let message = "\(error)"
            return message.contains("\"\(pattern)\"") && message.contains(reason)
        }
    }

    @Test(arguments: [
        ("/api/***/x", "\"***\" is not a wildcard"),
        ("/search?q=1", "give query items with `query:`"),
        ("/a b", "contains the character"),
        ("/v**/x", "must stand alone"),
        ("https://h/x", "without scheme and host"),
    ])
    func invalidPathsAreRefusedWithTheirReason(pattern: String, reason: String) {
        #expect {
            try PathGlob(pattern)
        } throws: { error in
            let message = "\(error)"
            return message.contains("\"\(pattern)\"") && message.contains(reason)
        }
    }

    @Test func hostWithPortMatchesOnlyThatPort() throws {
        let pattern = try HostGlob("localhost:8080")
        #expect(pattern.matches(host: ["localhost"], port: 8080))
        #expect(!pattern.matches(host: ["localhost"], port: 9090))
    }

    @Test func wildcardCountsFollowTheReadme() throws {
        #expect(try HostGlob("api.example.com").glob.wildcardCount == 0)
        #expect(try HostGlob("*.example.*").glob.wildcardCount == 2)
        #expect(try HostGlob("**.example.com").glob.wildcardCount == 2)
        #expect(try HostGlob("**.example.com").glob.literalLength > HostGlob("*.example.*").glob.literalLength)
    }
}
