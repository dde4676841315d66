#if OpenAPI
import Foundation
import _HTTPMockJSON

/// A form body read as the object its schema checks: `application/x-www-form-urlencoded` (`name=Tom&tags=a&tags=b`)
/// and `multipart/form-data` (one part per property, named by its `Content-Disposition`). Each value is converted
/// to its property's type (`"7"` as 7 for an integer); a property whose schema is an array takes every value of its
/// name; a part sent as JSON is read as JSON.
enum FormBody {
    static func isURLEncoded(_ contentType: String) -> Bool { bare(contentType) == "application/x-www-form-urlencoded" }
    static func isMultipart(_ contentType: String) -> Bool { bare(contentType) == "multipart/form-data" }

    static func urlEncoded(_ bytes: Data, _ shape: Shape) -> Result<JSONValue, ReadingProblem> {
        guard let text = String(data: bytes, encoding: .utf8) else {
            return .failure(ReadingProblem(message: "the form body is not UTF-8 text"))
        }
        var fields: [(String, JSONValue)] = []
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            }
            guard let name = decoded(parts[0]), let value = parts.count > 1 ? decoded(parts[1]) : "" else {
                return .failure(ReadingProblem(message: "\"\(pair)\" is not percent-encoded as a form field (name=value)"))
            }
            fields.append((name, .string(value)))
        }
        return .success(object(fields, shape))
    }

    static func multipart(_ bytes: Data, contentType: String, _ shape: Shape) -> Result<JSONValue, ReadingProblem> {
        guard let boundary = parameter("boundary", of: contentType), !boundary.isEmpty else {
            return .failure(ReadingProblem(message: "the multipart/form-data body has no boundary in its Content-Type; send multipart/form-data; boundary=…"))
        }
        let delimiter = Data("--\(boundary)".utf8)
        var fields: [(String, JSONValue)] = []
        var ranges: [Range<Data.Index>] = []
        var search = bytes.startIndex..<bytes.endIndex
        while let found = bytes.range(of: delimiter, in: search) {
            ranges.append(found)
            search = found.upperBound..<bytes.endIndex
        }
        guard ranges.count >= 2 else {
            return .failure(ReadingProblem(message: "the multipart/form-data body has no part delimited by its boundary \"\(boundary)\""))
        }
        let separator = Data("\r\n\r\n".utf8)
        for (start, end) in zip(ranges, ranges.dropFirst()) {
            var part = bytes[start.upperBound..<end.lowerBound]
            if part.starts(with: Data("\r\n".utf8)) { part = part.dropFirst(2) }
            if part.suffix(2).elementsEqual(Data("\r\n".utf8)) { part = part.dropLast(2) }
            guard let split = part.range(of: separator) else {
                return .failure(ReadingProblem(message: "a part of the multipart/form-data body has no blank line after its headers"))
            }
            let head = String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self)
            let content = part[split.upperBound...]
            var name: String?
            var partType = ""
            for line in head.components(separatedBy: "\r\n") {
                let pieces = line.split(separator: ":", maxSplits: 1)
                guard pieces.count == 2 else { continue }
                let field = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
                let value = pieces[1].trimmingCharacters(in: .whitespaces)
                if field == "content-disposition" { name = parameter("name", of: value) }
                if field == "content-type" { partType = value }
            }
            guard let name else {
                return .failure(ReadingProblem(message: "a part of the multipart/form-data body has no Content-Disposition with a name"))
            }
            if MediaContract.isJSON(partType), let json = JSONValue.parse(Data(content)) {
                fields.append((name, json))
            } else {
                fields.append((name, .string(String(decoding: content, as: UTF8.self))))
            }
        }
        return .success(object(fields, shape))
    }

    /// The fields as an object: values converted to their property's type, every value of an array property.
    private static func object(_ fields: [(String, JSONValue)], _ shape: Shape) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (name, value) in fields {
            guard case .string(let text) = value else {
                if members[name] == nil { members[name] = value }
                continue
            }
            if shape.arrayProperties.contains(name) {
                let item = Shape.convert(text, to: shape.propertyItemTypes[name] ?? nil)
                if case .array(let items)? = members[name] { members[name] = .array(items + [item]) } else { members[name] = .array([item]) }
            } else if members[name] == nil {
                members[name] = shape.property(name, text)
            }
        }
        return .object(members)
    }

    private static func bare(_ contentType: String) -> String {
        contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// `boundary` of `multipart/form-data; boundary="abc"`: unquoted.
    private static func parameter(_ name: String, of header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}
#endif
