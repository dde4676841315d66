import Foundation

/// The folder of test fixtures.
let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

/// A model the samples encode and decode.
struct User: Codable, Equatable, Sendable {
    let id: Int
    let name: String
}
