import Foundation

/// Finds secrets in fixtures before they are committed: HAR files, WireMock folders, mapping files, Mockingbird
/// bundles, and the body files beside them. `httpmock audit` runs it; a test can too.
///
/// ```swift
/// @Test func fixturesHoldNoSecrets() {
///     let report = SecretAudit().scan([fixtures])
///     #expect(report.findings.isEmpty, "\(report)")
/// }
/// ```
///
/// What it finds: `Authorization`, cookie and API-key headers whose value is not redacted; bearer tokens; JSON Web
/// Tokens; keys of well-known providers by their documented formats (AWS, GitHub, Slack, Stripe, Google, OpenAI,
/// Anthropic, SendGrid); PEM private keys; passwords, tokens and keys as query or form parameters and as JSON fields,
/// inside JSON bodies written as strings and base64 bodies too. A value that is a placeholder (`REDACTED`, what
/// ``Redaction`` writes; `<FILTERED>`; `***`), or a template (`{{request.headers.Authorization}}`), is no secret.
public struct SecretAudit: Sendable {
    /// What ``Redaction`` writes in place of a secret, and what ``redact(_:)`` writes. Default `REDACTED`.
    public var placeholder: String
    /// Files larger than this are named in ``SecretAuditReport/problems`` and not read. Default 64 MiB.
    public var maximumFileBytes: Int

    /// An audit that treats `placeholder` as a blanked-out secret.
    public init(placeholder: String = Redaction.default.placeholder, maximumFileBytes: Int = 64 << 20) {
        self.placeholder = placeholder
        self.maximumFileBytes = maximumFileBytes
    }

    /// Scans every file at or under `paths` (hidden files, and symbolic links, are skipped and a link is named).
    public func scan(_ paths: [URL]) -> SecretAuditReport {
        var report = SecretAuditReport()
        for path in paths {
            for file in files(at: path, problems: &report.problems) {
                report.filesScanned += 1
                report.findings += scan(file: file, problems: &report.problems)
            }
        }
        return report
    }

    /// Blanks out, in place, each secret of `report` that can be found again safely, changing nothing else in its
    /// file; then scans those files again. Returns what is left: secrets inside base64 bodies, values too short to
    /// find safely, and files that could not be written, each for the user to fix by hand (or record again).
    public func redact(_ report: SecretAuditReport) -> SecretAuditReport {
        var left = SecretAuditReport(problems: report.problems)
        let byFile = Dictionary(grouping: report.findings, by: \.file)
        for file in byFile.keys.sorted(by: { $0.path < $1.path }) {
            guard var text = try? String(contentsOf: file, encoding: .utf8) else {
                left.problems.append("\(file.path): could not be read as UTF-8 text to redact it; fix it by hand")
                left.findings += byFile[file]!
                continue
            }
            let original = text
            for finding in byFile[file]! { text = Self.blank(finding, in: text, placeholder: placeholder) }
            if text != original {
                do {
                    try Data(text.utf8).write(to: file, options: .atomic)
                } catch {
                    left.problems.append("\(file.path): could not be written: \(error.localizedDescription)")
                }
            }
            left.filesScanned += 1
            left.findings += scan(file: file, problems: &left.problems)
        }
        return left
    }

    // MARK: Files

    private func files(at url: URL, problems: inout [String]) -> [URL] {
        switch LocalFile.kind(at: url.path) {
        case .missing:
            problems.append("\(url.path): no such file or folder")
            return []
        case .regular:
            return [url]
        case .directory:
            guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil,
                                                                  options: [.skipsHiddenFiles]) else { return [] }
            var files: [URL] = []
            for case let file as URL in enumerator {
                if LocalFile.isSymbolicLink(file.path) {
                    problems.append("\(file.path): a symbolic link, not followed; audit what it leads to by its own path")
                    enumerator.skipDescendants()
                } else if case .regular = LocalFile.kind(at: file.path) {
                    files.append(file)
                }
            }
            return files.sorted { $0.path < $1.path }
        case let kind:
            problems.append("\(url.path): \(kind.irregularName ?? "not a file"), not audited")
            return []
        }
    }

    private func scan(file: URL, problems: inout [String]) -> [SecretFinding] {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        guard size <= maximumFileBytes else {
            problems.append("\(file.path): \(size) bytes, larger than the audit's limit of \(maximumFileBytes); not read")
            return []
        }
        guard let data = try? Data(contentsOf: file) else {
            problems.append("\(file.path): could not be read")
            return []
        }
        var scanner = SecretScanner(file: file, placeholder: placeholder)
        scanner.scan(data, at: "", context: nil)
        let text = String(decoding: data, as: UTF8.self)
        var seen = Set<String>()
        return scanner.found.compactMap { found -> SecretFinding? in
            let key = "\(found.location)\u{1F}\(found.kind)\u{1F}\(found.secret)"
            guard seen.insert(key).inserted else { return nil }
            return SecretFinding(file: file, line: found.line ?? Self.line(of: found.secret, in: text), location: found.location,
                                 kind: found.kind, excerpt: SecretFinding.mask(found.secret), secret: found.secret,
                                 context: found.context)
        }
    }

    /// The line (from 1) where `secret` first appears in `text`, as written or JSON-escaped.
    static func line(of secret: String, in text: String) -> Int? {
        for form in [secret, secret.replacingOccurrences(of: "/", with: "\\/")] {
            if let range = text.range(of: form) {
                return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            }
        }
        return nil
    }

    // MARK: Redacting

    /// Shorter values are too likely to occur where they are no secret for every occurrence to be blanked out.
    static let shortestStandalone = 6

    static func blank(_ finding: SecretFinding, in text: String, placeholder: String) -> String {
        let forms = Array(Set([finding.secret, finding.secret.replacingOccurrences(of: "/", with: "\\/"),
                               finding.secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")]))
        var text = text
        switch finding.context {
        case .encoded:
            break
        case .standalone:
            guard finding.secret.count >= shortestStandalone else { break }
            for form in forms { text = text.replacingOccurrences(of: form, with: placeholder) }
        case .parameter(let name):
            for form in forms { text = text.replacingOccurrences(of: "\(name)=\(form)", with: "\(name)=\(placeholder)") }
        case .field(let name):
            for form in forms {
                let pattern = #"(\\*""# + NSRegularExpression.escapedPattern(for: name) + #"\\*"\s*:\s*\\*")"#
                    + NSRegularExpression.escapedPattern(for: form) + #"(\\*")"#
                guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
                text = expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                           withTemplate: "$1" + NSRegularExpression.escapedTemplate(for: placeholder) + "$2")
            }
        }
        return text
    }
}

/// What ``SecretAudit/scan(_:)`` found.
public struct SecretAuditReport: Sendable, CustomStringConvertible {
    /// Each secret found, file by file in path order.
    public var findings: [SecretFinding] = []
    /// Paths that could not be audited (missing, unreadable, too large, links), each with what to do.
    public var problems: [String] = []
    /// How many files were read.
    public var filesScanned = 0

    /// One line per finding, then one per problem.
    public var description: String {
        (findings.map(\.description) + problems).joined(separator: "\n")
    }
}
