/// Which header values are secrets: they never appear in reports or in journals written to disk.
enum HeaderRedaction {
    /// Header names (lower-cased) whose values are hidden by default.
    static let defaultNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    static let placeholder = "<redacted>"

    static func redact(name: String, value: String, names: Set<String> = defaultNames) -> String {
        names.contains(name.lowercased()) ? placeholder : value
    }
}
