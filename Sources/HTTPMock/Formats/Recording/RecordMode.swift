import Foundation

/// When a recording sends requests to the real server and writes what came back.
///
/// ```swift
/// let recording = try mock.startRecording(to: cassette, mode: .ifMissing)
/// ```
public enum RecordMode: Sendable, Hashable {
    /// Replay only: the file must exist; nothing reaches the network, nothing is written.
    case never
    /// Record everything when the file does not exist yet; replay it when it does. The usual choice.
    case ifMissing
    /// Replay what the file has; send requests it cannot answer to the server and add them to the file.
    case newRequests
    /// Send every request to the server and overwrite the file with what came back.
    case always
}

/// The kind of file a recording writes.
public enum RecordingFormat: Sendable, Hashable {
    /// One HAR 1.2 file (`.har`).
    case har
    /// A folder of HTTPMock's own mapping files (see <doc:FileFormatsReference>); the recording is
    /// `recorded.mock.json` in it. Only when asked: WireMock's format is the one other tools read.
    case mappings
    /// A WireMock folder: one stub mapping per response in `mappings/`, binary bodies in `__files/`; requests that
    /// repeat become a scenario, as WireMock's `repeatsAsScenarios` records them. Replayed as
    /// ``HTTPMock/loadWireMockMappings(from:globalTemplating:ranking:)`` loads it (by method, path, query and body; not by host).
    case wireMock

    /// `.har` for a URL ending in `.har`, else `.wireMock`.
    static func inferred(from url: URL) -> RecordingFormat {
        url.pathExtension.lowercased() == "har" ? .har : .wireMock
    }
}
