import Foundation

/// The folder of test fixtures.
let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

/// A model the samples encode and decode.
struct User: Codable, Equatable, Sendable {
    let id: Int
    let name: String
}

/// Says on standard error that the `HTTPMock: …` refusal printed next is provoked on purpose, so a reader of the
/// `swift test` output does not take it for a problem.
func noteExpectedRefusal(_ what: String) {
    FileHandle.standardError.write(Data("expected: the next \"HTTPMock:\" line is refused on purpose by this test (\(what))\n".utf8))
}
