import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMockTesting

/// A scenario condition is about a stub and the mock's state, which a journaled request does not carry: the
/// assertion faces refuse it with a failure that says so, and count nothing.
@Suite struct ScenarioMatcherTests {
    @Test func assertionsRefuseAScenarioCondition() async throws {
        let mock = HTTPMock()
        try mock.stub(.path("/cart"), .scenario("checkout", state: "Started"), responses: [.plaintext("cart")])
        try await mock.urlSession.fetch("https://shop.example.com/cart")
        let line = #line + 2
        await expectFailure(atLine: line, containing: ["HTTPAssertRequested failed: Match.scenario(\"checkout\", state: \"Started\") is a condition on a stub", "mock.scenarioState(\"checkout\")"]) {
            HTTPAssertRequested(.path("/cart"), .scenario("checkout", state: "Started"), in: mock)
        }
        let line2 = #line + 2
        await expectFailure(atLine: line2, containing: ["HTTPRequests failed: Match.scenario(\"checkout\", state: \"Started\")"]) {
            #expect(HTTPRequests(.scenario("checkout", state: "Started"), in: mock).isEmpty)
        }
        // The request itself is there, found without the scenario condition.
        HTTPAssertRequestedOnce(.path("/cart"), in: mock)
    }
}
