import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// The README's samples that use `HTTPMock.shared`, written as the README writes them.
/// Serialized, and the only suite that touches `HTTPMock.shared`.
@Suite(.serialized) struct ReadmeSamplesTests {
    let users = [User(id: 1, name: "Alice"), User(id: 2, name: "Bob")]

    init() {
        HTTPMock.shared.clearQueues()
        HTTPMock.shared.unmockedPolicy = .notFound
    }

    @Test func hostWildcardSample() async throws {
        HTTPMock.shared.registerResponses {
            Host("*.example.com") { // Single host pattern wildcard.
                Path("/users") {
                    MockResponse.plaintext("wildcard host", lifetime: .multiple(2))
                }
            }
        }
        let session = HTTPMock.shared.urlSession
        #expect(try await session.fetch("https://api.example.com/users").text == "wildcard host")
        #expect(try await session.fetch("https://staging.example.com/users").text == "wildcard host")
        HTTPMock.shared.clearQueues()
    }

    @Test func pathWildcardSample() async throws {
        HTTPMock.shared.addResponses(
            forPath: "/api/*/users", // Single path pattern wildcard.
            host: "api.example.com",
            responses: [.encodable(users)]
        )
        let session = HTTPMock.shared.urlSession
        #expect(try await session.fetch("https://api.example.com/api/v1/beta/users").status == 404)
        #expect(try await session.fetch("https://api.example.com/api/v2/users").status == 200)
        HTTPMock.shared.clearQueues()
    }

    @Test func multiSegmentAndComplexSamples() async throws {
        HTTPMock.shared.registerResponses {
            Host("**.example.com") {
                Path("/api/**/data") {
                    MockResponse.plaintext("flexible matching", lifetime: .eternal)
                }
            }
        }
        HTTPMock.shared.addResponses(
            forPath: "/api/**/users/*",
            host: "api-*.example.com",
            responses: [.encodable(users)]
        )
        let session = HTTPMock.shared.urlSession
        #expect(try await session.fetch("https://api.staging.example.com/api/data").text == "flexible matching")
        #expect(try await session.fetch("https://api.example.com/api/v1/beta/data").text == "flexible matching")
        let complex = try await session.fetch("https://api-staging.example.com/api/v1/beta/users/123")
        #expect(try JSONDecoder().decode([User].self, from: Data(complex.text.utf8)) == users)
        HTTPMock.shared.clearQueues()
    }

    @Test func fileSampleCompilesAndAMissingFileIsReported() async throws {
        let urlToFile = fixtures.appendingPathComponent("user.json")
        noteExpectedRefusal("a file missing from Bundle.main")
        HTTPMock.shared.registerResponses {
            Host("api.example.com") {
                Path("/data") {
                    // Point to a file in the specified `Bundle`.
                    MockResponse.file(named: "response", extension: "json", in: Bundle.main)

                    // Load the contents of a file from a `URL`.
                    MockResponse.file(url: urlToFile)
                }
            }
        }
        // The test runner's main bundle has no response.json: the whole registration is refused, loudly.
        #expect(HTTPMock.shared.registrationErrors.last?.message.contains("\"response.json\" is not in the bundle") == true)
        #expect(try await HTTPMock.shared.urlSession.fetch("https://api.example.com/data").status == 404)
    }

    @Test func lifetimeAndDeliverySamples() async throws {
        HTTPMock.shared.addResponses(forPath: "/lifetimes", host: "api.example.com") {
            MockResponse.plaintext("served once", lifetime: .single)
            MockResponse.plaintext("served three times", lifetime: .multiple(3))
            MockResponse.plaintext("served forever", lifetime: .eternal)
        }
        HTTPMock.shared.addResponses(forPath: "/delivery", host: "api.example.com") {
            MockResponse.plaintext("immediate response", delivery: .instant)
            MockResponse.plaintext("delayed response", delivery: .delayed(0.2))
        }
        let session = HTTPMock.shared.urlSession
        var texts: [String] = []
        for _ in 0..<6 { texts.append(try await session.fetch("https://api.example.com/lifetimes").text) }
        #expect(texts == ["served once"] + Array(repeating: "served three times", count: 3) + ["served forever", "served forever"])
        #expect(try await session.fetch("https://api.example.com/delivery").text == "immediate response")
        #expect(try await session.fetch("https://api.example.com/delivery").text == "delayed response")
        HTTPMock.shared.clearQueues()
    }

    @Test func unmockedPolicySamples() async throws {
        let session = HTTPMock.shared.urlSession
        HTTPMock.shared.unmockedPolicy = .notFound
        #expect(try await session.fetch("https://api.example.com/none").status == 404)

        HTTPMock.shared.unmockedPolicy = .mock(.plaintext("API is down for maintenance", status: .other(503)))
        #expect(try await session.fetch("https://api.example.com/none").status == 503)

        noteExpectedRefusal("a fallback file missing from Bundle.main")
        HTTPMock.shared.unmockedPolicy = .mock(.file(named: "fallback", extension: "json", in: Bundle.main))
        // Bundle.main has no fallback.json here: reported when set, and a clear error instead of an empty body.
        #expect(HTTPMock.shared.registrationErrors.last?.message.contains("fallback.json") == true)
        await #expect {
            _ = try await session.fetch("https://api.example.com/none")
        } throws: { error in
            (error as? URLError)?.code == .fileDoesNotExist && error.localizedDescription.contains("fallback.json")
        }

        HTTPMock.shared.unmockedPolicy = .notFound
    }

    @Test func customPassthroughSessionSample() async throws {
        // Create a custom configuration for passthrough requests
        let config = URLSessionConfiguration.default
        config.timeoutIntervalForRequest = 10.0
        config.timeoutIntervalForResource = 30.0
        let passthroughSession = URLSession(configuration: config)

        // Use it when creating HTTPMock instance
        let httpMock = HTTPMock(passthroughSession: passthroughSession)
        httpMock.unmockedPolicy = .passthrough
        #expect(httpMock.passthroughSession === passthroughSession)
    }

    @Test func singletonAndInstanceSample() async throws {
        HTTPMock.shared.registerResponses {
            Host("api.example.com") {
                Path("/user") {
                    MockResponse.plaintext("Hello from singleton!")
                }
            }
        }
        let singletonSession = HTTPMock.shared.urlSession

        let mockInstance = HTTPMock()
        mockInstance.registerResponses {
            Host("api.example.com") {
                Path("/user") {
                    MockResponse.plaintext("Hello from instance!")
                }
            }
        }
        let instanceSession = mockInstance.urlSession
        #expect(try await instanceSession.fetch("https://api.example.com/user").text == "Hello from instance!")
        #expect(try await singletonSession.fetch("https://api.example.com/user").text == "Hello from singleton!")
    }

    @Test func responseHelperSignatures() throws {
        let url = fixtures.appendingPathComponent("user.json")
        let helpers: [MockResponse] = [
            .encodable(users, status: .ok, headers: [:]),
            .dictionary(["a": 1], status: .ok, headers: [:]),
            .plaintext("text", status: .ok, headers: [:]),
            .file(named: "user", extension: "json", in: Bundle(url: fixtures)!, status: .ok, headers: [:]),
            .file(url, status: .ok, headers: [:]),
            .empty(status: .ok, headers: [:]),
        ]
        let mock = HTTPMock()
        try mock.register { Host("h.test") { Path("/all") { helpers } } }
        #expect(mock.registrationErrors.isEmpty)
    }
}
