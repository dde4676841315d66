import Foundation

/// The heart of a mock: stubs, the unmocked policy and the journal, behind one lock.
///
/// Pure Swift with no `URLSession` in it: it takes a ``CapturedRequest`` and says what to do. The interception
/// layer carries that out; tests can drive it directly.
final class Engine: Sendable {
    struct State {
        let router = Router()
        var policy: UnmockedPolicy = .notFound
        var journal = Journal()
        /// Registrations refused by the non-throwing API, newest last.
        var refusals: [HTTPMockError] = []
        /// Stubs loaded from files, by the slot that replaces them on the next load (`Formats/`).
        var loadedSlots: [String: Set<StubID>] = [:]
    }

    let state = Locked(State())

    /// One stub to register: a route, conditions and responses.
    struct Definition {
        var host: HostPattern?
        var path: PathPattern?
        var conditions: [Condition]
        var responses: [MockResponse]
    }

    /// Registers every definition, or none: the first problem is thrown and nothing is added.
    /// With a `slot` (`Formats/`), the stubs registered before in that slot are removed in the same step, so no
    /// request sees both or neither, and the new ones take their place.
    @discardableResult
    func register(_ definitions: [Definition], slot: String? = nil) throws(HTTPMockError) -> [StubID] {
        for definition in definitions {
            for response in definition.responses {
                if let problem = response.problem { throw problem }
                if case .multiple(let count) = response.lifetime, count < 1 {
                    throw HTTPMockError.invalidResponse("lifetime .multiple(\(count)) for \(describe(definition)) must serve at least once; use .multiple(1) or more")
                }
            }
        }
        return state.withLock { state in
            if let slot, let previous = state.loadedSlots[slot] { state.router.removeAll { previous.contains($0.id) } }
            let ids = definitions.map {
                state.router.add(host: $0.host, path: $0.path, conditions: $0.conditions, responses: $0.responses)
            }
            if let slot { state.loadedSlots[slot] = Set(ids) }
            return ids
        }
    }

    private func describe(_ definition: Definition) -> String {
        "\(definition.host?.source ?? "any host")\(definition.path?.normalized ?? "/**")"
    }

    /// What to do with a request.
    enum Decision: Sendable {
        case respond(MockResponse)
        case passthrough
        case fail(any Error & Sendable)
        case crash(String)
    }

    /// Decides how to answer `request`, consumes a queued response if a stub answers, and journals it.
    func decide(_ request: CapturedRequest) -> (decision: Decision, entry: Int) {
        state.withLock { state in
            let candidates = state.router.candidates(for: request)
            var exhausted: [String] = []
            var unmet: [String] = []
            for id in candidates {
                guard let stub = state.router.stubs[id], stub.isEnabled else { continue }
                if let failed = stub.conditions.first(where: { !$0.test(request) }) {
                    unmet.append("\(stub.summary): \(failed.summary) not met")
                    continue
                }
                var response: MockResponse?
                state.router.update(id) {
                    response = $0.queue.next()
                    if response != nil { $0.hits += 1 }
                }
                if var response {
                    if let render = response.render { response = render(request) }
                    let entry = state.journal.append(request, resolution: .stub(id, summary: stub.summary))
                    return (.respond(response), entry)
                }
                exhausted.append("\(stub.summary): all its responses were used")
            }
            let reason = Self.reason(request, candidates: candidates.count, exhausted: exhausted, unmet: unmet,
                                     refusals: state.refusals)
            switch state.policy {
            case .passthrough:
                return (.passthrough, state.journal.append(request, resolution: .passedThrough))
            case .notFound:
                let entry = state.journal.append(request, resolution: .unmatched(reason: reason))
                return (.respond(.plaintext(reason, status: .notFound, headers: ["X-HTTPMock": "unmatched"])), entry)
            case .mock(let response):
                return (.respond(response), state.journal.append(request, resolution: .unmatched(reason: reason)))
            case .fail(let error):
                return (.fail(error), state.journal.append(request, resolution: .unmatched(reason: reason)))
            case .fatalError:
                return (.crash(reason), state.journal.append(request, resolution: .unmatched(reason: reason)))
            }
        }
    }

    private static func reason(_ request: CapturedRequest, candidates: Int, exhausted: [String], unmet: [String],
                               refusals: [HTTPMockError]) -> String {
        var lines = ["HTTPMock: no mock answered \(request.method) \(request.url.absoluteString)"]
        if candidates == 0 { lines.append("- no stub is registered for this host and path") }
        lines += exhausted.map { "- \($0)" } + unmet.map { "- \($0)" }
        if !refusals.isEmpty {
            lines.append("- \(refusals.count) registration(s) of this mock were refused; the last: \(refusals.last!.message)")
        }
        return lines.joined(separator: "\n")
    }

    func complete(_ entry: Int, with outcome: JournalEntry.Outcome) {
        state.withLock { $0.journal.complete(entry, with: outcome) }
    }
}
