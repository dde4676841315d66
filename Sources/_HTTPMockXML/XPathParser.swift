
/// An XPath 1.0 expression as parsed, each part's type known (XPath 1.0 has no variables here, so all types are).
indirect enum XPathSyntax: Sendable {
    case number(Double)
    case literal(String)
    case or(XPathSyntax, XPathSyntax)
    case and(XPathSyntax, XPathSyntax)
    case compare(XPathComparison, XPathSyntax, XPathSyntax)
    case arithmetic(XPathArithmetic, XPathSyntax, XPathSyntax)
    case negate(XPathSyntax)
    case union(XPathSyntax, XPathSyntax)
    case function(XPathFunction, [XPathSyntax])
    /// A location path: from the root node when absolute, else from the context node.
    case path(absolute: Bool, steps: [XPathStep])
    /// `(…)[predicate]/steps`: a node-set filtered, then walked on.
    case filter(XPathSyntax, predicates: [XPathSyntax], steps: [XPathStep])

    var type: XPathType {
        switch self {
        case .number, .arithmetic, .negate: .number
        case .literal: .string
        case .or, .and, .compare: .boolean
        case .union, .path, .filter: .nodeSet
        case .function(let function, _): function.signature.result
        }
    }
}

package enum XPathType: String, Sendable {
    case nodeSet = "a node-set"
    case string = "a string"
    case number = "a number"
    case boolean = "a boolean"
}

