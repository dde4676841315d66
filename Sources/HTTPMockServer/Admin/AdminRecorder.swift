#if Server
import Foundation
import HTTPMock

/// A recording started over the admin API: while it runs, what no stub answers goes to its target and is journaled;
/// stopping it turns those requests into stub mappings.
final class AdminRecorder: Sendable {
    enum Status: String, Sendable {
        case neverStarted = "NeverStarted", recording = "Recording", stopped = "Stopped"
    }

    /// What a running recording holds.
    struct Running: Sendable {
        let spec: RecordSpec
        let forwarder: Forwarder
        /// The first journal entry of the recording.
        let firstEntry: Int
        /// The mock's unmocked policy before the recording made it `.passthrough`.
        let previousPolicy: UnmockedPolicy
    }

    private struct State: Sendable {
        var status = Status.neverStarted
        var running: Running?
    }

    private let state = Locked(State())

    var status: Status { state.withLock { $0.status } }

    /// Where unanswered requests go while recording.
    var forwarder: Forwarder? { state.withLock { $0.running?.forwarder } }

    /// Starts recording to `target`; `false` when a recording runs already.
    func start(_ spec: RecordSpec, target: URL, via: String, mock: HTTPMock) -> Bool {
        let started = state.withLock { state -> Bool in
            guard state.running == nil else { return false }
            state.running = Running(spec: spec, forwarder: Forwarder(upstream: target, via: via), firstEntry: mock.nextJournalID,
                                    previousPolicy: mock.unmockedPolicy)
            state.status = .recording
            return true
        }
        if started { mock.unmockedPolicy = .passthrough }
        return started
    }

    /// Stops the recording and gives the mock its policy back; what it was, or `nil` when none ran.
    func stop(mock: HTTPMock) -> Running? {
        let running = state.withLock { state -> Running? in
            defer {
                if state.running != nil { state.status = .stopped }
                state.running = nil
            }
            return state.running
        }
        if let running {
            mock.unmockedPolicy = running.previousPolicy
            running.forwarder.close()
        }
        return running
    }

    /// Lets the forwarder's requests finish and releases it, when the server stops.
    func close() {
        state.withLock { $0.running }?.forwarder.close()
    }
}

/// WireMock's record spec (`/__admin/recordings/start`, `/snapshot`): which journaled requests become mappings, and
/// how.
struct RecordSpec: Sendable {
    /// A request pattern the requests must meet (WireMock's `filters`, without `ids` and `allowNonProxied`).
    var filters: RequestPredicate?
    /// Only the serve events with these ids (`filters.ids`).
    var ids: Set<String>?
    /// Requests a stub answered too, not only those the server forwarded (`filters.allowNonProxied`).
    var allowNonProxied = false
    /// Request headers the mappings match (`captureHeaders`: name → `{"caseInsensitive": true}`).
    var captureHeaders: [String: Bool] = [:]
    /// Write the mappings into the served WireMock folder (`persist`; default: when one is served).
    var persist: Bool
    /// Requests that repeat become a scenario (`repeatsAsScenarios`, default `true`).
    var repeatsAsScenarios = true
    /// `outputFormat`: `FULL` (the mappings) or `IDS` (their ids).
    var idsOnly = false

    init(_ object: [String: Any], canPersist: Bool) throws(AdminError) {
        persist = canPersist
        if var filters = object["filters"] as? [String: Any] {
            if let ids = filters.removeValue(forKey: "ids") {
                guard let list = ids as? [String] else {
                    throw AdminError.invalidJSON(pointer: "/filters/ids", detail: "ids is a list of serve event ids")
                }
                self.ids = Set(list.map { $0.lowercased() })
            }
            allowNonProxied = filters.removeValue(forKey: "allowNonProxied") as? Bool ?? false
            if !filters.isEmpty {
                do {
                    let json = try JSONSerialization.data(withJSONObject: filters)
                    self.filters = try RequestPredicate(try WireMockStubMapping.requestPattern(json: json, source: "filters"))
                } catch let error as HTTPMockError {
                    throw AdminError.unreadable(error)
                } catch {
                    throw AdminError.invalidJSON(pointer: "/filters", detail: "\(error)")
                }
            }
        }
        if let headers = object["captureHeaders"] as? [String: Any] {
            for (name, options) in headers {
                captureHeaders[name] = (options as? [String: Any])?["caseInsensitive"] as? Bool ?? false
            }
        }
        if let persist = object["persist"] as? Bool {
            guard !persist || canPersist else {
                throw AdminError.invalidJSON(pointer: "/persist", detail: "persist writes into the WireMock folder served, and this server serves none (Configuration.wireMockFolder, httpmock serve <WireMock folder>); send \"persist\": false")
            }
            self.persist = persist
        }
        if let repeats = object["repeatsAsScenarios"] as? Bool { repeatsAsScenarios = repeats }
        if let format = object["outputFormat"] as? String {
            guard ["FULL", "IDS"].contains(format.uppercased()) else {
                throw AdminError.invalidJSON(pointer: "/outputFormat", detail: "outputFormat is FULL or IDS, not \(format)")
            }
            idsOnly = format.uppercased() == "IDS"
        }
    }

    /// Which of `entries` become mappings.
    func selected(_ entries: [JournalEntry]) -> [JournalEntry] {
        entries.filter { entry in
            guard entry.outcome != nil else { return false }
            if !allowNonProxied, entry.resolution != .passedThrough { return false }
            if let ids, !ids.contains(ServeEventJSON.id(of: entry)) { return false }
            if let filters, !filters.matches(entry.request) { return false }
            return true
        }
    }
}
#endif
