import Foundation

/// One secret found in a fixture by ``SecretAudit``.
public struct SecretFinding: Sendable, Hashable, CustomStringConvertible {
    /// The file it is in.
    public let file: URL
    /// The line of the file it is on (from 1), when it could be told.
    public let line: Int?
    /// Where it is inside the file: a JSON path (`log.entries[0].request.headers[2]`), `(body)` after the path
    /// when it is inside a JSON body written as a string.
    public let location: String
    /// What it is.
    public let kind: SecretKind
    /// The secret with all but its first four characters masked (`eyJh…`), so the report leaks nothing.
    public let excerpt: String

    /// The text blanked out when the file is redacted in place, and how it is found in the file.
    let secret: String
    let context: SecretContext

    /// `path:line: kind at location (excerpt)`, as a compiler prints a diagnostic.
    public var description: String {
        let place = file.path + (line.map { ":\($0)" } ?? "")
        return "\(place): \(kind) at \(location) (\(excerpt))"
    }

    /// The first four characters of `secret`, then `…`.
    static func mask(_ secret: String) -> String {
        secret.count <= 4 ? String(repeating: "•", count: secret.count) : String(secret.prefix(4)) + "…"
    }
}

/// How a secret sits in its file, so that redacting in place changes only the secret.
enum SecretContext: Sendable, Hashable {
    /// A value worth finding alone (a token, a header value): every occurrence is blanked out.
    case standalone
    /// The value of a query or form parameter with this name: `name=value` becomes `name=REDACTED`.
    case parameter(String)
    /// The value of a JSON field with this name: `"name": "value"` becomes `"name": "REDACTED"`.
    case field(String)
    /// Inside a base64 body: it cannot be blanked out without decoding; record the fixture again.
    case encoded
}
