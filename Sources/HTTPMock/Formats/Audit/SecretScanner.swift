import Foundation

/// Walks one file's contents (JSON by its structure, other text line by line) and notes each secret with where it is.
struct SecretScanner {
    struct Found {
        let location: String
        let kind: SecretKind
        let secret: String
        let context: SecretContext
        let line: Int?
    }

    let file: URL
    let placeholder: String
    private(set) var found: [Found] = []
    /// Bodies inside bodies are read this deep, no deeper (a JSON string holding JSON holding JSON…).
    private let deepestBody = 4

    init(file: URL, placeholder: String) {
        self.file = file
        self.placeholder = placeholder
    }

    /// Scans `data`, found at `location` (`""`: the file itself); `context` is `.encoded` inside a base64 body.
    mutating func scan(_ data: Data, at location: String, context: SecretContext?, depth: Int = 0) {
        if let first = data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }),
           first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
           let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            walk(json, path: location, key: nil, context: context, depth: depth)
            return
        }
        guard let text = String(data: data, encoding: .utf8) else { return }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let place = location.isEmpty ? "line \(index + 1)" : "\(location) line \(index + 1)"
            inspect(String(line), at: place, key: nil, context: context, line: location.isEmpty ? index + 1 : nil, depth: depth)
        }
    }

    private mutating func note(_ kind: SecretKind, _ secret: String, at location: String, _ context: SecretContext,
                               inside: SecretContext?, line: Int? = nil) {
        found.append(Found(location: location.isEmpty ? "(file)" : location, kind: kind, secret: secret,
                           context: inside ?? context, line: line))
    }

    private func isPlaceholder(_ value: String) -> Bool { SecretPatterns.isPlaceholder(value, placeholder: placeholder) }

    // MARK: JSON

    private mutating func walk(_ value: Any, path: String, key: String?, context: SecretContext?, depth: Int) {
        if let object = value as? [String: Any] {
            walk(object: object, path: path, key: key, context: context, depth: depth)
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                // HAR lists headers, cookies, query and form parameters as {name, value} objects.
                if let pair = element as? [String: Any], let name = pair["name"] as? String, let text = pair["value"] as? String {
                    let place = "\(path)[\(index)]"
                    switch key?.lowercased() {
                    case "headers": if header(name, text, at: place, context: context) { continue }
                    case "cookies": if cookie(text, at: place, context: context) { continue }
                    case "querystring", "params":
                        if SecretPatterns.secretNames.contains(name.lowercased()), text.count >= 4, !isPlaceholder(text) {
                            note(.secretParameter, text, at: place + " (\(name))", .field("value"), inside: context)
                            continue
                        }
                    default: break
                    }
                }
                walk(element, path: "\(path)[\(index)]", key: key, context: context, depth: depth)
            }
        } else if let text = value as? String {
            inspect(text, at: path, key: key, context: context, line: nil, depth: depth)
        }
    }

    private mutating func walk(object: [String: Any], path: String, key: String?, context: SecretContext?, depth: Int) {
        let prefix = path.isEmpty ? "" : path + "."
        for name in object.keys.sorted() {
            let child = object[name]!
            let place = prefix + name
            let lowered = name.lowercased()
            // WireMock, mapping files and Mockingbird bundles write headers as an object: name → value or pattern.
            if lowered == "headers", let headers = child as? [String: Any] {
                for headerName in headers.keys.sorted() {
                    let headerPlace = place + "." + headerName
                    let values: [String] = switch headers[headerName] {
                    case let text as String: [text]
                    case let texts as [Any]: texts.compactMap { $0 as? String }
                    case let pattern as [String: Any]: [pattern["equalTo"] as? String].compactMap { $0 }
                    default: []
                    }
                    var reported = false
                    for text in values where header(headerName, text, at: headerPlace, context: context) { reported = true }
                    if !reported { walk(headers[headerName]!, path: headerPlace, key: headerName, context: context, depth: depth) }
                }
                continue
            }
            // A HAR body in base64, WireMock's base64Body: read what it decodes to.
            if let text = child as? String, lowered == "base64body" || (lowered == "text" && (object["encoding"] as? String) == "base64") {
                if depth < deepestBody, let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) {
                    scan(decoded, at: place + " (base64)", context: .encoded, depth: depth + 1)
                }
                continue
            }
            // A secret's name with a literal value: "password": "…", or a matcher of one: "token": {"equalTo": "…"}.
            if SecretPatterns.secretNames.contains(lowered) {
                if let text = child as? String, text.count >= 4, !isPlaceholder(text), !text.contains(" ") {
                    note(.secretField, text, at: place, .field(name), inside: context)
                    continue
                }
                if let pattern = child as? [String: Any], let text = pattern["equalTo"] as? String, text.count >= 4, !isPlaceholder(text) {
                    note(.secretParameter, text, at: place + ".equalTo", .field("equalTo"), inside: context)
                    continue
                }
            }
            walk(child, path: place, key: name, context: context, depth: depth)
        }
    }

    /// Notes a header whose value is a credential; `true` when it did (so the value is not reported twice).
    private mutating func header(_ name: String, _ value: String, at location: String, context: SecretContext?) -> Bool {
        let lowered = name.lowercased()
        if SecretPatterns.authorizationHeaders.contains(lowered) {
            let credential = SecretPatterns.credential(ofAuthorization: value)
            guard !isPlaceholder(credential), !isPlaceholder(value), credential.count >= 4 else { return true }
            note(.authorizationHeader, value, at: location + " (\(name))", .standalone, inside: context)
            return true
        }
        if SecretPatterns.cookieHeaders.contains(lowered) {
            return cookie(value, at: location + " (\(name))", context: context)
        }
        if SecretPatterns.keyHeaders.contains(lowered) {
            guard !isPlaceholder(value), value.count >= 4 else { return true }
            note(.apiKeyHeader, value, at: location + " (\(name))", .standalone, inside: context)
            return true
        }
        return false
    }

    private mutating func cookie(_ value: String, at location: String, context: SecretContext?) -> Bool {
        // `session=abc123; Path=/; HttpOnly`: the value before the first `;`, after the name.
        let pair = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        let secret = pair.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) ?? pair
        guard !isPlaceholder(secret), !isPlaceholder(value), secret.count >= 4 else { return true }
        note(.cookie, secret, at: location, .standalone, inside: context)
        return true
    }

    // MARK: Any text

    private mutating func inspect(_ text: String, at location: String, key: String?, context: SecretContext?, line: Int?, depth: Int) {
        // A JSON body written as a string (a HAR's content.text, WireMock's body): read it as JSON.
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        if depth < deepestBody, trimmed.first == "{" || trimmed.first == "[", text.count > 1 {
            let before = found.count
            scan(Data(text.utf8), at: location + " (body)", context: context, depth: depth + 1)
            if found.count > before || (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil { return }
        }
        for pattern in SecretPatterns.all where text.contains(pattern.hint) {
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.expression.matches(in: text, range: range) {
                guard let found = Range(match.range(at: pattern.group), in: text) else { continue }
                let secret = String(text[found])
                if isPlaceholder(secret) { continue }
                note(pattern.kind, secret, at: location, .standalone, inside: context, line: line)
            }
        }
        parameters(in: text, at: location, context: context, line: line)
    }

    /// `password=…` in a URL's query or a form body.
    private mutating func parameters(in text: String, at location: String, context: SecretContext?, line: Int?) {
        guard text.contains("=") else { return }
        let query = text.firstIndex(of: "?").map { String(text[text.index(after: $0)...]) } ?? text
        for part in query.split(whereSeparator: { $0 == "&" || $0 == " " || $0 == "\"" || $0 == "#" }) {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let rawName = String(part[..<equals])
            let name = (rawName.removingPercentEncoding ?? rawName).lowercased()
            let value = String(part[part.index(after: equals)...])
            guard SecretPatterns.secretNames.contains(name), value.count >= 4, !isPlaceholder(value),
                  !isPlaceholder(value.removingPercentEncoding ?? value) else { continue }
            note(.secretParameter, value, at: location + " (\(rawName))", .parameter(rawName), inside: context, line: line)
        }
    }
}
