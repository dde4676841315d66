import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What interception needs from a mock: its engine, and the session that carries passthrough requests.
final class MockCore: Sendable {
    let engine: Engine
    /// A session without any mock in it, for `.passthrough`.
    let passthroughSession: URLSession

    init(engine: Engine, passthroughSession: URLSession) {
        self.engine = engine
        self.passthroughSession = passthroughSession
    }
}

