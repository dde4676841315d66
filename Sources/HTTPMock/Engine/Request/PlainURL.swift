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

    /// A set of ASCII bytes as two 64-bit masks: one test a byte, where a chain of comparisons took ten.
    struct ByteSet {
        let low: UInt64
        let high: UInt64

        init(_ members: String) {
            var low: UInt64 = 0
            var high: UInt64 = 0
            for byte in members.utf8 where byte < 128 {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
            self.low = low
            self.high = high
        }

        @inline(__always) func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low >> UInt64(byte) & 1 == 1 : byte < 128 && high >> UInt64(byte &- 64) & 1 == 1
        }
    }

    private static let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    private static let digits = "0123456789"
    /// After a scheme's first letter: letters, digits, `+`, `-`, `.`.
    static let schemeBytes = ByteSet(letters + digits + "+-.")
    /// A plain host: letters, digits, `-`, `.`, `_`.
    static let hostBytes = ByteSet(letters + digits + "-._")
    /// Path bytes that read the same decoded: unreserved and sub-delimiter characters, `/`, `:`, `@`; no `%`, no `;`.
    static let plainPathBytes = ByteSet(letters + digits + "/-._~!$&'()*+,=:@")

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
        let (schemeBytes, hostBytes, plainPathBytes) = (Self.schemeBytes, Self.hostBytes, Self.plainPathBytes)
        let count = bytes.count
        // Scheme: a letter, then letters, digits, `+`, `-`, `.`; then `://`.
        guard count > 0, bytes[0] | 0x20 >= 0x61, bytes[0] | 0x20 <= 0x7A else { return nil }
        var index = 1
        while index < count, schemeBytes.contains(bytes[index]) { index += 1 }
        guard index + 2 < count, bytes[index] == 0x3A, bytes[index + 1] == 0x2F, bytes[index + 2] == 0x2F else { return nil }
        let scheme: String
        switch index {
        case 5 where bytes[0] | 0x20 == 0x68 && bytes[1] | 0x20 == 0x74 && bytes[2] | 0x20 == 0x74 && bytes[3] | 0x20 == 0x70
            && bytes[4] | 0x20 == 0x73: scheme = "https"
        case 4 where bytes[0] | 0x20 == 0x68 && bytes[1] | 0x20 == 0x74 && bytes[2] | 0x20 == 0x74 && bytes[3] | 0x20 == 0x70:
            scheme = "http"
        default: scheme = lowercased(0..<index)
        }
        // Host: letters, digits, `-`, `.`, `_`; not empty; no `xn--` label.
        let hostStart = index + 3
        index = hostStart
        while index < count, hostBytes.contains(bytes[index]) { index += 1 }
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
            var value = 0
            let digitsStart = index
            while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - digitsStart < 5 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            guard index > digitsStart, value <= 65535, index == count || bytes[index] < 0x30 || bytes[index] > 0x39 else {
                return nil
            }
            port = value
        }
        // Then the path, query or fragment, or the end; anything else (`@`, `[`…) is not plain.
        guard index == count || bytes[index] == 0x2F || bytes[index] == 0x3F || bytes[index] == 0x23 else { return nil }
        let pathStart = index
        var slashes = 0
        while index < count, bytes[index] != 0x3F, bytes[index] != 0x23 {
            guard plainPathBytes.contains(bytes[index]) else { return nil }
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
            while index < count, bytes[index] != 0x23 {
                guard bytes[index] < 0x80, bytes[index] > 0x20 else { return nil }
                index += 1
            }
            rawQuery = string(queryStart..<index)
        }
        for byte in UnsafeBufferPointer(rebasing: bytes[index...]) where byte >= 0x80 || byte <= 0x20 { return nil }
        return PlainURL(scheme: scheme, host: host, port: port, pathSegments: segments, rawQuery: rawQuery)
    }
}
