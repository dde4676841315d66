import Foundation

/// Whole numbers in definition files. `JSONDecoder` reports a number that is valid JSON but not an `Int` (`200.5`,
/// `1e30`) as malformed JSON with no key path, so these decode it here and name the key instead.
enum WholeNumber {
    /// The error for a number that is not a whole number in `range`, at `path`.
    static func error(_ shown: String, range: ClosedRange<Int>?, path: [any CodingKey]) -> DecodingError {
        let expected = range.map { "a whole number from \($0.lowerBound) to \($0.upperBound)" } ?? "a whole number"
        return DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "expected \(expected), not \(shown)"))
    }

    /// How a number that did not decode as `Int` is shown: `200.5`, `1e+30`.
    static func show(_ number: Double?) -> String {
        guard let number else { return "a number too large to read" }
        return number.isFinite ? "\(number)" : "a number too large to read"
    }

    /// Decodes with `int`; when the value is a number but not an `Int`, throws an error at `path` that says a
    /// whole number is expected (a value that is not a number keeps the decoder's "expected a number" error).
    static func decode(path: [any CodingKey], range: ClosedRange<Int>?, int: () throws -> Int,
                       double: () throws -> Double) throws -> Int {
        let value: Int
        do {
            value = try int()
        } catch {
            // Not a number at all: the decoder's own error says what was found. A number that is not an `Int`
            // comes as a decoder-internal error (`numberIsNotRepresentableInSwift` on Linux), not a DecodingError.
            switch error as? DecodingError {
            case .typeMismatch?, .valueNotFound?, .keyNotFound?: throw error
            default: throw Self.error(show(try? double()), range: range, path: path)
            }
        }
        if let range, !range.contains(value) { throw Self.error(String(value), range: range, path: path) }
        return value
    }
}

extension KeyedDecodingContainer {
    /// The whole number at `key` (in `range`, if given); a fraction or a number out of range is an error naming
    /// the key.
    func decodeWholeNumber(forKey key: Key, in range: ClosedRange<Int>? = nil) throws -> Int {
        try WholeNumber.decode(path: codingPath + [key], range: range, int: { try decode(Int.self, forKey: key) },
                               double: { try decode(Double.self, forKey: key) })
    }

    /// ``decodeWholeNumber(forKey:in:)`` for an optional key (absent or `null` is `nil`).
    func decodeWholeNumberIfPresent(forKey key: Key, in range: ClosedRange<Int>? = nil) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeWholeNumber(forKey: key, in: range)
    }
}

extension SingleValueDecodingContainer {
    /// The whole number here; a fraction is an error that says a whole number is expected.
    func decodeWholeNumber(in range: ClosedRange<Int>? = nil) throws -> Int {
        try WholeNumber.decode(path: codingPath, range: range, int: { try decode(Int.self) }, double: { try decode(Double.self) })
    }
}

/// HTTP method names as definition files give them.
enum MethodName {
    /// `nil` when `method` is a valid HTTP method token (RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``),
    /// else why not.
    static func problem(_ method: String) -> String? {
        if method.isEmpty { return "the method is empty" }
        // The usual case first: upper-case ASCII letters alone (GET, POST…) are a method.
        if method.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) { return nil }
        let allowed = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        if let bad = method.unicodeScalars.first(where: { !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || allowed.contains($0))) }) {
            return "\(String(reflecting: method)) is not an HTTP method: it contains \(String(reflecting: String(bad))); write a method such as \"GET\" or \"POST\""
        }
        return nil
    }
}

/// Base64 bodies in definition files.
enum Base64 {
    /// The bytes `text` encodes, or `nil` when it is not base64. Line breaks and spaces (base64 is often wrapped)
    /// are ignored; any other character outside the alphabet makes the whole text invalid, never an empty body.
    /// The `=` padding may be left out or be too long, as WireMock reads it (`aGVsbG8` and `aGVsbG8h=` are read);
    /// a last group of one character holds no byte and is refused.
    static func decode(_ text: String) -> Data? {
        var compact = text
        compact.removeAll { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        while compact.last == "=" { compact.removeLast() }
        guard compact.utf8.count % 4 != 1 else { return nil }
        compact += String(repeating: "=", count: (4 - compact.utf8.count % 4) % 4)
        return Data(base64Encoded: compact)
    }
}
