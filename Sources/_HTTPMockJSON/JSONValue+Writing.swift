import Foundation

extension JSONValue {
    /// Appends the value as compact JSON with sorted keys, as `JSONEncoder` writes it with `.sortedKeys` and
    /// `.withoutEscapingSlashes` (the same text, written without `Codable`'s cost: a folder of 10,000 `jsonBody`
    /// mappings writes each once when it loads).
    /// `keepingKinds`: a double written with a point or an exponent even when whole (`100.0`), so that the text reads
    /// back as the same kinds of numbers (WireMock's `equalToJson` tells `100` from `100.0`).
    func write(to bytes: inout [UInt8], keepingKinds: Bool = false) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .int(let whole): bytes += String(whole).utf8
        case .double(let number) where keepingKinds && number.isFinite: bytes += number.description.utf8
        case .double(let number): bytes += Self.text(of: number).utf8
        case .decimal(let text): bytes += text.utf8
        case .string(let text): Self.write(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes, keepingKinds: keepingKinds)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[key]!.write(to: &bytes, keepingKinds: keepingKinds)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the value as indented JSON with sorted keys (two spaces a level, `"key" : value`, as `JSONEncoder`
    /// indents), numbers as ``dataKeepingKinds`` writes them: every digit of a decimal, a double as a double.
    func writePretty(to bytes: inout [UInt8], indent: Int) {
        switch self {
        case .array(let elements) where !elements.isEmpty:
            bytes += "[\n".utf8
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes += ",\n".utf8 }
                bytes += repeatElement(UInt8(ascii: " "), count: indent + 2)
                element.writePretty(to: &bytes, indent: indent + 2)
            }
            bytes.append(UInt8(ascii: "\n"))
            bytes += repeatElement(UInt8(ascii: " "), count: indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            bytes += "{\n".utf8
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes += ",\n".utf8 }
                bytes += repeatElement(UInt8(ascii: " "), count: indent + 2)
                Self.write(key, to: &bytes)
                bytes += " : ".utf8
                members[key]!.writePretty(to: &bytes, indent: indent + 2)
            }
            bytes.append(UInt8(ascii: "\n"))
            bytes += repeatElement(UInt8(ascii: " "), count: indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            write(to: &bytes, keepingKinds: true)
        }
    }

    /// The value as compact JSON with sorted keys whose doubles are written as doubles (`100.0`, not `100`).
    package var dataKeepingKinds: Data {
        var bytes: [UInt8] = []
        write(to: &bytes, keepingKinds: true)
        return Data(bytes)
    }

    /// A number as `JSONEncoder` writes it: a whole one below 2⁵³ without a fraction (`100`), others as Swift
    /// prints them without a trailing `.0` (`12.5`, `1e+20`).
    package static func text(of number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e16 { return number == 0 && number.sign == .minus ? "-0" : String(Int64(number)) }
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Compact JSON `data` with every number written with a fraction or an exponent rewritten in full without
    /// trailing zeros (`1.0` → `1`, `1e2` → `100`, `1.5E-7` → `0.00000015`) and `-0` as `0`: as WireMock writes the
    /// numbers of a `jsonBody` it read (as `BigDecimal`s stripped of their zeros). Integers, strings and the rest stay
    /// byte for byte; a number past 400 digits in full stays as written.
    package static func plainNumbers(in data: Data) -> Data {
        // Most bodies have nothing to rewrite: looked for first.
        var candidate = false
        var inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "-") {
                candidate = true
                break
            }
        }
        guard candidate else { return data }
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        inString = false
        escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                out.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                if byte == UInt8(ascii: "\"") { inString = true }
                out.append(byte)
                index += 1
                continue
            }
            let start = index
            var written = false
            while index < bytes.count, Self.isNumberByte(bytes[index]) {
                if bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") { written = true }
                index += 1
            }
            let token = bytes[start..<index]
            if written || token.elementsEqual("-0".utf8),
               let plain = JSONDecimal(String(decoding: token, as: UTF8.self))?.plainText() {
                out += plain.utf8
            } else {
                out += token
            }
        }
        return Data(out)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"): true
        default: false
        }
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
