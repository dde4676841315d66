import Foundation
import _HTTPMockJSON
import _HTTPMockTemplates

/// WireMock's date and time patterns (`before`, `after`, `equalToDateTime`): the value read as a moment and compared
/// with an expected one, fixed (`2026-06-14T12:00:00Z`) or relative to the time of the request (`now +3 days`),
/// either side optionally truncated (`first day of month`). Moments without a zone are read in UTC.
struct WireMockDateTime: Sendable {
    enum Comparison: String, Sendable {
        case before, after, equalToDateTime
    }

    /// The expected moment: fixed, or `now` plus an offset, worked out when a request is tested.
    private enum Expected: Sendable {
        case fixed(Date)
        case now(amount: Int, unit: Calendar.Component)
    }

    private let comparison: Comparison
    private let expected: Expected
    private let actualFormat: ActualFormat
    private let truncateExpected: TemplateDates.Truncation?
    private let truncateActual: TemplateDates.Truncation?
    /// `applyTruncationLast`: an expected `now` with an offset is truncated after the offset is added (WireMock's
    /// default truncates `now` first, then adds it).
    private let truncationLast: Bool

    static let keys = ["actualFormat", "truncateExpected", "truncateActual", "applyTruncationLast", "expectedOffset", "expectedOffsetUnit"]

    /// Reads the pattern whose operator is `comparison`, its operand at `value`, its modifiers among `fields`.
    init(_ comparison: Comparison, value: WireMockNode, fields: [String: JSONValue], in node: WireMockNode) throws(HTTPMockError) {
        self.comparison = comparison
        let text = try value.string().trimmingCharacters(in: .whitespaces)
        if text.lowercased().hasPrefix("now") {
            var (amount, unit) = try Self.offset(String(text.dropFirst(3)), at: value)
            if let offset = node.child("expectedOffset", of: fields) {
                guard amount == 0 else { throw offset.error("give the offset once: in the expression (\"now +3 days\") or in \"expectedOffset\"") }
                amount = try offset.integer(in: -1_000_000...1_000_000)
                let unitNode = node.child("expectedOffsetUnit", of: fields)
                unit = try unitNode.map { (node) throws(HTTPMockError) in try Self.unit(try node.string(), at: node) } ?? .day
            }
            expected = .now(amount: amount, unit: unit)
        } else {
            for key in ["expectedOffset", "expectedOffsetUnit"] where fields[key] != nil {
                throw node.child(key, of: fields)!.error("\"\(key)\" applies to an expected time of \"now\"")
            }
            guard let date = TemplateDates.moment(text) else {
                throw value.error("\"\(text)\" is not a date and time WireMock reads; write \"now\", \"now +3 days\", \"2026-06-14\" or \"2026-06-14T12:00:00Z\"")
            }
            expected = .fixed(date)
        }
        actualFormat = try node.child("actualFormat", of: fields).map { (node) throws(HTTPMockError) in try ActualFormat(node) } ?? .iso
        truncateExpected = try node.child("truncateExpected", of: fields).map(Self.truncation)
        truncateActual = try node.child("truncateActual", of: fields).map(Self.truncation)
        truncationLast = try node.child("applyTruncationLast", of: fields).map { (node) throws(HTTPMockError) in try node.bool() } ?? false
    }

    /// `before 2026-06-14T12:00:00Z`, `after now +3 days`, for reports and keys.
    var description: String {
        var text = comparison.rawValue + " "
        switch expected {
        case .fixed(let date): text += ISO8601DateFormatter().string(from: date)
        case .now(let amount, let unit): text += amount == 0 ? "now" : "now \(amount > 0 ? "+" : "")\(amount) \(unit)"
        }
        if let truncateExpected { text += " (expected: \(truncateExpected.rawValue))" }
        if let truncateActual { text += " (actual: \(truncateActual.rawValue))" }
        if case .format(let format) = actualFormat { text += " (format \(format))" }
        return text
    }

    /// Whether the text `value` is a moment that passes, now.
    func holds(_ value: String) -> Bool {
        guard var actual = actualFormat.parse(value.trimmingCharacters(in: .whitespaces)) else { return false }
        var wanted: Date
        switch expected {
        case .fixed(let date):
            // As WireMock: truncateExpected applies to now only; a fixed moment is compared as written.
            wanted = date
        case .now(let amount, let unit):
            wanted = Date()
            if let truncateExpected, !truncationLast { wanted = truncateExpected.apply(to: wanted) }
            wanted = TemplateDates.utc.date(byAdding: unit, value: amount, to: wanted) ?? wanted
            if let truncateExpected, truncationLast { wanted = truncateExpected.apply(to: wanted) }
        }
        if let truncateActual { actual = truncateActual.apply(to: actual) }
        switch comparison {
        case .before: return actual < wanted
        case .after: return actual > wanted
        case .equalToDateTime: return actual == wanted
        }
    }

    /// One of WireMock's nine truncations, the same as templates' `truncateDate` reads.
    private static func truncation(_ node: WireMockNode) throws(HTTPMockError) -> TemplateDates.Truncation {
        let text = try node.string()
        guard let truncation = TemplateDates.Truncation(name: text) else {
            throw node.error("\"\(text)\" is not a truncation; use one of: \(TemplateDates.Truncation.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return truncation
    }

    /// ` +3 days`, ` -1 hours`, or nothing.
    private static func offset(_ text: String, at node: WireMockNode) throws(HTTPMockError) -> (Int, Calendar.Component) {
        let parts = text.split(separator: " ")
        if parts.isEmpty { return (0, .day) }
        guard parts.count == 2, let amount = Int(parts[0].replacingOccurrences(of: "+", with: "")), abs(amount) <= 1_000_000 else {
            throw node.error("\"now\(text)\" is not an offset WireMock reads; write \"now +3 days\" or \"now -1 hours\"")
        }
        return (amount, try unit(String(parts[1]), at: node))
    }

    private static func unit(_ name: String, at node: WireMockNode) throws(HTTPMockError) -> Calendar.Component {
        switch name.lowercased().hasSuffix("s") ? String(name.lowercased().dropLast()) : name.lowercased() {
        case "second": return .second
        case "minute": return .minute
        case "hour": return .hour
        case "day": return .day
        case "month": return .month
        case "year": return .year
        default: throw node.error("\"\(name)\" is not a unit of time; use seconds, minutes, hours, days, months or years")
        }
    }

    /// How the value is written: ISO 8601 (the default), a date pattern, or a number of seconds (`unix`) or
    /// milliseconds (`epoch`) since 1970.
    private enum ActualFormat: Sendable {
        case iso, unix, epoch
        case format(String)

        init(_ node: WireMockNode) throws(HTTPMockError) {
            let text = try node.string()
            switch text.lowercased() {
            case "unix": self = .unix
            case "epoch": self = .epoch
            case "": throw node.error("the format is empty; give a date pattern such as \"dd/MM/yyyy\", or \"unix\" or \"epoch\"")
            default: self = .format(text)
            }
        }

        func parse(_ text: String) -> Date? {
            switch self {
            case .iso: return TemplateDates.moment(text)
            case .unix: return Double(text).map { Date(timeIntervalSince1970: $0) }
            case .epoch: return Double(text).map { Date(timeIntervalSince1970: $0 / 1000) }
            case .format(let pattern):
                // The whole text, as WireMock's formatter reads it: what the pattern writes back must be the text.
                let formatter = TemplateDates.strictFormatter(pattern)
                guard let date = formatter.date(from: text), formatter.string(from: date) == text else { return nil }
                return date
            }
        }
    }
}
