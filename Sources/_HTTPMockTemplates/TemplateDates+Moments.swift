import Foundation

/// Moments as WireMock writes them, read whole: what its date patterns and the `parseDate` and `now` helpers share.
extension TemplateDates {
    /// The Gregorian calendar in UTC, in which WireMock reads and shifts moments.
    package static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// A moment written as ISO 8601 (with a zone or offset, or without, read in UTC; a date alone is its first
    /// moment) or as RFC 1123 (`Sun, 14 Jun 2026 12:00:00 GMT`).
    package static func moment(_ written: String) -> Date? {
        let text = javaISO(written)
        // Foundation's formatters on Linux read a date from the start of a text and ignore what follows
        // (`2100-01-01T00:00:00Zjunk`); WireMock refuses such a value, so the whole text must have a date's shape.
        guard hasMomentShape(text) else { return nil }
        let zoned = ISO8601DateFormatter()
        zoned.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = zoned.date(from: text) { return date }
        zoned.formatOptions = [.withInternetDateTime]
        if let date = zoned.date(from: text) { return date }
        for pattern in ["yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd",
                        "EEE, dd MMM yyyy HH:mm:ss zzz"] {
            if let date = strictFormatter(pattern).date(from: text) { return date }
        }
        return nil
    }

    /// `text` as Foundation's ISO 8601 formatter reads what Java's reads: `t` and `z` in either case, a time without
    /// seconds before its zone (`2024-06-15T09:00Z`), and a region after an offset (`+02:00[Europe/Paris]`, which the
    /// offset then names alone).
    static func javaISO(_ text: String) -> String {
        var bytes = Array(text.utf8)
        func isDigit(_ index: Int) -> Bool { (48...57).contains(bytes[index]) }
        guard bytes.count > 10, [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy(isDigit), bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: "T") else { return text }
        bytes[10] = UInt8(ascii: "T")
        // A region only after a zone (`Z` or `+hh:mm`), and one the system knows; else the text stays as it is and
        // is no moment.
        if bytes.last == UInt8(ascii: "]"), let open = bytes.lastIndex(of: UInt8(ascii: "[")), open > 16 {
            let before = bytes[open - 1]
            let afterOffset = open >= 6 && (bytes[open - 6] == UInt8(ascii: "+") || bytes[open - 6] == UInt8(ascii: "-"))
                && bytes[open - 3] == UInt8(ascii: ":")
            let region = String(decoding: bytes[(open + 1)..<(bytes.count - 1)], as: UTF8.self)
            guard before == UInt8(ascii: "Z") || before == UInt8(ascii: "z") || afterOffset, TimeZone(identifier: region) != nil else { return text }
            bytes.removeSubrange(open...)
        }
        if bytes.last == UInt8(ascii: "z") { bytes[bytes.count - 1] = UInt8(ascii: "Z") }
        // `Thh:mm` directly followed by its zone: the seconds are 0.
        if bytes.count > 16, [UInt8(ascii: "Z"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[16]), bytes[13] == UInt8(ascii: ":") {
            bytes.insert(contentsOf: Array(":00".utf8), at: 16)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` is shaped as WireMock reads a moment, whole: ISO 8601 (`dddd-dd-dd`, then `Tdd:dd`, `:dd`, a
    /// fraction, a zone `Z` or `+dd:dd`, each optional in that order) or RFC 1123 (`Sun, 14 Jun 2026 12:00:00 GMT`).
    package static func hasMomentShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
        func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        /// Whether `bytes` from `start` follow `shape`: `d` a digit, `a` a letter, anything else itself.
        func follows(_ shape: String, at start: Int) -> Bool {
            let shape = Array(shape.utf8)
            guard start + shape.count <= bytes.count else { return false }
            for (offset, expected) in shape.enumerated() {
                let byte = bytes[start + offset]
                switch expected {
                case UInt8(ascii: "d"): if !isDigit(byte) { return false }
                case UInt8(ascii: "a"): if !isLetter(byte) { return false }
                default: if byte != expected { return false }
                }
            }
            return true
        }
        if follows("aaa, dd aaa dddd dd:dd:dd ", at: 0) {
            let zone = bytes.dropFirst(26)
            return (1...5).contains(zone.count) && zone.allSatisfy(isLetter)
        }
        guard follows("dddd-dd-dd", at: 0) else { return false }
        var at = 10
        guard at < bytes.count else { return true }
        guard follows("Tdd:dd", at: at) else { return false }
        at += 6
        if follows(":dd", at: at) {
            at += 3
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                var digits = 0
                at += 1
                while at < bytes.count, isDigit(bytes[at]), digits < 9 { at += 1; digits += 1 }
                guard digits > 0 else { return false }
            }
        }
        if at == bytes.count { return true }
        if bytes[at] == UInt8(ascii: "Z") { return at + 1 == bytes.count }
        guard bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-"), follows("dd", at: at + 1) else { return false }
        at += 3
        if at == bytes.count { return true }
        if bytes[at] == UInt8(ascii: ":") { at += 1 }
        return follows("dd", at: at) && at + 2 == bytes.count
    }

    /// A formatter of `pattern` in UTC that reads nothing more than the pattern says (not lenient).
    package static func strictFormatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        formatter.isLenient = false
        return formatter
    }
}
