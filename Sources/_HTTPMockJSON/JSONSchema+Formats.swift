import Foundation

extension JSONSchema {
    /// The numeric formats of OpenAPI's format registry, checked when ``JSONSchema/validatesFormats`` is on, with
    /// what a number of each is.
    static let numericFormats = [
        "int32": "a whole number from -2147483648 to 2147483647",
        "int64": "a whole number from -9223372036854775808 to 9223372036854775807",
        "float": "a number a 32-bit float holds, at most 3.4028235e38 either way",
        "double": "a finite number",
    ]

    /// Whether `value` (a number) is of the numeric `format`; nil when the format is not a numeric one.
    static func fitsNumericFormat(_ format: String, _ value: JSONValue) -> Bool? {
        switch (format, value) {
        case ("int32", .int(let whole)): return Int64(Int32.min)...Int64(Int32.max) ~= Int64(whole)
        case ("int64", .int): return true
        case ("int32", .double(let number)): return number.rounded() == number && number >= -2_147_483_648 && number <= 2_147_483_647
        case ("int64", .double(let number)): return number.rounded() == number && number >= -0x1p63 && number < 0x1p63
        case ("int32", .decimal), ("int64", .decimal):
            guard let exact = value.exactNumber, exact.isWhole, let whole = exact.plainText().flatMap({ Int($0) }) else { return false }
            return format == "int64" || Int32(exactly: whole) != nil
        case ("float", _): return value.number.map { abs($0) <= Double(Float.greatestFiniteMagnitude) }
        case ("double", _): return value.number.map(\.isFinite)
        default: return nil
        }
    }

    /// A `format` checked when ``JSONSchema/validatesFormats`` is on; other formats are annotations only.
    struct FormatCheck: Sendable {
        /// What a valid string looks like, for the message.
        let expected: String
        let accepts: @Sendable (String) -> Bool

        static let known: [String: FormatCheck] = [
            "date-time": FormatCheck(expected: "an RFC 3339 date-time, as 2024-01-31T09:30:00Z or 2024-01-31T09:30:00.5+02:00") { dateTime(Array($0.utf8)) },
            "date": FormatCheck(expected: "an RFC 3339 full-date, as 2024-01-31") { date(Array($0.utf8)[...]) },
            "time": FormatCheck(expected: "an RFC 3339 full-time, as 09:30:00Z or 09:30:00.5+02:00") { time(Array($0.utf8)[...]) },
            "email": FormatCheck(expected: "an e-mail address, as name@example.com", accepts: email),
            "uuid": FormatCheck(expected: "a UUID, as 123e4567-e89b-12d3-a456-426614174000", accepts: uuid),
            "uri": FormatCheck(expected: "an absolute URI with a scheme, as https://example.com/a?b=c", accepts: uri),
            "ipv4": FormatCheck(expected: "an IPv4 address, as 192.168.0.1") { ipv4(Substring($0)) },
            "ipv6": FormatCheck(expected: "an IPv6 address, as 2001:db8::1", accepts: ipv6),
            "hostname": FormatCheck(expected: "a host name, as api.example.com", accepts: hostname),
        ]

        // MARK: Dates and times (RFC 3339, section 5.6)

        private static func digits(_ bytes: ArraySlice<UInt8>, _ count: Int, at offset: Int) -> Int? {
            let start = bytes.startIndex + offset
            guard start + count <= bytes.endIndex else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }

