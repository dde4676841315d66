/// The kind of file a cassette is.
public enum CassetteFormat: Sendable, Hashable {
    /// One HAR 1.2 file, `<name>.har`: what mattt/Replay and browsers' network panels read and write.
    case har
    /// A WireMock folder, `<name>/` with `mappings/` and `__files/`: what `httpmock serve` and WireMock serve.
    case wireMock
}
