import Foundation

/// When a cassette reaches the real network and what it writes, named as Ruby's VCR names its record modes.
///
/// The mode of a run is, first, ``environmentVariable`` when it is set (`HTTPMOCK_CASSETTE_MODE=newEpisodes swift
/// test`); then the mode the cassette names; then, for ``automatic`` (the default), ``none`` when the `CI` variable
/// is set, so continuous integration never touches the network, and ``once`` elsewhere.
public enum CassetteMode: String, Sendable, CaseIterable {
    /// ``none`` when the `CI` environment variable is set, else ``once``. The default.
    case automatic
    /// Record every request when the cassette does not exist yet; replay it strictly when it does: a request the
    /// cassette cannot answer fails the test with its near-miss report. The default on a developer's machine.
    case once
    /// Replay what the cassette has; send the requests it cannot answer to the network and add them to it.
    case newEpisodes
    /// Send every request to the network and write the cassette again from what came back.
    case all
    /// Replay only: a missing cassette, or a request it cannot answer, fails the test; nothing reaches the network.
    /// The default when `CI` is set.
    case none

    /// The environment variable that sets the mode of every cassette in a run: `once`, `newEpisodes`
    /// (or `new_episodes`), `all` or `none`.
    public static let environmentVariable = "HTTPMOCK_CASSETTE_MODE"

    /// The mode a cassette uses, and why, given the one its trait names and the process's environment.
    /// Never ``automatic``.
    static func resolved(_ named: CassetteMode, environment: [String: String]) throws(CassetteError) -> (mode: CassetteMode, reason: String) {
        if let text = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let mode = CassetteMode(spelling: text) else {
                throw CassetteError("\(environmentVariable)=\(text) is not a cassette mode; use one of once, newEpisodes, all, none, automatic (or unset it)")
            }
            if mode != .automatic { return (mode, "\(environmentVariable)=\(text)") }
        }
        if named != .automatic { return (named, "the cassette names it") }
        if let ci = environment["CI"], !ci.isEmpty, ci.lowercased() != "false", ci != "0" {
            return (.none, "CI is set")
        }
        return (.once, "the default")
    }

    /// `newEpisodes`, `new_episodes`, `new-episodes` and `NEW_EPISODES` all name ``newEpisodes``.
    init?(spelling: String) {
        let folded = spelling.lowercased().replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "-", with: "")
        guard let mode = Self.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
        self = mode
    }
}

/// A cassette that cannot be used as asked (missing where nothing may be recorded, unreadable, already being
/// recorded by another test, a bad name or mode): its message says what, where and how to fix it. The test does not
/// run.
public struct CassetteError: Error, CustomStringConvertible {
    /// What went wrong, where, and how to fix it.
    public let description: String
    init(_ description: String) { self.description = description }
}
