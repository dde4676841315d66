import Foundation

/// Finds where JSON text is malformed. `JSONDecoder` on Linux reports no position for a syntax error, so the text is
/// parsed again with `JSONSerialization`, whose message carries a byte offset (or, on Apple platforms, a line and
/// column), and the offset is turned into a line and column.
enum JSONSyntax {
    /// `("line 3, column 14", "Invalid value around character 40.")`, or the end of the text when no position is known.
    static func locate(in data: Data) -> (location: String, detail: String) {
        var detail = "not valid JSON"
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        if let (line, column) = lineAndColumn(in: detail) { return ("line \(line), column \(column)", detail) }
        let offset = characterOffset(in: detail) ?? data.count
        let (line, column) = position(ofByte: offset, in: data)
        return ("line \(line), column \(column)", detail)
    }

    /// Whether `data` is well-formed JSON.
    static func isValid(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    }

    /// Line and column (from 1) of the byte at `offset`.
    static func position(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in data.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    private static func characterOffset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    private static func lineAndColumn(in message: String) -> (Int, Int)? {
        guard let line = message.range(of: "line "), let column = message.range(of: "column ") else { return nil }
        guard let l = Int(message[line.upperBound...].prefix { $0.isNumber }),
              let c = Int(message[column.upperBound...].prefix { $0.isNumber }) else { return nil }
        return (l, c)
    }
}
