import Foundation

/// The parts of a `multipart/*` request body (RFC 2046): each with its headers and its bytes.
///
/// Read leniently, as servers do: lines may end in CRLF or LF, a preamble before the first delimiter and an epilogue
/// after the last are skipped, and a body cut short ends with the parts read so far. Bounded by the body's size and
/// at most ``partLimit`` parts.
struct MultipartBody {
    struct Part {
        let headers: HeaderFields
        let body: Data
    }

    static let partLimit = 1_000

    /// The parts of `request`'s body, or `nil` when it is not multipart (its `Content-Type` is not `multipart/…`
    /// with a boundary).
    static func parts(of request: CapturedRequest) -> [Part]? {
        guard let type = request.headers["Content-Type"], let boundary = boundary(in: type) else { return nil }
        return parts(of: request.body ?? Data(), boundary: boundary)
    }

    /// The `boundary` parameter of a `multipart/…` content type, unquoted.
    static func boundary(in contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let kind = pieces.first, kind.lowercased().hasPrefix("multipart/") else { return nil }
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "="), piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty || value.count > 70 ? nil : value
        }
        return nil
    }

    static func parts(of body: Data, boundary: String) -> [Part] {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [Part] = []
        // The first delimiter starts the body or a line.
        guard var start = find(delimiter, in: bytes, from: 0) else { return [] }
        while parts.count < partLimit {
            var cursor = start + delimiter.count
            // `--boundary--` closes the body.
            if cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "-"), bytes[cursor + 1] == UInt8(ascii: "-") { break }
            // The rest of the delimiter's line (transport padding) and its line break.
            guard let lineEnd = bytes[cursor...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            cursor = lineEnd + 1
            guard let next = find(delimiter, in: bytes, from: cursor) else { break }
            // The line break before the next delimiter belongs to it.
            var end = next
            if end > cursor, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            if end > cursor, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            parts.append(part(bytes[cursor..<max(end, cursor)]))
            start = next
        }
        return parts
    }

    /// One part: header lines up to an empty line, then the body.
    private static func part(_ bytes: ArraySlice<UInt8>) -> Part {
        var headers = HeaderFields()
        var cursor = bytes.startIndex
        while cursor < bytes.endIndex {
            let lineEnd = bytes[cursor...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[cursor..<lineEnd]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            cursor = min(lineEnd + 1, bytes.endIndex)
            if line.isEmpty { return Part(headers: headers, body: Data(bytes[cursor...])) }
            let text = String(decoding: line, as: UTF8.self)
            if let colon = text.firstIndex(of: ":") {
                headers.add(String(text[..<colon]).trimmingCharacters(in: .whitespaces),
                            String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
            }
        }
        // No empty line: a part with headers only.
        return Part(headers: headers, body: Data())
    }

    /// Where `needle` next occurs at the start of a line (the body's start, or after `\n`), from `offset` on.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from offset: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = offset
        while index <= bytes.count - needle.count {
            guard let hit = bytes[index...(bytes.count - needle.count)].firstIndex(of: first) else { return nil }
            if (hit == 0 || bytes[hit - 1] == UInt8(ascii: "\n")), bytes[hit..<(hit + needle.count)].elementsEqual(needle) {
                return hit
            }
            index = hit + 1
        }
        return nil
    }
}
