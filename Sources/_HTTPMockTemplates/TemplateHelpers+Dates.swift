import Foundation
import _HTTPMockJSON

/// Dates in templates: printing (ISO 8601, a date pattern, `epoch` milliseconds, `unix` seconds), offsets
/// (`3 days`, `-24 seconds`), time zones, parsing and WireMock's truncations.
package enum TemplateDates {
    static func text(_ value: TemplateDate) -> String {
        let zone = value.timeZone ?? TimeZone(identifier: "UTC")!
        switch value.format {
        case nil:
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = zone
            return formatter.string(from: value.date)
        case "epoch"?: return whole(value.date.timeIntervalSince1970 * 1000)
        case "unix"?: return whole(value.date.timeIntervalSince1970)
        case let pattern?:
            // UTC, by default or named, as Java names it (Foundation on Linux calls it GMT).
            let utc = value.timeZone.map { $0.identifier == "Etc/UTC" } ?? true
            return formatter(javaPattern(pattern, value.date, zone, utc: utc), zone).string(from: value.date)
        }
    }

    private static func whole(_ number: Double) -> String {
        abs(number) < 9e18 ? String(Int64(number.rounded(.down))) : JSONValue.text(of: number.rounded(.down))
    }

    /// Moments WireMock's dates reach: within about 3 million years of 1970.
    static let span: ClosedRange<Double> = -1e14...1e14

    static func formatter(_ pattern: String, _ zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }

    /// A Java date pattern (`SimpleDateFormat`'s, which WireMock's `format=` is) as Foundation's formatter (ICU)
    /// prints the same for `date` in `zone`: where their letters differ, the text Java writes goes in quotes. `S`
    /// is a number of milliseconds (`S` of .789 is `789`, `SSSSSS` is `000789`), `u` the day of the week from
    /// Monday, 1, to Sunday, 7; five `E`, `M` or `L` or more are the full name; in UTC (`utc`), `z`…`zzz` is `UTC` and
    /// `zzzz` `Coordinated Universal Time` (Foundation names it GMT).
    static func javaPattern(_ pattern: String, _ date: Date, _ zone: TimeZone, utc: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func number(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return "'" + String(repeating: "0", count: max(0, width - digits.count)) + digits + "'"
        }
        var result = "", quoted = false
        var characters = pattern[...]
        while let character = characters.first {
            if character == "'" {
                quoted.toggle()
                result.append(character)
                characters = characters.dropFirst()
                continue
            }
            let run = quoted ? characters.prefix(1) : characters.prefix { $0 == character }
            characters = characters.dropFirst(run.count)
            guard !quoted else { result += run; continue }
            switch character {
            case "S":
                // Whole microseconds first, so that .123 (held as .12299…) is 123 milliseconds, not 122.
                let milliseconds = ((date.timeIntervalSince1970 * 1_000_000).rounded() / 1000).rounded(.down)
                let withinSecond = milliseconds - (milliseconds / 1000).rounded(.down) * 1000
                result += number(Int(min(999, max(0, withinSecond))), run.count)
            case "u": result += number((calendar.component(.weekday, from: date) + 5) % 7 + 1, run.count)
            case "E" where run.count >= 5, "M" where run.count >= 5, "L" where run.count >= 5:
                result += String(repeating: character, count: 4)
            case "z" where utc: result += run.count >= 4 ? "'Coordinated Universal Time'" : "'UTC'"
            default: result += run
            }
        }
        return result
    }

    /// The offset an ISO 8601 text was written with (`+02:00`, `-0330`, `+05`), in which WireMock's `parseDate`
    /// keeps the moment; `nil` for `Z`, no offset and other forms (UTC).
    static func writtenOffset(_ text: String) -> TimeZone? {
        guard hasMomentShape(text), text.utf8.count > 16, let mark = text.utf8.dropFirst(16).lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) else {
            return nil
        }
        let sign = text[mark] == "-" ? -1 : 1
        let digits = text[text.index(after: mark)...].filter(\.isNumber)
        guard digits.count == 2 || digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))) else {
            return nil
        }
        let seconds = sign * (hours * 3600 + minutes * 60)
        return seconds == 0 ? nil : TimeZone(secondsFromGMT: seconds)
    }

    /// `3 days`, `-24 seconds`, `+1 years`: an amount and a unit (seconds to years, singular or plural).
    static func offset(_ text: String) -> (amount: Int, unit: Calendar.Component)? {
        let words = text.split(separator: " ")
        guard words.count == 2, let amount = Int(words[0].hasPrefix("+") ? words[0].dropFirst() : words[0]),
              abs(amount) <= 1_000_000 else { return nil }
        var unit = words[1].lowercased()
        if unit.hasSuffix("s") { unit.removeLast() }
        switch unit {
        case "millisecond": return (amount, .nanosecond)
        case "second": return (amount, .second)
        case "minute": return (amount, .minute)
        case "hour": return (amount, .hour)
        case "day": return (amount, .day)
        case "week": return (amount * 7, .day)
        case "month": return (amount, .month)
        case "year": return (amount, .year)
        default: return nil
        }
    }

    static func adding(_ offset: (amount: Int, unit: Calendar.Component), to date: Date) -> Date {
        if offset.unit == .nanosecond { return date.addingTimeInterval(Double(offset.amount) / 1000) }
        return Self.utc.date(byAdding: offset.unit, value: offset.amount, to: date) ?? date
    }

    static func timeZone(_ name: String) -> TimeZone? {
        // `UTC` is Etc/UTC, whose zone name prints as UTC (Foundation on Linux takes `UTC` for GMT).
        if name == "UTC" { return TimeZone(identifier: "Etc/UTC") }
        return TimeZone(identifier: name) ?? TimeZone(abbreviation: name)
    }

    /// A moment written as ISO 8601, RFC 1123, RFC 1036 or asctime; or in `format` (a date pattern, `epoch`,
    /// `unix`). Without a zone, UTC.
    static func parse(_ text: String, format: String?) -> Date? {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let utc = TimeZone(identifier: "UTC")!
        switch format {
        case "epoch"?: return Double(text).flatMap { span.contains($0 / 1000) ? Date(timeIntervalSince1970: $0 / 1000) : nil }
        case "unix"?: return Double(text).flatMap { span.contains($0) ? Date(timeIntervalSince1970: $0) : nil }
        case let pattern?:
            let parser = formatter(pattern, utc)
            parser.isLenient = false
            return parser.date(from: text)
        case nil:
            if let date = moment(text) { return date }
            let iso = ISO8601DateFormatter()
            iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            for pattern in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "EEEE, dd-MMM-yy HH:mm:ss zzz",
                            "EEE MMM d HH:mm:ss yyyy", "EEE, d MMM yyyy HH:mm:ss Z"] {
                let parser = formatter(pattern, utc)
                parser.isLenient = false
                if let date = parser.date(from: text) { return date }
            }
            return nil
        }
    }

    /// WireMock's truncations, in UTC.
    package enum Truncation: String, CaseIterable, Sendable {
        case firstSecondOfMinute = "first second of minute"
        case firstMinuteOfHour = "first minute of hour"
        case firstHourOfDay = "first hour of day"
        case firstDayOfMonth = "first day of month"
        case firstDayOfNextMonth = "first day of next month"
        case lastDayOfMonth = "last day of month"
        case firstDayOfYear = "first day of year"
        case firstDayOfNextYear = "first day of next year"
        case lastDayOfYear = "last day of year"

        package init?(name: String) {
            self.init(rawValue: name.lowercased().replacingOccurrences(of: "_", with: " ").trimmingCharacters(in: .whitespaces))
        }

        /// The truncated moment, in `zone` (UTC by default): the first hour of a day starts at its midnight there.
        package func apply(to date: Date, in zone: TimeZone? = nil) -> Date {
            var calendar = TemplateDates.utc
            if let zone { calendar.timeZone = zone }
            func start(_ components: Set<Calendar.Component>) -> Date {
                calendar.date(from: calendar.dateComponents(components, from: date)) ?? date
            }
            func add(_ unit: Calendar.Component, _ amount: Int, _ to: Date) -> Date {
                calendar.date(byAdding: unit, value: amount, to: to) ?? to
            }
            let month = start([.year, .month]), year = start([.year])
            switch self {
            case .firstSecondOfMinute: return start([.year, .month, .day, .hour, .minute])
            case .firstMinuteOfHour: return start([.year, .month, .day, .hour])
            case .firstHourOfDay: return start([.year, .month, .day])
            case .firstDayOfMonth: return month
            case .firstDayOfNextMonth: return add(.month, 1, month)
            case .lastDayOfMonth: return add(.day, -1, add(.month, 1, month))
            case .firstDayOfYear: return year
            case .firstDayOfNextYear: return add(.year, 1, year)
            case .lastDayOfYear: return add(.day, -1, add(.year, 1, year))
            }
        }
    }
}

