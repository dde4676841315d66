import Foundation
@testable import HTTPMock
import TestSupport
import Testing

/// A large WireMock folder's stubs are staged while it is read, and a mock that has never held a stub takes them
/// whole: it must answer, list and move through scenarios exactly as a mock that registered the same definitions
/// one by one.
@Suite struct WireMockStagedRegistrationTests {
    /// A folder of `count` generated mapping files: routes written many times over, priorities, a regular
    /// expression, header patterns, scenarios and broken mappings. Bodies name their file.
    static func folder(count: Int, random: inout SplitMix) throws -> URL {
        var files: [String: String] = ["__files/.keep": ""]
        for index in 0..<count {
            let route = Int.random(in: 0..<150, using: &random)
            let mapping = switch Int.random(in: 0..<7, using: &random) {
            case 0: #"{"request": {"method": "GET", "urlPath": "/p/\#(route)"}, "response": {"body": "f\#(index)"}}"#
            case 1: #"{"priority": \#(Int.random(in: 1...5, using: &random)), "request": {"urlPath": "/p/\#(route)"}, "response": {"status": 201, "body": "f\#(index)"}}"#
            case 2: #"{"request": {"urlPathPattern": "/r/[0-9]*\#(route % 10)"}, "response": {"body": "f\#(index)"}}"#
            case 3: #"{"request": {"urlPath": "/p/\#(route)", "headers": {"Accept": {"contains": "json"}}}, "response": {"body": "f\#(index)"}}"#
            case 4: #"{"scenarioName": "s\#(route % 3)", "requiredScenarioState": "Started", "newScenarioState": "two", "request": {"urlPath": "/s/\#(route % 3)"}, "response": {"body": "f\#(index)"}}"#
            case 5: #"{"scenarioName": "s\#(route % 3)", "requiredScenarioState": "two", "newScenarioState": "Started", "request": {"urlPath": "/s/\#(route % 3)"}, "response": {"body": "f\#(index)"}}"#
            default: #"{"request": {"url": \#(route)}}"#  // refused: the folder is read skipping it
            }
            files["mappings/d\(index % 13)/m\(index).json"] = mapping
        }
        return try WireMockBadInputTests.folder(files)
    }

    @Test("a folder's stubs taken whole answer, list and move scenarios as the same stubs registered one by one",
          arguments: [WireMockRanking.specificity, .mostRecentlyAdded])
    func stagedAsRegistered(ranking: WireMockRanking) async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WireMockStagedRegistrationTests seed: \(seed)")
        var random = SplitMix(seed: seed)
        let root = try Self.folder(count: WireMockFolderPart.parallelFrom + 100, random: &random)
        defer { try? FileManager.default.removeItem(at: root) }

        let staged = HTTPMock()
        let whole = try staged.prepareWireMockMappings(from: root, ranking: ranking, skippingInvalid: true, trackingFiles: true, staging: true)
        let stagedFiles = try staged.registerTrackingFiles([whole], slot: "folder")
        #expect(whole.staged?.adopted == true, "the stubs staged while the folder was read were not taken whole")

        // A mock that has held a stub (since removed) cannot take them whole: it registers the definitions one by one.
        let registered = HTTPMock()
        let otherFolder = try WireMockBadInputTests.folder([
            "mappings/o.json": #"{"request": {"urlPath": "/other"}, "response": {"body": "other"}}"#, "__files/.keep": "",
        ])
        defer { try? FileManager.default.removeItem(at: otherFolder) }
        let other = try registered.prepareWireMockMappings(from: otherFolder)
        _ = try registered.registerTrackingFiles([other], slot: "other")
        _ = try registered.registerTrackingFiles([PreparedMocks.empty(source: otherFolder.path)], slot: "other")
        let again = try registered.prepareWireMockMappings(from: root, ranking: ranking, skippingInvalid: true, trackingFiles: true, staging: true)
        let registeredFiles = try registered.registerTrackingFiles([again], slot: "folder")
        #expect(again.staged?.adopted == false, "a mock that had held a stub took staged stubs whole")

        func listed(_ mock: HTTPMock) -> [String] {
            mock.stubListing(offset: 0, limit: .max).stubs.map {
                "\($0.summary) | \($0.remainingResponses) \($0.servesForever) | \($0.requiredStates.map { "\($0.scenario)=\($0.state)" }) | \($0.movesTo.map { "\($0.scenario)=\($0.state)" })"
            }
        }
        #expect(listed(staged) == listed(registered), "seed \(seed)")
        #expect(stagedFiles.byFile().count == registeredFiles.byFile().count, "seed \(seed)")
        #expect(staged.scenarioGraphs.map { "\($0.name) \($0.state) \($0.possibleStates)" }
                == registered.scenarioGraphs.map { "\($0.name) \($0.state) \($0.possibleStates)" }, "seed \(seed)")

        // The same requests, in the same order, to both: the same answers, scenarios moving alike.
        for _ in 0..<200 {
            let route = Int.random(in: 0..<160, using: &random)
            let path = ["/p/\(route)", "/r/\(route)", "/s/\(route % 4)"][Int.random(in: 0..<3, using: &random)]
            let headers = Bool.random(using: &random) ? ["Accept": "application/json"] : [:]
            let one = try await staged.urlSession.fetch("http://localhost\(path)", headers: headers)
            let two = try await registered.urlSession.fetch("http://localhost\(path)", headers: headers)
            // A request no stub answers is told of its near misses by their numbers, one apart between the mocks.
            func unnumbered(_ text: String) -> String { text.replacing(/#[0-9]+/, with: "#") }
            #expect(one.status == two.status && unnumbered(one.text) == unnumbered(two.text),
                    "seed \(seed): \(path) \(headers): \(one.text) / \(two.text)")
        }
        #expect(try await registered.urlSession.fetch("http://localhost/other").status == 404, "seed \(seed)")
    }

    @Test("stubs staged once are taken whole once: a second mock registers the definitions")
    func takenOnce() async throws {
        var random = SplitMix(seed: 7)
        let root = try Self.folder(count: WireMockFolderPart.parallelFrom, random: &random)
        defer { try? FileManager.default.removeItem(at: root) }
        let prepared = try HTTPMock().prepareWireMockMappings(from: root, skippingInvalid: true, trackingFiles: true, staging: true)
        let first = HTTPMock(), second = HTTPMock()
        _ = try first.registerTrackingFiles([prepared], slot: "folder")
        #expect(prepared.staged?.adopted == true)
        _ = try second.registerTrackingFiles([prepared], slot: "folder")
        // Nothing is staged unless asked (a mock that loads a folder with its source named registers it as before).
        #expect(try HTTPMock().prepareWireMockMappings(from: root, skippingInvalid: true).staged == nil)
        #expect(first.stubListing(offset: 0, limit: .max).stubs.map(\.summary)
                == second.stubListing(offset: 0, limit: .max).stubs.map(\.summary))
        // Each mock holds its own stubs: a request answered by one is counted by it alone.
        var answered = false
        for route in 0..<150 where !answered {
            answered = try await first.urlSession.fetch("http://localhost/p/\(route)").status != 404
        }
        #expect(answered)
        #expect(first.stubListing(offset: 0, limit: .max).stubs.map(\.hits).reduce(0, +) == 1)
        #expect(second.stubListing(offset: 0, limit: .max).stubs.map(\.hits).reduce(0, +) == 0)
    }
}