package enum XPathComparison: String, Sendable {
    case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

package enum XPathArithmetic: String, Sendable {
    case plus = "+", minus = "-", times = "*", divide = "div", modulo = "mod"
}

/// One step of a location path: `axis::test[predicate]…`.
package struct XPathStep: Sendable {
    var axis: XPathAxis
    var test: XPathNodeTest
    var predicates: [XPathSyntax]
}

package enum XPathAxis: String, Sendable, CaseIterable {
    case child, descendant, parent, ancestor, attribute
    case followingSibling = "following-sibling", precedingSibling = "preceding-sibling"
    case following, preceding
    case `self`
    case descendantOrSelf = "descendant-or-self", ancestorOrSelf = "ancestor-or-self"

    /// Whether positions in predicates count backwards from the context node.
    var isReverse: Bool { [.ancestor, .ancestorOrSelf, .preceding, .precedingSibling].contains(self) }
}

package enum XPathNodeTest: Sendable {
    /// `*`: any element (any attribute on the attribute axis).
    case anyName
    /// `prefix:*`: any name in that namespace.
    case namespaceWildcard(String)
    /// An unprefixed name: that local name in any namespace (as WireMock selects in namespaced documents).
    case localName(String)
    /// `prefix:name`: the local name in the namespace the prefix is declared for.
    case qualifiedName(namespace: String, local: String)
    case text
    case node
}

/// The functions of XPath 1.0's core library this engine evaluates, with what they take and give.
package enum XPathFunction: String, Sendable, CaseIterable {
    case last, position, count
    case localName = "local-name", namespaceURI = "namespace-uri", name
    case string, concat, startsWith = "starts-with", contains
    case substringBefore = "substring-before", substringAfter = "substring-after", substring
    case stringLength = "string-length", normalizeSpace = "normalize-space", translate
    case boolean, not, `true`, `false`, lang
    case number, sum, floor, ceiling, round

    struct Signature {
        /// The argument types; a `nil` type takes anything.
        var arguments: [XPathType?]
        var required: Int
        /// Whether the last argument may repeat (`concat`).
        var variadic = false
        var result: XPathType
    }

    var signature: Signature {
        switch self {
        case .last, .position: Signature(arguments: [], required: 0, result: .number)
        case .count, .sum: Signature(arguments: [.nodeSet], required: 1, result: .number)
        case .localName, .namespaceURI, .name: Signature(arguments: [.nodeSet], required: 0, result: .string)
        case .string: Signature(arguments: [nil], required: 0, result: .string)
        case .concat: Signature(arguments: [.string, .string], required: 2, variadic: true, result: .string)
        case .startsWith, .contains: Signature(arguments: [.string, .string], required: 2, result: .boolean)
        case .substringBefore, .substringAfter: Signature(arguments: [.string, .string], required: 2, result: .string)
        case .substring: Signature(arguments: [.string, .number, .number], required: 2, result: .string)
        case .stringLength: Signature(arguments: [.string], required: 0, result: .number)
        case .normalizeSpace: Signature(arguments: [.string], required: 0, result: .string)
        case .translate: Signature(arguments: [.string, .string, .string], required: 3, result: .string)
        case .boolean, .not: Signature(arguments: [nil], required: 1, result: .boolean)
        case .true, .false: Signature(arguments: [], required: 0, result: .boolean)
        case .lang: Signature(arguments: [.string], required: 1, result: .boolean)
        case .number: Signature(arguments: [nil], required: 0, result: .number)
        case .floor, .ceiling, .round: Signature(arguments: [.number], required: 1, result: .number)
        }
    }
}

/// Reads XPath 1.0 text into ``XPathSyntax``, refusing what this engine does not evaluate by name and position.
package struct XPathParser {
    /// Parentheses, predicates and function calls nested deeper than this are refused (each costs stack).
    static let maximumNesting = 64

    private let source: String
    private let namespaces: [String: String]
    private var tokens: [Token] = []
    private var index = 0
    private var nesting = 0

    init(_ source: String, namespaces: [String: String]) {
        self.source = source
        self.namespaces = namespaces
    }

    /// The whole expression, or why it cannot be evaluated.
    mutating func parse() throws(XMLPatternError) -> XPathSyntax {
        var lexer = Lexer(characters: Array(source), parser: self)
        tokens = try lexer.tokens()
        guard tokens.count > 1 else { throw failure("the expression is empty; write a path such as //name", at: 1) }
        let syntax = try expression()
        guard case .end = current.kind else { throw unexpected() }
        return syntax
    }

    // MARK: Errors

    fileprivate func failure(_ message: String, at position: Int) -> XMLPatternError {
        XMLPatternError("matchesXPath: \(message), at position \(position) of \"\(source)\"")
    }

    private func unexpected(_ expecting: String? = nil) -> XMLPatternError {
        let found = current.kind == .end ? "end of the expression" : "\"\(current.text)\""
        return failure("unexpected \(found)" + (expecting.map { "; expected \($0)" } ?? ""), at: current.position)
    }

    // MARK: Tokens

    fileprivate struct Token {
        enum Kind: Equatable {
            case slash, doubleSlash, openBracket, closeBracket, openParenthesis, closeParenthesis, at, comma
            case doubleColon, dot, doubleDot, pipe, plus, minus, equal, notEqual, less, lessOrEqual, greater
            case greaterOrEqual, multiply, star
            case literal(String), number(Double)
            case name(prefix: String?, local: String)
            case prefixWildcard(String)
            case operatorName(String)
            case functionName(prefix: String?, local: String)
            case nodeType(String)
            case axisName(String)
            case end

            /// Whether a `*` or a name after this token is an operator (XPath 1.0, section 3.7).
            var precedesOperator: Bool {
                switch self {
                case .at, .doubleColon, .openParenthesis, .openBracket, .comma, .operatorName, .multiply, .slash,
                     .doubleSlash, .pipe, .plus, .minus, .equal, .notEqual, .less, .lessOrEqual, .greater,
                     .greaterOrEqual:
                    false
                default: true
                }
            }
        }

        var kind: Kind
        var text: String
        var position: Int
    }

    private var current: Token { tokens[index] }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private mutating func take(_ kind: Token.Kind) -> Bool {
        guard current.kind == kind else { return false }
        advance()
        return true
    }

    private mutating func expect(_ kind: Token.Kind, _ what: String) throws(XMLPatternError) {
        guard take(kind) else { throw unexpected(what) }
    }

    private struct Lexer {
        let characters: [Character]
        let parser: XPathParser
        var offset = 0

        init(characters: [Character], parser: XPathParser) {
            self.characters = characters
            self.parser = parser
        }

        private func peek(_ ahead: Int = 0) -> Character? {
            offset + ahead < characters.count ? characters[offset + ahead] : nil
        }

        private static func isNameStart(_ character: Character) -> Bool {
            character == "_" || character.isLetter
        }

        private static func isNameCharacter(_ character: Character) -> Bool {
            isNameStart(character) || character.isNumber || character == "-" || character == "."
                || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .nonspacingMark }
        }

        private mutating func ncName() -> String {
            let start = offset
            while let character = peek(), Self.isNameCharacter(character) { offset += 1 }
            return String(characters[start..<offset])
        }

        /// The offset of the next character that is not whitespace, from `from`.
        private func skippingSpace(from: Int) -> Int {
            var position = from
            while position < characters.count, characters[position].isWhitespace { position += 1 }
            return position
        }

        mutating func tokens() throws(XMLPatternError) -> [Token] {
            var result: [Token] = []
            while true {
                offset = skippingSpace(from: offset)
                let start = offset
                let operatorContext = result.last.map { $0.kind.precedesOperator } ?? false
                guard let character = peek() else {
                    result.append(Token(kind: .end, text: "", position: start + 1))
                    return result
                }
                let kind: Token.Kind
                switch character {
                case "/":
                    offset += 1
                    if peek() == "/" { offset += 1; kind = .doubleSlash } else { kind = .slash }
                case "[": offset += 1; kind = .openBracket
                case "]": offset += 1; kind = .closeBracket
                case "(": offset += 1; kind = .openParenthesis
                case ")": offset += 1; kind = .closeParenthesis
                case "@": offset += 1; kind = .at
                case ",": offset += 1; kind = .comma
                case "|": offset += 1; kind = .pipe
                case "+": offset += 1; kind = .plus
                case "-": offset += 1; kind = .minus
                case "=": offset += 1; kind = .equal
                case "!":
                    guard peek(1) == "=" else { throw parser.failure("\"!\" is not an operator (write != or not(…))", at: start + 1) }
                    offset += 2; kind = .notEqual
                case "<":
                    offset += 1
                    if peek() == "=" { offset += 1; kind = .lessOrEqual } else { kind = .less }
                case ">":
                    offset += 1
                    if peek() == "=" { offset += 1; kind = .greaterOrEqual } else { kind = .greater }
                case ":":
                    guard peek(1) == ":" else { throw parser.failure("unexpected \":\"", at: start + 1) }
                    offset += 2; kind = .doubleColon
                case "*":
                    offset += 1
                    kind = operatorContext ? .multiply : .star
                case "\"", "'":
                    offset += 1
                    guard let end = characters[offset...].firstIndex(of: character) else {
                        throw parser.failure("the string starting here is not closed with \(character)", at: start + 1)
                    }
                    kind = .literal(String(characters[offset..<end]))
                    offset = end + 1
                case "$":
                    throw parser.failure("variables ($…) are not supported; write the value itself", at: start + 1)
                case ".":
                    if peek(1) == "." {
                        offset += 2; kind = .doubleDot
                    } else if let next = peek(1), next.isASCII, next.isNumber {
                        kind = .number(number())
                    } else {
                        offset += 1; kind = .dot
                    }
                case _ where character.isASCII && character.isNumber:
                    kind = .number(number())
                case _ where Self.isNameStart(character):
                    kind = try name(operatorContext: operatorContext, start: start)
                default:
                    throw parser.failure("unexpected \"\(character)\"", at: start + 1)
                }
                result.append(Token(kind: kind, text: String(characters[start..<offset]), position: start + 1))
            }
        }

        private mutating func number() -> Double {
            let start = offset
            while let character = peek(), character.isASCII, character.isNumber || character == "." { offset += 1 }
            return Double(String(characters[start..<offset])) ?? .nan
        }

        private mutating func name(operatorContext: Bool, start: Int) throws(XMLPatternError) -> Token.Kind {
            let first = ncName()
            if operatorContext {
                guard ["and", "or", "div", "mod"].contains(first) else {
                    throw parser.failure("unexpected \"\(first)\"; expected an operator (and, or, =, !=, <, +, div, …) "
                                         + "or the end of the expression", at: start + 1)
                }
                return .operatorName(first)
            }
            let afterName = skippingSpace(from: offset)
            if afterName + 1 < characters.count, characters[afterName] == ":", characters[afterName + 1] == ":" {
                guard let axis = XPathAxis(rawValue: first) else {
                    let known = XPathAxis.allCases.map(\.rawValue).joined(separator: ", ")
                    let what = first == "namespace" ? "the namespace axis is not supported" : "\"\(first)\" is not an axis"
                    throw parser.failure("\(what); use one of \(known)", at: start + 1)
                }
                return .axisName(axis.rawValue)
            }
            var prefix: String?
            var local = first
            if peek() == ":", peek(1) != ":" {
                if peek(1) == "*" {
                    offset += 2
                    return .prefixWildcard(first)
                }
                guard let next = peek(1), Self.isNameStart(next) else {
                    throw parser.failure("\"\(first):\" must be followed by a name or *", at: start + 1)
                }
                offset += 1
                prefix = first
                local = ncName()
            }
            let after = skippingSpace(from: offset)
            guard after < characters.count, characters[after] == "(" else { return .name(prefix: prefix, local: local) }
            if prefix == nil, ["node", "text", "comment", "processing-instruction"].contains(local) { return .nodeType(local) }
            return .functionName(prefix: prefix, local: local)
        }
    }

    // MARK: Expressions

    private mutating func nested<T>(_ body: (inout XPathParser) throws(XMLPatternError) -> T) throws(XMLPatternError) -> T {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maximumNesting else {
            throw failure("the expression nests parentheses, predicates or calls deeper than \(Self.maximumNesting) levels",
                          at: current.position)
        }
        return try body(&self)
    }

    private mutating func expression() throws(XMLPatternError) -> XPathSyntax {
        try nested { (parser: inout XPathParser) throws(XMLPatternError) in try parser.or() }
    }

    private mutating func or() throws(XMLPatternError) -> XPathSyntax {
        var left = try and()
        while take(.operatorName("or")) { left = .or(left, try and()) }
        return left
    }

    private mutating func and() throws(XMLPatternError) -> XPathSyntax {
        var left = try equality()
        while take(.operatorName("and")) { left = .and(left, try equality()) }
        return left
    }

    private mutating func equality() throws(XMLPatternError) -> XPathSyntax {
        var left = try relational()
        while true {
            if take(.equal) { left = .compare(.equal, left, try relational()) }
            else if take(.notEqual) { left = .compare(.notEqual, left, try relational()) }
            else { return left }
        }
    }

    private mutating func relational() throws(XMLPatternError) -> XPathSyntax {
        var left = try additive()
        while true {
            let comparison: XPathComparison
            switch current.kind {
            case .less: comparison = .less
            case .lessOrEqual: comparison = .lessOrEqual
            case .greater: comparison = .greater
            case .greaterOrEqual: comparison = .greaterOrEqual
            default: return left
            }
            advance()
            left = .compare(comparison, left, try additive())
        }
    }

    private mutating func additive() throws(XMLPatternError) -> XPathSyntax {
        var left = try multiplicative()
        while true {
            if take(.plus) { left = .arithmetic(.plus, left, try multiplicative()) }
            else if take(.minus) { left = .arithmetic(.minus, left, try multiplicative()) }
            else { return left }
        }
    }

    private mutating func multiplicative() throws(XMLPatternError) -> XPathSyntax {
        var left = try unary()
        while true {
            if take(.multiply) { left = .arithmetic(.times, left, try unary()) }
            else if take(.operatorName("div")) { left = .arithmetic(.divide, left, try unary()) }
            else if take(.operatorName("mod")) { left = .arithmetic(.modulo, left, try unary()) }
            else { return left }
        }
    }

    private mutating func unary() throws(XMLPatternError) -> XPathSyntax {
        guard take(.minus) else { return try union() }
        return try nested { (parser: inout XPathParser) throws(XMLPatternError) in .negate(try parser.unary()) }
    }

    private mutating func union() throws(XMLPatternError) -> XPathSyntax {
        var left = try path()
        while current.kind == .pipe {
            let position = current.position
            advance()
            let right = try path()
            for side in [left, right] where side.type != .nodeSet {
                throw failure("\"|\" joins node-sets, but one side is \(side.type.rawValue)", at: position)
            }
            left = .union(left, right)
        }
        return left
    }

    private var startsStep: Bool {
        switch current.kind {
        case .dot, .doubleDot, .at, .axisName, .name, .prefixWildcard, .star, .nodeType: true
        default: false
        }
    }

    private static let descendantOrSelf = XPathStep(axis: .descendantOrSelf, test: .node, predicates: [])

    private mutating func path() throws(XMLPatternError) -> XPathSyntax {
        switch current.kind {
        case .literal, .number, .openParenthesis, .functionName:
            let position = current.position
            let primary = try primary()
            var predicates: [XPathSyntax] = []
            while current.kind == .openBracket { predicates.append(try predicate()) }
            var steps: [XPathStep] = []
            if take(.slash) {
                steps = try relativePath()
            } else if take(.doubleSlash) {
                steps = [Self.descendantOrSelf] + (try relativePath())
            }
            guard !predicates.isEmpty || !steps.isEmpty else { return primary }
            guard primary.type == .nodeSet else {
                throw failure("only a node-set can be filtered or walked on, but this is \(primary.type.rawValue)", at: position)
            }
            return .filter(primary, predicates: predicates, steps: steps)
        case .slash:
            advance()
            return .path(absolute: true, steps: startsStep ? try relativePath() : [])
        case .doubleSlash:
            advance()
            return .path(absolute: true, steps: [Self.descendantOrSelf] + (try relativePath()))
        default:
            guard startsStep else { throw unexpected("a path, a number, a string or a function call") }
            return .path(absolute: false, steps: try relativePath())
        }
    }

    private mutating func relativePath() throws(XMLPatternError) -> [XPathStep] {
        var steps = [try step()]
        while true {
            if take(.slash) { steps.append(try step()) }
            else if take(.doubleSlash) { steps += [Self.descendantOrSelf, try step()] }
            else { return steps }
        }
    }

    private mutating func step() throws(XMLPatternError) -> XPathStep {
        if take(.dot) { return XPathStep(axis: .self, test: .node, predicates: []) }
        if take(.doubleDot) { return XPathStep(axis: .parent, test: .node, predicates: []) }
        var axis = XPathAxis.child
        if take(.at) {
            axis = .attribute
        } else if case .axisName(let name) = current.kind, let named = XPathAxis(rawValue: name) {
            advance()
            try expect(.doubleColon, "\"::\"")
            axis = named
        }
        let test = try nodeTest()
        var predicates: [XPathSyntax] = []
        while current.kind == .openBracket { predicates.append(try predicate()) }
        return XPathStep(axis: axis, test: test, predicates: predicates)
    }

    private mutating func nodeTest() throws(XMLPatternError) -> XPathNodeTest {
        let token = current
        switch token.kind {
        case .star:
            advance()
            return .anyName
        case .prefixWildcard(let prefix):
            advance()
            return .namespaceWildcard(try namespace(of: prefix, at: token.position))
        case .name(let prefix, let local):
            advance()
            guard let prefix else { return .localName(local) }
            return .qualifiedName(namespace: try namespace(of: prefix, at: token.position), local: local)
        case .nodeType(let type):
            guard type == "node" || type == "text" else {
                throw failure("\(type)() is not supported: comments and processing instructions are not kept; "
                              + "use node() or text()", at: token.position)
            }
            advance()
            try expect(.openParenthesis, "\"(\"")
            try expect(.closeParenthesis, "\")\" (\(type)() takes no argument)")
            return type == "node" ? .node : .text
        default:
            throw unexpected("a name, *, text() or node()")
        }
    }

    private func namespace(of prefix: String, at position: Int) throws(XMLPatternError) -> String {
        if prefix == "xml" { return XMLElementNode.xmlNamespace }
        guard let uri = namespaces[prefix] else {
            let declared = namespaces.keys.sorted().joined(separator: ", ")
            throw failure("the namespace prefix \"\(prefix)\" is not declared; add it to xPathNamespaces"
                          + (declared.isEmpty ? "" : " (declared: \(declared))"), at: position)
        }
        return uri
    }

    private mutating func predicate() throws(XMLPatternError) -> XPathSyntax {
        try expect(.openBracket, "\"[\"")
        let condition = try expression()
        try expect(.closeBracket, "\"]\" to close the predicate")
        return condition
    }

    private mutating func primary() throws(XMLPatternError) -> XPathSyntax {
        let token = current
        switch token.kind {
        case .literal(let text):
            advance()
            return .literal(text)
        case .number(let value):
            guard !value.isNaN else { throw failure("\"\(token.text)\" is not a number", at: token.position) }
            advance()
            return .number(value)
        case .openParenthesis:
            advance()
            let inner = try expression()
            try expect(.closeParenthesis, "\")\"")
            return inner
        case .functionName(let prefix, let local):
            return try call(prefix: prefix, local: local, token: token)
        default:
            throw unexpected()
        }
    }

    private mutating func call(prefix: String?, local: String, token: Token) throws(XMLPatternError) -> XPathSyntax {
        let written = prefix.map { $0 + ":" + local } ?? local
        guard prefix == nil, let function = XPathFunction(rawValue: local) else {
            let why = local == "id" && prefix == nil ? "id() needs a DTD's ID attributes, which are not read"
                : "\(written)() is not a function this engine has"
            throw failure(why + "; the functions are " + XPathFunction.allCases.map { $0.rawValue + "()" }
                .joined(separator: ", "), at: token.position)
        }
        advance()
        try expect(.openParenthesis, "\"(\"")
        var arguments: [XPathSyntax] = []
        if current.kind != .closeParenthesis {
            repeat { arguments.append(try expression()) } while take(.comma)
        }
        try expect(.closeParenthesis, "\")\" or \",\"")
        let signature = function.signature
        let maximum = signature.variadic ? Int.max : signature.arguments.count
        guard (signature.required...maximum).contains(arguments.count) else {
            let expected = signature.variadic ? "at least \(signature.required)"
                : signature.required == maximum ? "\(maximum)" : "\(signature.required) to \(maximum)"
            throw failure("\(written)() takes \(expected) argument\(maximum == 1 ? "" : "s"), not \(arguments.count)",
                          at: token.position)
        }
        for (offset, argument) in arguments.enumerated() {
            let wanted = signature.arguments[min(offset, signature.arguments.count - 1)]
            if wanted == .nodeSet, argument.type != .nodeSet {
                throw failure("\(written)() takes a node-set, but its argument is \(argument.type.rawValue)",
                              at: token.position)
            }
        }
        return .function(function, arguments)
    }
}