extension HandlebarsRenderer {
    func dates(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch helper {
        case .now:
            return .date(try moment(now, arguments))
        case .date:
            guard let date = try date(arguments.param(0), format: nil, arguments) else { return .null }
            var value = try moment(date, arguments)
            // A date parsed with an offset stays in it, unless timezone= names another zone.
            if value.timeZone == nil, case .date(let given) = arguments.param(0).single { value.timeZone = given.timeZone }
            return .date(value)
        case .parseDate:
            guard let date = try date(arguments.param(0), format: arguments.hashText("format"), arguments) else { return .null }
            // As WireMock: a moment written with an offset prints in that offset (`2021-06-15T15:16:17+02:00`).
            let zone = arguments.hashText("format") == nil ? TemplateDates.writtenOffset(arguments.param(0).single.text) : nil
            return .date(TemplateDate(date: date, timeZone: zone))
        case .dateFormat:
            guard var value = try templateDate(arguments.param(0), arguments) else { return .null }
            let format = arguments.hashText("format") ?? (arguments.params.count > 1 ? arguments.text(1) : nil)
            let styles: [String: DateFormatter.Style] = ["full": .full, "long": .long, "medium": .medium, "short": .short]
            if let format, let style = styles[format] {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US")
                formatter.timeZone = value.timeZone ?? TimeZone(identifier: "UTC")
                formatter.dateStyle = style
                formatter.timeStyle = .none
                return .string(formatter.string(from: value.date))
            }
            value.format = format
            return .string(TemplateDates.text(value))
        case .truncateDate:
            guard var value = try templateDate(arguments.param(0), arguments) else { return .null }
            guard let truncation = TemplateDates.Truncation(name: arguments.text(1)) else {
                throw arguments.problem("'\(arguments.text(1))' is not a truncation; use one of: \(TemplateDates.Truncation.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            value.date = truncation.apply(to: value.date, in: value.timeZone)
            return .date(value)
        default:
            throw arguments.problem("\(helper.rawValue) is not a date helper")
        }
    }

    /// `date` moved by `offset=`, printed in `timezone=` and `format=`.
    private func moment(_ date: Date, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateDate {
        var value = TemplateDate(date: date, format: arguments.hashText("format"))
        if let text = arguments.hashText("offset"), !text.isEmpty {
            guard let offset = TemplateDates.offset(text) else {
                throw arguments.problem("'\(text)' is not an offset; write offset='3 days' or offset='-24 seconds'")
            }
            value.date = TemplateDates.adding(offset, to: date)
        }
        if let name = arguments.hashText("timezone") {
            guard let zone = TemplateDates.timeZone(name) else {
                throw arguments.problem("'\(name)' is not a time zone; write timezone='Australia/Sydney'")
            }
            value.timeZone = zone
        }
        return value
    }

    private func templateDate(_ value: TemplateValue, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateDate? {
        if case .date(let date) = value { return date }
        return try date(value, format: nil, arguments).map { TemplateDate(date: $0) }
    }

    /// A date value, or text read as a date (`nil` for no value).
    private func date(_ value: TemplateValue, format: String?, _ arguments: HelperArguments) throws(TemplateProblem) -> Date? {
        switch value.single {
        case .null: return nil
        case .date(let date): return date.date
        case .int(let number) where format == nil && TemplateDates.span.contains(Double(number) / 1000):
            return Date(timeIntervalSince1970: Double(number) / 1000)
        case let other:
            let text = other.text
            if text.isEmpty { return nil }
            guard let date = TemplateDates.parse(text, format: format) else {
                let hint = format.map { "in the format '\($0)'" } ?? "as ISO 8601 (2021-06-15T15:16:17Z), RFC 1123 or asctime; give format='dd/MM/yyyy' for others"
                throw arguments.problem("'\(text)' is not a date \(hint)")
            }
            return date
        }
    }
}
