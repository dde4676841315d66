import Foundation

extension JSONValue {
    /// Appends the value as compact JSON with sorted keys, as `JSONEncoder` writes it with `.sortedKeys` and
    /// `.withoutEscapingSlashes` (the same text, written without `Codable`'s cost: a folder of 10,000 `jsonBody`
    /// mappings writes each once when it loads).
    func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .int(let whole): bytes += String(whole).utf8
        case .double(let number): bytes += Self.text(of: number).utf8
        case .string(let text): Self.write(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[key]!.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A number as `JSONEncoder` writes it: a whole one below 2⁵³ without a fraction (`100`), others as Swift
    /// prints them without a trailing `.0` (`12.5`, `1e+20`).
    package static func text(of number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e16 { return number == 0 && number.sign == .minus ? "-0" : String(Int64(number)) }
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `text` as a JSON string, in quotes: the one way the package writes one (bodies, templates).
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        write(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string in quotes: `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`.
    private static func write(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case 0x0A: bytes += #"\n"#.utf8
            case 0x0D: bytes += #"\r"#.utf8
            case 0x09: bytes += #"\t"#.utf8
            case 0x08: bytes += #"\b"#.utf8
            case 0x0C: bytes += #"\f"#.utf8
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += #"\u00"#.utf8
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
