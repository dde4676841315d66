import Testing
@testable import HTTPMockTesting

/// Which mode a cassette plays in: the environment variable, then the cassette's own, then CI or not.
@Suite struct CassetteModeTests {
    @Test func theDefaultIsOnceOnADeveloperMachineAndNoneOnCI() throws {
        #expect(try CassetteMode.resolved(.automatic, environment: [:]).mode == .once)
        #expect(try CassetteMode.resolved(.automatic, environment: ["CI": "true"]).mode == .none)
        #expect(try CassetteMode.resolved(.automatic, environment: ["CI": "1"]).reason == "CI is set")
        #expect(try CassetteMode.resolved(.automatic, environment: ["CI": "false"]).mode == .once)
    }

    @Test func aCassetteNamingItsModeKeepsItOnCI() throws {
        #expect(try CassetteMode.resolved(.newEpisodes, environment: ["CI": "true"]).mode == .newEpisodes)
    }

    @Test func theEnvironmentVariableOverridesEveryCassette() throws {
        let resolved = try CassetteMode.resolved(.none, environment: ["HTTPMOCK_CASSETTE_MODE": "all", "CI": "true"])
        #expect(resolved.mode == .all)
        #expect(resolved.reason == "HTTPMOCK_CASSETTE_MODE=all")
        for spelling in ["newEpisodes", "new_episodes", "NEW_EPISODES", "new-episodes"] {
            #expect(try CassetteMode.resolved(.once, environment: ["HTTPMOCK_CASSETTE_MODE": spelling]).mode == .newEpisodes)
        }
        // `automatic` in the variable leaves each cassette its own mode.
        #expect(try CassetteMode.resolved(.all, environment: ["HTTPMOCK_CASSETTE_MODE": "automatic", "CI": "1"]).mode == .all)
    }

    @Test func anUnknownModeInTheEnvironmentIsAnErrorNamingTheChoices() {
        #expect {
            try CassetteMode.resolved(.once, environment: ["HTTPMOCK_CASSETTE_MODE": "record"])
        } throws: { error in
            "\(error)" == "HTTPMOCK_CASSETTE_MODE=record is not a cassette mode; use one of once, newEpisodes, all, none, automatic (or unset it)"
        }
    }

    @Test(arguments: ["", "/etc/passwd", "../escape", "a//b", "a/./b"])
    func aNameLeavingItsFolderIsRefused(name: String) {
        #expect(throws: CassetteError.self) {
            try Cassette(name).location(besideSourceFile: "/project/Tests/AppTests/LoginTests.swift")
        }
    }

    @Test func theCassetteIsBesideTheTestFile() throws {
        let source = "/project/Tests/AppTests/LoginTests.swift"
        #expect(try Cassette("login").location(besideSourceFile: source).path == "/project/Tests/AppTests/Cassettes/login.har")
        #expect(try Cassette("flows/pay.har", folder: "Replays").location(besideSourceFile: source).path
                == "/project/Tests/AppTests/Replays/flows/pay.har")
        #expect(try Cassette("login", folder: "/fixtures", format: .wireMock).location(besideSourceFile: source).path
                == "/fixtures/login")
        #expect(Cassette.fileName(ofTest: "fetchUser(id:)") == "fetchUser")
    }
}
