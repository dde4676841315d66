/// How a HAR file is replayed by ``HTTPMock/loadHAR(at:options:)``.
///
/// ```swift
/// try mock.loadHAR(at: url, options: HARReplayOptions(repeatsLast: false))   // strict: each recorded answer once
/// ```
public struct HARReplayOptions: Sendable, Hashable {
    /// Whether a request must carry the recorded body to get the recorded answer. JSON bodies are compared as JSON
    /// (key order and spacing do not matter), and a field recorded as ``wildcard`` matches any value. Default `true`.
    public var matchesBody: Bool
    /// Whether a request keeps getting the last recorded answer once the others are used up (`true`, the default),
    /// or falls through to the mock's ``UnmockedPolicy``.
    public var repeatsLast: Bool
    /// Whether each answer is delayed by the time the recording took (`entries[].time`). Default `false`.
    public var replaysTiming: Bool
    /// A recorded query value or JSON field equal to this matches any value: what ``Redaction`` writes in place of a
    /// secret. Default `REDACTED`.
    public var wildcard: String

    /// Options; the defaults match bodies, repeat the last answer and deliver at once.
    public init(matchesBody: Bool = true, repeatsLast: Bool = true, replaysTiming: Bool = false,
                wildcard: String = Redaction.default.placeholder) {
        self.matchesBody = matchesBody
        self.repeatsLast = repeatsLast
        self.replaysTiming = replaysTiming
        self.wildcard = wildcard
    }
}
