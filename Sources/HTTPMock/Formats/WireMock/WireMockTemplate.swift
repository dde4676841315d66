import Foundation

extension BodyTemplate {
    /// The helpers and request values a WireMock template may use, for messages.
    static let wireMockSupported = "request.url, request.path, request.path.[n], request.path.NAME (urlPathTemplate), request.query.NAME, request.headers.NAME, request.cookies.NAME, request.method, request.host, request.body, jsonPath request.body '$.…', randomValue length=… type='…', now (format='…')"

    /// Reads a WireMock (Handlebars) template: `{{request.path.[0]}}` and the other expressions of
    /// ``wireMockSupported``. `{{…}}` escapes the value for HTML, as Handlebars does; `{{{…}}}` does not.
    /// `pathNames` maps the variables of a `urlPathTemplate` to their segment positions.
    init(wireMock text: String, pathNames: [String: Int], place: String) throws(HTTPMockError) {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
            let triple = rest[open.upperBound...].hasPrefix("{")
            let start = triple ? rest.index(after: open.upperBound) : open.upperBound
            guard let close = rest[start...].range(of: triple ? "}}}" : "}}") else {
                throw HTTPMockError(.invalidDefinition, "\(place): a \"\(triple ? "{{{" : "{{")\" is never closed with \"\(triple ? "}}}" : "}}")\"")
            }
            let expression = rest[start..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let part = try Self.wireMockPart(expression, pathNames: pathNames, place: place)
            parts.append(triple ? part : .htmlEscaped(part))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        self.init(parts: parts, escapesForJSON: false)
    }

    private static func wireMockPart(_ expression: String, pathNames: [String: Int], place: String) throws(HTTPMockError) -> Part {
        func fail(_ detail: String = "") -> HTTPMockError {
            HTTPMockError(.invalidDefinition, "\(place): {{\(expression)}} is not a template expression this library reads\(detail); use \(wireMockSupported)")
        }
        let words = try arguments(expression, fail: fail)
        guard let head = words.first else { throw fail() }
        var options: [String: String] = [:]
        for word in words.dropFirst() where word.contains("=") {
            let pair = word.split(separator: "=", maxSplits: 1).map(String.init)
            options[pair[0]] = pair.count == 2 ? unquoted(pair[1]) : ""
        }
        switch head {
        case "jsonPath":
            guard words.count == 3, words[1] == "request.body" else { throw fail(" (write jsonPath request.body '$.field')") }
            do { return .jsonPath(try JSONPath(unquoted(words[2]))) } catch { throw fail(" (\(error.message))") }
        case "randomValue":
            guard Set(options.keys).isSubset(of: ["length", "type", "uppercase"]), words.count == options.count + 1 else { throw fail() }
            let type = options["type"] ?? "ALPHANUMERIC"
            if type == "UUID" { return .random(length: 36, alphabet: []) }
            guard let length = options["length"].flatMap({ Int($0) }), (1...10_000).contains(length) else {
                throw fail(" (randomValue needs length=N, from 1 to 10000)")
            }
            let letters = "abcdefghijklmnopqrstuvwxyz", digits = "0123456789"
            let alphabets = ["ALPHANUMERIC": letters + letters.uppercased() + digits, "ALPHABETIC": letters + letters.uppercased(),
                             "NUMERIC": digits, "HEXADECIMAL": digits + "abcdef",
                             "ALPHANUMERIC_AND_SYMBOLS": letters + letters.uppercased() + digits + "!#$%&()*+,-./:;<=>?@[]^_{|}~"]
            guard var alphabet = alphabets[type] else { throw fail(" (type is one of \(alphabets.keys.sorted().joined(separator: ", ")), UUID)") }
            if options["uppercase"] == "true" { alphabet = String(Set(alphabet.uppercased())).sorted().map(String.init).joined() }
            return .random(length: length, alphabet: Array(alphabet))
        case "now":
            guard Set(options.keys).isSubset(of: ["format"]), words.count == options.count + 1 else {
                throw fail(" (now takes format='…' only here; offset and timezone are not supported)")
            }
            return .now(format: options["format"])
        default:
            guard words.count == 1 else { throw fail() }
            return try requestPart(head, pathNames: pathNames, fail: fail)
        }
    }

    private static func requestPart(_ name: String, pathNames: [String: Int], fail: (String) -> HTTPMockError) throws(HTTPMockError) -> Part {
        switch name {
        case "request.url": return .relativeURL
        case "request.path": return .path
        case "request.method": return .method
        case "request.host": return .host
        case "request.body": return .body
        default: break
        }
        let pieces = name.split(separator: ".", maxSplits: 2).map(String.init)
        guard pieces.count == 3, pieces[0] == "request" else { throw fail("") }
        var key = pieces[2]
        if key.hasPrefix("["), key.hasSuffix("]") { key = String(key.dropFirst().dropLast()) }
        switch pieces[1] {
        case "path", "pathSegments":
            if let index = Int(key), index >= 0 { return .pathSegment(index) }
            if let index = pathNames[key] { return .pathSegment(index) }
            throw fail(" (\"\(key)\" is not a position or a variable of the urlPathTemplate)")
        case "query": return .query(key)
        case "headers": return .header(key)
        case "cookies": return .cookie(key)
        default: throw fail("")
        }
    }

    /// The words of an expression; a quoted argument keeps its spaces.
    private static func arguments(_ expression: String, fail: (String) -> HTTPMockError) throws(HTTPMockError) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        for character in expression {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
                current.append(character)
            } else if character == " " {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(character)
            }
        }
        if quote != nil { throw fail(" (a quote is not closed)") }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first else { return text }
        return String(text.dropFirst().dropLast())
    }
}

/// Dates for `{{now}}`.
enum TemplateClock {
    static func text(_ date: Date, format: String?) -> String {
        switch format {
        case nil:
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: date)
        case "epoch": return String(Int64(date.timeIntervalSince1970 * 1000))
        case "unix": return String(Int64(date.timeIntervalSince1970))
        case let pattern?:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = pattern
            return formatter.string(from: date)
        }
    }
}
