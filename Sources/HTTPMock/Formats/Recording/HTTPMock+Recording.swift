import Foundation

extension HTTPMock {
    /// Records real traffic to a file, or replays the file, depending on `mode`.
    ///
    /// ```swift
    /// let mock = HTTPMock()
    /// let recording = try mock.startRecording(to: fixtures.appendingPathComponent("login.har"), mode: .ifMissing)
    /// _ = try await LoginClient(session: mock.urlSession).logIn()   // the first run reaches the server
    /// try recording.finish()                                         // writes login.har, secrets redacted
    /// ```
    ///
    /// With a file to replay (``RecordMode/never``, ``RecordMode/ifMissing`` and ``RecordMode/newRequests`` when it
    /// exists), the file is loaded as with ``loadHAR(at:options:)`` or ``loadMappings(from:)``. While recording,
    /// requests no stub answers go to the server through ``passthroughSession``; nothing is written before
    /// ``Recording/finish()``, and everything written is redacted by `redaction` first.
    ///
    /// - Parameters:
    ///   - url: A `.har` file, or a folder for mapping files or a WireMock folder.
    ///   - format: Default: ``RecordingFormat/har`` for a `.har` URL, else ``RecordingFormat/mappings``.
    ///   - mode: Default ``RecordMode/ifMissing``.
    ///   - redaction: What is blanked out before writing. Default ``Redaction/default``.
    ///   - replay: How a HAR is replayed.
    /// - Throws: ``HTTPMockError`` when ``RecordMode/never`` finds no file, or the file cannot be loaded.
    public func startRecording(
        to url: URL,
        format: RecordingFormat? = nil,
        mode: RecordMode = .ifMissing,
        redaction: Redaction = .default,
        replay: HARReplayOptions = HARReplayOptions()
    ) throws(HTTPMockError) -> Recording {
        let format = format ?? RecordingFormat.inferred(from: url)
        let exists = RecordingFile.exists(url, format: format)
        if mode == .never, !exists {
            throw HTTPMockError(.missingFile, "recording: nothing to replay at \(url.path) and the mode is .never; record it first with mode .ifMissing or .always")
        }
        var replayed: LoadedMocks?
        if exists, mode != .always {
            switch format {
            case .har: replayed = try loadHAR(at: url, options: replay)
            case .mappings: replayed = try loadMappings(from: url)
            case .wireMock: replayed = try loadWireMockMappings(from: url)
            }
        }
        let records = switch mode {
        case .never: false
        case .ifMissing: !exists
        case .newRequests, .always: true
        }
        return Recording(mock: self, url: url, format: format, mode: mode, redaction: redaction, isRecording: records,
                         replayed: replayed)
    }
}