        private static func byte(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt8? {
            let index = bytes.startIndex + offset
            return index < bytes.endIndex ? bytes[index] : nil
        }

        static func dateTime(_ bytes: [UInt8]) -> Bool {
            guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
            return date(bytes[..<10]) && time(bytes[11...])
        }

        /// `YYYY-MM-DD`, with the day within its month (29 February in leap years only).
        static func date(_ bytes: ArraySlice<UInt8>) -> Bool {
            guard bytes.count == 10, byte(bytes, at: 4) == UInt8(ascii: "-"), byte(bytes, at: 7) == UInt8(ascii: "-"),
                  let year = digits(bytes, 4, at: 0), let month = digits(bytes, 2, at: 5), let day = digits(bytes, 2, at: 8),
                  (1...12).contains(month) else { return false }
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            return (1...days).contains(day)
        }

        /// `hh:mm:ss[.fraction](Z|±hh:mm)`; a leap second (`:60`) only at 23:59 UTC.
        static func time(_ bytes: ArraySlice<UInt8>) -> Bool {
            guard bytes.count >= 9, byte(bytes, at: 2) == UInt8(ascii: ":"), byte(bytes, at: 5) == UInt8(ascii: ":"),
                  let hour = digits(bytes, 2, at: 0), let minute = digits(bytes, 2, at: 3), let second = digits(bytes, 2, at: 6),
                  hour < 24, minute < 60, second <= 60 else { return false }
            var offset = 8
            if byte(bytes, at: offset) == UInt8(ascii: ".") {
                offset += 1
                let start = offset
                while let digit = byte(bytes, at: offset), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { offset += 1 }
                guard offset > start else { return false }
            }
            var utcMinutes = hour * 60 + minute
            switch byte(bytes, at: offset) {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                guard bytes.count == offset + 1 else { return false }
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard bytes.count == offset + 6, byte(bytes, at: offset + 3) == UInt8(ascii: ":"),
                      let hours = digits(bytes, 2, at: offset + 1), let minutes = digits(bytes, 2, at: offset + 4),
                      hours < 24, minutes < 60 else { return false }
                let sign = byte(bytes, at: offset) == UInt8(ascii: "+") ? 1 : -1
                utcMinutes = ((utcMinutes - sign * (hours * 60 + minutes)) % 1440 + 1440) % 1440
            default:
                return false
            }
            return second < 60 || utcMinutes == 23 * 60 + 59
        }

        // MARK: Addresses

        /// RFC 5322's addr-spec without comments or folding: a dot-atom or quoted local part, `@`, and a host
        /// name or an address literal (`[192.168.0.1]`, `[IPv6:2001:db8::1]`).
        static func email(_ text: String) -> Bool {
            guard let at = text.lastIndex(of: "@") else { return false }
            let local = text[..<at]
            let domain = text[text.index(after: at)...]
            guard !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty else { return false }
            let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8)
            let localIsValid: Bool
            if local.count >= 2, local.hasPrefix("\""), local.hasSuffix("\"") {
                var escaped = false
                localIsValid = local.dropFirst().dropLast().utf8.allSatisfy { byte in
                    defer { escaped = !escaped && byte == UInt8(ascii: "\\") }
                    return escaped || (byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\""))
                } && !escaped
            } else {
                localIsValid = local.split(separator: ".", omittingEmptySubsequences: false)
                    .allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(atext.contains) }
            }
            guard localIsValid else { return false }
            if domain.hasPrefix("["), domain.hasSuffix("]") {
                let literal = domain.dropFirst().dropLast()
                return literal.hasPrefix("IPv6:") ? ipv6(String(literal.dropFirst(5))) : ipv4(literal)
            }
            return hostname(String(domain))
        }

        /// RFC 1123: labels of 1 to 63 letters, digits and hyphens (not first or last), 253 characters in all.
        static func hostname(_ text: String) -> Bool {
            guard !text.isEmpty, text.utf8.count <= 253 else { return false }
            return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                label.utf8.count <= 63 && label.first != "-" && label.last != "-" && !label.isEmpty
                    && label.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            }
        }

        /// Four decimal numbers from 0 to 255 without leading zeros, separated by dots.
        static func ipv4(_ text: Substring) -> Bool {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts.allSatisfy { part in
                (1...3).contains(part.utf8.count) && part.utf8.allSatisfy(isDigit)
                    && (part.utf8.count == 1 || part.first != "0") && Int(part)! <= 255
            }
        }

        /// RFC 4291 text form: eight groups of 1 to 4 hexadecimal digits, one `::` standing for one or more groups
        /// of zeros, an IPv4 address as the last two groups; no zone (`%eth0`).
        static func ipv6(_ text: String) -> Bool {
            guard text.utf8.count <= 45 else { return false }
            let halves = text.components(separatedBy: "::")
            guard halves.count <= 2 else { return false }
            var groups = 0
            for (position, half) in halves.enumerated() where !half.isEmpty {
                let parts = half.split(separator: ":", omittingEmptySubsequences: false)
                for (index, part) in parts.enumerated() {
                    let isLast = position == halves.count - 1 && index == parts.count - 1
                    if isLast, part.contains(".") {
                        guard ipv4(part) else { return false }
                        groups += 2
                    } else {
                        guard (1...4).contains(part.utf8.count), part.utf8.allSatisfy(isHexDigit) else { return false }
                        groups += 1
                    }
                }
            }
            return halves.count == 2 ? groups <= 7 : groups == 8
        }

        /// `8-4-4-4-12` hexadecimal digits.
        static func uuid(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            guard bytes.count == 36 else { return false }
            return bytes.enumerated().allSatisfy { index, byte in
                [8, 13, 18, 23].contains(index) ? byte == UInt8(ascii: "-") : isHexDigit(byte)
            }
        }

        /// RFC 3986: a scheme, `:`, then only URI characters and `%` escapes; brackets only around an IP literal host.
        static func uri(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
                  bytes[..<colon].allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return false }
            let allowed = Set("-._~:/?#[]@!$&'()*+,;=".utf8)
            var index = colon + 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
                    index += 3
                    continue
                }
                guard isAlphanumeric(byte) || allowed.contains(byte) else { return false }
                index += 1
            }
            let rest = bytes[(colon + 1)...]
            guard rest.filter({ $0 == UInt8(ascii: "#") }).count <= 1 else { return false }
            // Brackets belong around the host of an authority (`//[::1]:8080/`), nowhere else.
            let authority = rest.starts(with: Array("//".utf8))
                ? rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
                : rest.prefix(0)
            func brackets(_ part: ArraySlice<UInt8>) -> Int { part.filter { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }.count }
            guard brackets(rest) == brackets(authority) else { return false }
            let host = authority.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false).last ?? []
            if host.contains(UInt8(ascii: "[")) {
                guard host.first == UInt8(ascii: "["), let close = host.firstIndex(of: UInt8(ascii: "]")),
                      ipv6(String(decoding: host[host.index(after: host.startIndex)..<close], as: UTF8.self)) else { return false }
                let port = host[host.index(after: close)...]
                return port.isEmpty || (port.first == UInt8(ascii: ":") && port.dropFirst().allSatisfy(isDigit))
            }
            return true
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        private static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        private static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }
        private static func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}
