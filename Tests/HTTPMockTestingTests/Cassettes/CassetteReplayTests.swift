import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMockTesting

/// Cassettes beside this file, written as other tools write HAR files, replayed by the trait. (Recording from a
/// real server is tested in ServerTests, where one runs on 127.0.0.1.)
@Suite struct CassetteReplayTests {
    @Test(.cassette("profile", mode: .none))
    func aHARFromAnotherSwiftRecorderReplays() async throws {
        let profile = try await URLSession.shared.fetch("https://api.example.test/v2/profile?fields=name")
        #expect(profile.text == #"{"name":"Mireille"}"#)
        var request = URLRequest(url: URL(string: "https://api.example.test/v2/profile/avatar")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{ "style": "round" }"#.utf8)   // compared as JSON: spacing does not matter
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == "created")
    }

    @Test(.cassette("Weather/today", mode: .none))
    func aHARExportedByABrowserReplays() async throws {
        let reply = try await URLSession.shared.fetch("https://weather.example.test/today?city=Lyon")
        #expect(reply.status == 200)
        #expect(reply.text == #"{"city":"Lyon","sky":"sunny"}"#)
    }

    @Test func aRecordedAnswerNoRequestAskedForIsReportedWhenAsked() async throws {
        let failures = await recordedFailures {
            try? await withCassette(Cassette("profile", mode: .none, reportsUnusedEntries: true), environment: [:],
                                    testName: "t", site: AssertionSite()) { mock in
                _ = try await mock.urlSession.fetch("https://api.example.test/v2/profile?fields=name")
            }
        }
        #expect(failures.count == 1)
        #expect(failures.first?.contains("profile.har has 1 recorded answer(s) no request asked for (reportsUnusedEntries)") == true)
        #expect(failures.first?.contains("/v2/profile/avatar") == true)
        // Not asked: nothing is reported.
        try await withCassette(Cassette("profile", mode: .none), environment: [:], testName: "t", site: AssertionSite()) { mock in
            _ = try await mock.urlSession.fetch("https://api.example.test/v2/profile?fields=name")
        }
    }

    @Test func onCIAMissingCassetteSaysWhyAndHowToRecordIt() async {
        await #expect {
            try await withCassette(Cassette("not-recorded-yet"), environment: ["CI": "true"], testName: "logsIn",
                                   site: AssertionSite()) { _ in }
        } throws: { error in
            let text = "\(error)"
            return text.contains("Cassettes/not-recorded-yet.har does not exist, and the mode is none (CI is set)")
                && text.contains("HTTPMOCK_CASSETTE_MODE=once swift test --filter logsIn")
        }
    }

    @Test func aDamagedCassetteIsAnErrorNamingTheFileAndTheFix() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-cassette-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"log": {"entries": [{"request": {}}]}}"#.utf8).write(to: folder.appendingPathComponent("broken.har"))
        await #expect {
            try await withCassette(Cassette("broken", folder: folder.path, mode: .once), environment: [:], testName: "t",
                                   site: AssertionSite()) { _ in }
        } throws: { error in
            "\(error)".contains("broken.har cannot be replayed") && "\(error)".contains("HTTPMOCK_CASSETTE_MODE=all")
        }
    }
}

/// On a suite, each test plays the cassette named after it, in the suite's subfolder.
@Suite(.cassette("Weather", mode: .none))
struct CassetteSuiteTests {
    @Test func today() async throws {
        let reply = try await URLSession.shared.fetch("https://weather.example.test/today?city=Lyon")
        #expect(reply.text.contains("sunny"))
    }
}
