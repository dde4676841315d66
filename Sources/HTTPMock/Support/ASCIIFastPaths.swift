/// Splits text on a one-byte ASCII separator, as `split(separator:omittingEmptySubsequences:)` on `Character`s does,
/// but over UTF-8 bytes when the text is ASCII (hosts and most paths): several times faster, and the hot path of
/// every request. Text with any non-ASCII byte takes the `Character` route, so results never differ.
enum SeparatorSplit {
    static func split(_ text: String, on separator: Character, omittingEmptySubsequences: Bool) -> [String] {
        guard let byte = separator.asciiValue else {
            return text.split(separator: separator, omittingEmptySubsequences: omittingEmptySubsequences).map(String.init)
        }
        var parts: [String] = []
        let wasASCII = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            // Counted first, so the array is allocated once, at its size.
            var separators = 0
            for current in bytes {
                if current >= 0x80 { return false }
                if current == byte { separators += 1 }
            }
            if bytes.count > separators { parts.reserveCapacity(separators + 1) }
            var start = 0
            for index in 0..<bytes.count {
                guard bytes[index] == byte else { continue }
                if !omittingEmptySubsequences || index > start {
                    parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
                start = index + 1
            }
            if !omittingEmptySubsequences || bytes.count > start {
                parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            }
            return true
        }
        if wasASCII == true { return parts }
        return text.split(separator: separator, omittingEmptySubsequences: omittingEmptySubsequences).map(String.init)
    }
}

/// Case conversions and comparisons on the request path of every response.
enum ASCIICase {
    /// `text.lowercased()`, without a new string when `text` has no upper-case ASCII letter and no non-ASCII byte.
    static func lowercased(_ text: String) -> String {
        text.utf8.contains(where: { (0x41...0x5A).contains($0) || $0 >= 0x80 }) ? text.lowercased() : text
    }

    /// `text.uppercased()`, without a new string when `text` has no lower-case ASCII letter and no non-ASCII byte.
    static func uppercased(_ text: String) -> String {
        text.utf8.contains(where: { (0x61...0x7A).contains($0) || $0 >= 0x80 }) ? text.uppercased() : text
    }

    /// Whether `name` equals `lowercased` (which must be lower-case ASCII) ignoring case. Bytes are compared when
    /// `name` is ASCII; other names take `caseInsensitiveCompare`, so the answer is the same as before.
    static func equal(_ name: String, _ lowercased: String) -> Bool {
        var name = name
        let fast = name.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard bytes.count == lowercased.utf8.count else { return false }
            return zip(bytes, lowercased.utf8).allSatisfy { byte, expected in
                (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected
            }
        }
        return fast ?? (name.caseInsensitiveCompare(lowercased) == .orderedSame)
    }

    /// `a.caseInsensitiveCompare(b) == .orderedSame`, comparing bytes when both are ASCII (header names): the
    /// same answer, without Foundation's comparison on every header of every request.
    static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        let fast = a.withUTF8 { left in
            b.withUTF8 { right -> Bool? in
                guard left.count == right.count else {
                    return left.allSatisfy({ $0 < 0x80 }) && right.allSatisfy({ $0 < 0x80 }) ? false : nil
                }
                for index in 0..<left.count {
                    let x = left[index], y = right[index]
                    if x >= 0x80 || y >= 0x80 { return nil }
                    if (x >= 0x41 && x <= 0x5A ? x | 0x20 : x) != (y >= 0x41 && y <= 0x5A ? y | 0x20 : y) {
                        // Differing here; the rest must be ASCII for the answer to be Foundation's.
                        return left.allSatisfy({ $0 < 0x80 }) && right.allSatisfy({ $0 < 0x80 }) ? false : nil
                    }
                }
                return true
            }
        }
        return fast ?? (a.caseInsensitiveCompare(b) == .orderedSame)
    }
}

/// The UTF-8 bytes of a pattern, for cheap checks before the `Character`-level ones (which stay the reference).
struct ASCIIBytes {
    private let text: Substring
    /// Which ASCII bytes occur (bit n of `low` for byte n < 64, of `high` for 64 ≤ n < 128).
    private let low: UInt64, high: UInt64
    /// Every byte is printable ASCII (no space, no control, nothing past 0x7E).
    let isPrintableASCII: Bool

    init(_ text: Substring) {
        self.text = text
        var low: UInt64 = 0, high: UInt64 = 0, printable = true
        for byte in text.utf8 {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
            if byte <= 0x20 || byte >= 0x7F { printable = false }
        }
        self.low = low
        self.high = high
        isPrintableASCII = printable
    }

    /// Whether any of these ASCII characters' bytes occur. `false` proves the `Character` is absent too.
    func contains(_ first: Character, _ others: Character...) -> Bool {
        ([first] + others).contains { character in
            guard let byte = character.asciiValue else { return true }
            return byte < 64 ? low & (1 << UInt64(byte)) != 0 : high & (1 << UInt64(byte - 64)) != 0
        }
    }

    /// `text.split(separator:omittingEmptySubsequences: false)` for printable-ASCII text, over bytes.
    static func split(_ text: Substring, on separator: Character) -> [Substring] {
        let byte = separator.asciiValue!
        return text.utf8.split(separator: byte, omittingEmptySubsequences: false).map { Substring($0) }
    }
}
