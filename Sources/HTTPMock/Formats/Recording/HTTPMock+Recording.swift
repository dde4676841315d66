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
    /// exists), the file is loaded as with ``loadHAR(at:options:)``, ``loadMappings(from:)`` or
    /// ``loadWireMockMappings(from:globalTemplating:ranking:)``, ranked after every other stub: one registered in code answers
    /// a request the recording also answers. While recording,
    /// requests no stub answers go to the server through ``passthroughSession``; nothing is written before
    /// ``Recording/finish()``, and everything written is redacted by `redaction` first.
    ///
    /// - Parameters:
    ///   - url: A `.har` file, or a folder: a WireMock folder, or one of mapping files.
    ///   - format: Default: ``RecordingFormat/har`` for a `.har` URL, else ``RecordingFormat/wireMock``.
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
            let definitions: [Engine.Definition] = switch format {
            case .har:
                try DefinitionFile.decode(HAR.self, from: url, name: url.lastPathComponent, limit: sizeLimits.definitions)
                    .definitions(options: replay, name: url.lastPathComponent)
            case .mappings: try MappingFolder.definitions(at: url, limits: sizeLimits)
            case .wireMock: try prepareWireMockMappings(from: url).definitions
            }
            // A recording replays what the server said; a stub registered in code says what this test wants instead.
            let yielding = definitions.map { definition in
                var definition = definition
                definition.conditions.append(.replayedRecording)
                return definition
            }
            replayed = try core.engine.load(yielding, source: url.path, slot: nil)
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

extension Condition {
    /// Ranks a replayed recording's stubs after every other stub, however specific (WireMock priorities inside the
    /// recording keep their order among themselves).
    static let replayedRecording = Condition(key: nil, weight: 0, summary: "replayed", precedence: -1_000) { _ in true }
}
