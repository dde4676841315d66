/// Splits an RFC 6570 template into literals and expressions, refusing what cannot be matched.
enum URITemplateParser {
    struct Variable: Sendable {
        var name: String
        /// `*`: the value is a list or map spread over several items.
        var explode: Bool
        /// `:n`: at most the first `n` characters of the value.
        var prefix: Int?
    }

    enum Part {
        case literal(String)
        /// `op` is `nil` for a simple `{var}`, else one of `+ / . ; ? &`.
        case expression(op: Character?, variables: [Variable])

        var isQueryExpression: Bool {
            if case .expression(let op, _) = self { return op == "?" || op == "&" }
            return false
        }
    }

    static func parse(_ text: String, fail: (String) -> HTTPMockError) throws(HTTPMockError) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "}" { throw fail("a \"}\" has no \"{\" before it") }
            guard character == "{" else {
                literal.append(character)
                index = text.index(after: index)
                continue
            }
            guard let close = text[index...].firstIndex(of: "}") else {
                throw fail("the \"{\" at offset \(text.distance(from: text.startIndex, to: index)) is never closed with \"}\"")
            }
            let body = text[text.index(after: index)..<close]
            if body.contains("{") { throw fail("expressions cannot nest: \"{\(body)}\"") }
            if !literal.isEmpty { parts.append(.literal(literal)); literal = "" }
            parts.append(try expression(body, fail: fail))
            index = text.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    private static func expression(_ body: Substring, fail: (String) -> HTTPMockError) throws(HTTPMockError) -> Part {
        var list = body
        var op: Character?
        if let first = list.first, "+#./;?&=,!@|".contains(first) {
            switch first {
            case "#": throw fail("{#…} expands a fragment, which never reaches the server; remove it")
            case "=", ",", "!", "@", "|": throw fail("\"\(first)\" in \"{\(body)}\" is an operator RFC 6570 reserves; use one of + / . ; ? &")
            default: op = first
            }
            list = list.dropFirst()
        }
        if list.isEmpty { throw fail("\"{\(body)}\" names no variable") }
        var variables: [Variable] = []
        for spec in list.split(separator: ",", omittingEmptySubsequences: false) {
            var name = spec
            var explode = false
            var prefix: Int?
            if name.hasSuffix("*") {
                explode = true
                name = name.dropLast()
            } else if let colon = name.firstIndex(of: ":") {
                let digits = name[name.index(after: colon)...]
                guard let length = Int(digits), (1..<10_000).contains(length) else {
                    throw fail("\"\(spec)\" has a prefix length \"\(digits)\"; use a number from 1 to 9999")
                }
                prefix = length
                name = name[..<colon]
            }
            guard !name.isEmpty else { throw fail("\"{\(body)}\" has an empty variable name") }
            if let bad = name.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber)) && $0 != "_" && $0 != "." && $0 != "%" }) {
                throw fail("the variable name \"\(name)\" contains \(String(bad).debugDescription); use letters, digits, \"_\" and \".\"")
            }
            variables.append(Variable(name: String(name), explode: explode, prefix: prefix))
        }
        return .expression(op: op, variables: variables)
    }
}
