import Foundation

/// The parts of a plain absolute URL (`scheme://host[:port]/path[?query][#fragment]` in unreserved ASCII, no
/// percent-escapes, no user info, no IPv6 literal, no IDNA label), read straight from its bytes.
///
/// Capturing a request through `URLComponents` re-parses the string and runs the host through IDNA, which costs
/// more than matching it against 100,000 stubs. For a plain URL every part reads the same without decoding, so
/// this gives what `URLComponents` gives; anything else returns `nil` and the capture uses `URLComponents`.
///
/// It reads each part once, into the form a ``CapturedRequest`` keeps: the scheme and host lower-cased, the path
/// already split into its segments (empty ones dropped; a plain path has nothing to decode).
struct PlainURL {
    /// Lower-cased.
    let scheme: String
    /// Lower-cased.
    let host: String
    let port: Int?
    /// The path's segments, as ``PathNormalization/segments(of:)`` gives them.
    let pathSegments: [String]
    let rawQuery: String?

    init?(_ url: URL) {
        guard url.baseURL == nil else { return nil }
        var text = url.relativeString
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private init(scheme: String, host: String, port: Int?, pathSegments: [String], rawQuery: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathSegments = pathSegments
        self.rawQuery = rawQuery
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainURL? {
        func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        /// The ASCII text in `range`, lower-cased.
        func lowercased(_ range: Range<Int>) -> String {
            guard bytes[range].contains(where: { (0x41...0x5A).contains($0) }) else { return string(range) }
            return String(unsafeUninitializedCapacity: range.count) { buffer in
                for (offset, byte) in bytes[range].enumerated() { buffer[offset] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
                return range.count
            }
        }
        let count = bytes.count
        // Scheme: a letter, then letters, digits, `+`, `-`, `.`; then `://`.
        guard count > 0, isLetter(bytes[0]) else { return nil }
        var index = 1
        while index < count, isLetter(bytes[index]) || isDigit(bytes[index]) || bytes[index] == 0x2B || bytes[index] == 0x2D || bytes[index] == 0x2E {
            index += 1
        }
        guard index + 2 < count, bytes[index] == 0x3A, bytes[index + 1] == 0x2F, bytes[index + 2] == 0x2F else { return nil }
        let scheme = lowercased(0..<index)
        // Host: letters, digits, `-`, `.`, `_`; not empty; no `xn--` label.
        let hostStart = index + 3
        index = hostStart
        while index < count, isLetter(bytes[index]) || isDigit(bytes[index]) || bytes[index] == 0x2D || bytes[index] == 0x2E || bytes[index] == 0x5F {
            index += 1
        }
        guard index > hostStart else { return nil }
        // `xn--` (any case) anywhere marks an IDNA label.
        var marker = hostStart
        while marker + 3 < index {
            if bytes[marker] | 0x20 == 0x78, bytes[marker + 1] | 0x20 == 0x6E, bytes[marker + 2] == 0x2D, bytes[marker + 3] == 0x2D {
                return nil
            }
            marker += 1
        }
        let host = lowercased(hostStart..<index)
        // Port: `:` and 1 to 5 digits, at most 65535.
        var port: Int?
        if index < count, bytes[index] == 0x3A {
            index += 1
            let digitsStart = index
            while index < count, isDigit(bytes[index]) { index += 1 }
            guard index > digitsStart, index - digitsStart <= 5, let value = Int(string(digitsStart..<index)), value <= 65535 else {
                return nil
            }
            port = value
        }
        // Then the path, query or fragment, or the end; anything else (`@`, `[`…) is not plain.
        guard index == count || bytes[index] == 0x2F || bytes[index] == 0x3F || bytes[index] == 0x23 else { return nil }
        let pathStart = index
        var slashes = 0
        while index < count, bytes[index] != 0x3F, bytes[index] != 0x23 {
            guard isPlainPathByte(bytes[index]) else { return nil }
            if bytes[index] == 0x2F { slashes += 1 }
            index += 1
        }
        // Split on `/`, empty segments dropped, into an array allocated once.
        var segments: [String] = []
        if index - pathStart > slashes {
            segments.reserveCapacity(slashes + 1)
            var start = pathStart
            for position in pathStart...index where position == index || bytes[position] == 0x2F {
                if position > start { segments.append(string(start..<position)) }
                start = position + 1
            }
        }
        var rawQuery: String?
        if index < count, bytes[index] == 0x3F {
            index += 1
            let queryStart = index
            while index < count, bytes[index] != 0x23 { index += 1 }
            rawQuery = string(queryStart..<index)
        }
        for byte in UnsafeBufferPointer(rebasing: bytes[index...]) where byte >= 0x80 || byte <= 0x20 { return nil }
        if let rawQuery, rawQuery.utf8.contains(where: { $0 >= 0x80 || $0 <= 0x20 }) { return nil }
        return PlainURL(scheme: scheme, host: host, port: port, pathSegments: segments, rawQuery: rawQuery)
    }

    /// Path bytes that read the same decoded: unreserved and sub-delimiter characters, `/`, `:`, `@`; no `%`, no `;`.
    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case 0x2F, 0x2D, 0x2E, 0x5F, 0x7E, 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3D, 0x3A, 0x40: return true
        default: return false
        }
    }
}
