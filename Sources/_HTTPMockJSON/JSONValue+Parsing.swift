import Foundation

extension JSONValue {
    /// Parses strict JSON (RFC 8259) straight from its bytes: the fast path for definition files, where decoding
    /// through `Codable` took most of the time of loading a folder of 10,000 mappings.
    ///
    /// `nil` for anything it does not take as it is: malformed JSON, a key written twice in one object, invalid
    /// UTF-8, nesting deeper than ``maximumDepth``. The caller then reads the bytes the slow way, which explains
    /// what is wrong (or reads JSON5). A number with neither fraction nor exponent that fits `Int` is `.int`; one a
    /// double holds to every digit written is `.double`; any other (within a double's range) is `.decimal`.
    package static func parse(_ data: Data, lastKeyWins: Bool = false, allowsTrailingCommas: Bool = false) -> JSONValue? {
        data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            parser.lastKeyWins = lastKeyWins
            parser.allowsTrailingCommas = allowsTrailingCommas
            guard let value = parser.value(depth: 0) else { return nil }
            parser.skipSpace()
            return parser.index == parser.bytes.count ? value : nil
        }
    }

    /// The value at `path` (object keys, and array indexes as `Int`) in strict JSON `data`, as written there with
    /// the whitespace between tokens removed: keys in their order, numbers as written (`2.0` stays `2.0`). `nil`
    /// when there is no such value or the bytes are not strict JSON.
    package static func compactText(at path: [any Sendable], in data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            guard let range = parser.span(at: path[...]) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(range.count)
            var inString = false, escaped = false
            for index in range {
                let byte = parser.bytes[index]
                if inString {
                    out.append(byte)
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D: continue
                case UInt8(ascii: "\""): inString = true
                default: break
                }
                out.append(byte)
            }
            return Data(out)
        }
    }

    /// How deeply arrays and objects may nest (as `JSONDecoder` allows): the parser recurses once a level.
    static let maximumDepth = 512

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// The members of the objects being read, innermost last: an object is made once its `}` says how many
        /// it has, at that size, not grown a member at a time.
        private var members: [(key: String, value: JSONValue)] = []
        /// Checking values without making them (``span(at:)``'s last step): objects and lists are read, not kept.
        private var checkingOnly = false
        /// A key written twice in one object keeps its last value (as Jackson and Foundation read it), instead of
        /// making the bytes unreadable here.
        var lastKeyWins = false
        /// A comma before a closing bracket or brace is taken (``JSONValue/permissive(_:)``).
        var allowsTrailingCommas = false

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The byte range of the value at `path` below the value that starts here.
        mutating func span(at path: ArraySlice<any Sendable>) -> Range<Int>? {
            skipSpace()
            guard let step = path.first else {
                let start = index
                checkingOnly = true
                defer { checkingOnly = false }
                guard value(depth: 0) != nil else { return nil }
                return start..<index
            }
            guard index < bytes.count else { return nil }
            if let key = step as? String, bytes[index] == UInt8(ascii: "{") {
                index += 1
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else { return nil }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    if name == key { return span(at: path.dropFirst()) }
                    guard skipValue(), nextMember(closing: UInt8(ascii: "}")) else { return nil }
                }
            }
            if let position = step as? Int, bytes[index] == UInt8(ascii: "[") {
                index += 1
                var current = 0
                while true {
                    if current == position { return span(at: path.dropFirst()) }
                    guard skipValue(), nextMember(closing: UInt8(ascii: "]")) else { return nil }
                    current += 1
                }
            }
            return nil
        }

        /// Past the value that starts here, without building it (the bytes were parsed strictly before).
        private mutating func skipValue() -> Bool {
            skipSpace()
            var depth = 0
            repeat {
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
                    index += 1
                default:
                    // A number or a literal: up to the next delimiter.
                    while index < bytes.count, !",:]} \t\n\r".utf8.contains(bytes[index]) { index += 1 }
                }
            } while depth > 0
            return index <= bytes.count
        }

        /// Past the `,` after a member; `false` at the end of the container (or anything else).
        private mutating func nextMember(closing: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return depth < JSONValue.maximumDepth ? object(depth: depth + 1) : nil
            case UInt8(ascii: "["): return depth < JSONValue.maximumDepth ? array(depth: depth + 1) : nil
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        private mutating func object(depth: Int) -> JSONValue? {
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object([:])
            }
            let first = members.count
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth) else { return nil }
                if !checkingOnly { members.append((key, member)) }
                skipSpace()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: ","):
                    index += 1
                    guard closesAfterComma(UInt8(ascii: "}")) else { continue }
                    fallthrough
                case UInt8(ascii: "}"):
                    index += 1
                    if checkingOnly { return .null }
                    defer { members.removeSubrange(first...) }
                    var object = [String: JSONValue](minimumCapacity: members.count - first)
                    for (key, member) in members[first...] {
                        // A key written twice: the slow path names it, unless the last is to win.
                        guard object.updateValue(member, forKey: key) == nil || lastKeyWins else { return nil }
                    }
                    return .object(object)
                default: return nil
                }
            }
        }

        /// After a comma: whether `closing` follows, which only ``allowsTrailingCommas`` takes.
        private mutating func closesAfterComma(_ closing: UInt8) -> Bool {
            guard allowsTrailingCommas else { return false }
            skipSpace()
            return index < bytes.count && bytes[index] == closing
        }

        private mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth) else { return nil }
                if !checkingOnly { elements.append(element) }
                skipSpace()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: ","):
                    index += 1
                    guard closesAfterComma(UInt8(ascii: "]")) else { continue }
                    fallthrough
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        /// A string from its opening quote; escapes decoded, UTF-8 checked.
        private mutating func string() -> String? {
            index += 1
            let start = index
            // Whether a byte of the string is past ASCII: only then is its UTF-8 checked.
            var high: UInt8 = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    return high < 0x80 ? String(decoding: text, as: UTF8.self) : Self.text(text)
                }
                high |= byte
                if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
                if byte < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        /// The rest of a string that holds escapes, from `start` (just after its opening quote).
        private mutating func escapedString(from start: Int) -> String? {
            var decoded: [UInt8] = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return decoded.withUnsafeBufferPointer(Self.text)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(scalar) {
                            // A high surrogate must be followed by an escaped low one.
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                            index += 2
                            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        decoded.append(contentsOf: String(Character(unicode)).utf8)
                    default: return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    decoded.append(byte)
                    index += 1
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// Text from UTF-8 bytes, or `nil` when they are not valid UTF-8 (decoding would have replaced some).
        private static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
            let text = String(decoding: utf8, as: UTF8.self)
            return text.utf8.elementsEqual(utf8) ? text : nil
        }

        private mutating func number() -> JSONValue? {
            let start = index
            var isWhole = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                isWhole = false
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                isWhole = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            return JSONValue.number(text, isWhole: isWhole)
        }

        /// Skips decimal digits; how many there were.
        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
    }
}

extension JSONValue {
    /// The value of a JSON number's text: `.int` for an integer within 64 bits, `.double` for a number a double holds
    /// to every digit written (any normal one with 15 significant digits or fewer), `.decimal` for the rest (an integer
    /// past 64 bits, more digits than a double keeps, a number too small for a double's full precision); `nil` past
    /// the largest double.
    package static func number(_ text: String, isWhole: Bool) -> JSONValue? {
        if isWhole, let whole = Int(text) { return .int(whole) }
        guard let double = Double(text), double.isFinite else { return nil }
        if isWhole { return .decimal(text) }
        // Up to 15 significant digits always read back from the nearest double; past that, compare.
        var significant = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), significant > 0 || byte != UInt8(ascii: "0") { significant += 1 }
        }
        // A normal double keeps 15 digits; one that underflowed (`1e-400`) or lost precision (subnormal) does not.
        if significant <= 15, double.isNormal || (double == 0 && significant == 0) { return .double(double) }
        return JSONDecimal(text) == JSONDecimal(double) ? .double(double) : .decimal(text)
    }
}
