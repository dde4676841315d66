import Foundation

extension HTTPMock {
    /// Replays the HAR file at `url`: each recorded request gets its recorded responses, in the order they were
    /// recorded (the third identical request gets the third answer), then the last one again (see
    /// ``HARReplayOptions/repeatsLast``). Other stubs of the mock stay.
    ///
    /// ```swift
    /// let mock = HTTPMock()
    /// try mock.loadHAR(at: fixtures.appendingPathComponent("checkout.har"))
    /// ```
    ///
    /// A request matches a recorded one with the same method, host, port (if the URL gave one), path, exactly the
    /// same query parameters and, with ``HARReplayOptions/matchesBody``, the same body. The scheme is not compared.
    /// A recorded failure (status `0` with `_error`) fails the request with that `URLError`.
    ///
    /// - Returns: a handle whose ``LoadedMocks/remove()`` removes what this call registered.
    /// - Throws: ``HTTPMockError`` naming the file and the entry when the file is missing or malformed; nothing is
    ///   registered then.
    @discardableResult
    public func loadHAR(at url: URL, options: HARReplayOptions = HARReplayOptions()) throws(HTTPMockError) -> LoadedMocks {
        let har = try DefinitionFile.decode(HAR.self, from: url, name: url.lastPathComponent, limit: sizeLimits.definitions)
        return try load(har, options: options, name: url.lastPathComponent, source: url.path)
    }

    /// Replays `har` (see ``loadHAR(at:options:)``).
    @discardableResult
    public func loadHAR(_ har: HAR, options: HARReplayOptions = HARReplayOptions()) throws(HTTPMockError) -> LoadedMocks {
        try load(har, options: options, name: "HAR", source: "HAR")
    }

    private func load(_ har: HAR, options: HARReplayOptions, name: String, source: String) throws(HTTPMockError) -> LoadedMocks {
        try core.engine.load(har.definitions(options: options, name: name), source: source, slot: nil)
    }

    /// The requests this mock answered so far, as a HAR, with secrets redacted.
    ///
    /// Open the written file in a browser's network panel (Import HAR) or an HTTP debugging proxy. Binary bodies
    /// are base64-encoded; a failed request has status `0` and the `URLError` name in `_error`.
    public func exportHAR(redaction: Redaction = .default) -> HAR {
        HAR(journal: journal, redaction: redaction)
    }

    /// Writes ``exportHAR(redaction:)`` to `url`.
    ///
    /// ```swift
    /// try mock.writeHAR(to: URL(fileURLWithPath: "/tmp/session.har"))
    /// ```
    public func writeHAR(to url: URL, redaction: Redaction = .default) throws(HTTPMockError) {
        try exportHAR(redaction: redaction).write(to: url)
    }
}

extension HAR {
    /// Reads a HAR file. Errors name the file and the line and column, or the key path, of the problem. A file
    /// larger than 64 MiB is refused (``HTTPMock/loadHAR(at:options:)`` uses the mock's ``HTTPMock/fileSizeLimits``).
    public init(contentsOf url: URL) throws(HTTPMockError) {
        self = try DefinitionFile.decode(HAR.self, from: url, name: url.lastPathComponent)
    }

    /// The HAR as pretty-printed JSON.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Writes the HAR to `url` (atomically), creating missing folders.
    public func write(to url: URL) throws(HTTPMockError) {
        try FileOutput.write(jsonData(), to: url)
    }
}
