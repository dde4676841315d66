import Foundation

/// Reads a Handlebars template into nodes: text, `{{expr}}`, `{{{expr}}}`, `{{&expr}}`, comments (`{{! … }}`,
/// `{{!-- … --}}`), whitespace control (`{{~ … ~}}`), blocks with `{{else}}` and `{{else if …}}` chains, inverted
/// blocks (`{{^x}}`), subexpressions, literals, named arguments, block parameters (`as |item index|`), and
/// `\{{` for literal braces. Partials, raw blocks and decorators are refused. A problem names its line and column.
package struct HandlebarsParser {
    /// How deep blocks and subexpressions may nest.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    let checks: TemplateChecks
    private var lineStarts: [Int] = [0]

    init(_ text: String, checks: TemplateChecks) {
        bytes = Array(text.utf8)
        self.checks = checks
        for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
    }

    /// The position of the byte at `offset`.
    func position(_ offset: Int) -> TemplatePosition {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        let column = bytes[start..<min(offset, bytes.count)].reduce(0) { $0 + (($1 & 0xC0) == 0x80 ? 0 : 1) }
        return TemplatePosition(line: low + 1, column: column + 1)
    }

    func parse() throws(TemplateProblem) -> [HandlebarsNode] {
        var tokens = try scan()
        Self.stripWhitespace(&tokens)
        var builder = TreeBuilder(tokens: tokens, parser: self)
        return try builder.program()
    }

    // MARK: - Tags

    enum TagKind: Equatable {
        case output, comment, open, inverseOpen, close, elseTag
    }

    struct Tag {
        var kind: TagKind
        /// The expression inside, without the sigil and the `~`s.
        var content: Range<Int>
        /// Where `{{` starts.
        var start: Int
        var stripBefore = false
        var stripAfter = false
    }

    enum Token {
        case text(String)
        case tag(Tag)
    }

    private func scan() throws(TemplateProblem) -> [Token] {
        var tokens: [Token] = []
        var text: [UInt8] = []
        var index = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "{"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "{") else {
                text.append(bytes[index])
                index += 1
                continue
            }
            // `\{{` is literal braces; `\\{{` a backslash before a tag.
            if text.last == UInt8(ascii: "\\") {
                text.removeLast()
                if text.last != UInt8(ascii: "\\") {
                    text += [UInt8(ascii: "{"), UInt8(ascii: "{")]
                    index += 2
                    continue
                }
            }
            if !text.isEmpty { tokens.append(.text(String(decoding: text, as: UTF8.self))); text = [] }
            let (tag, next) = try readTag(at: index)
            tokens.append(.tag(tag))
            index = next
        }
        if !text.isEmpty { tokens.append(.text(String(decoding: text, as: UTF8.self))) }
        return tokens
    }

    /// Reads the tag whose `{{` is at `start`; returns it and the offset after its `}}`.
    private func readTag(at start: Int) throws(TemplateProblem) -> (Tag, Int) {
        var index = start + 2
        func at(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
        func starts(_ text: String, at offset: Int) -> Bool {
            let expected = Array(text.utf8)
            return offset + expected.count <= bytes.count && Array(bytes[offset..<offset + expected.count]) == expected
        }
        if at(index) == UInt8(ascii: "{"), at(index + 1) == UInt8(ascii: "{") {
            throw TemplateProblem("raw blocks ({{{{raw}}}} … {{{{/raw}}}}) are not supported; write \\{{ for literal braces", at: position(start))
        }
        var tag = Tag(kind: .output, content: index..<index, start: start)
        if at(index) == UInt8(ascii: "~") { tag.stripBefore = true; index += 1 }

        // Comments end at the first `}}` (or `--}}` for `{{!-- --}}`), whatever they hold.
        if at(index) == UInt8(ascii: "!") {
            let long = starts("!--", at: index)
            var cursor = index + (long ? 3 : 1)
            var end = cursor
            while cursor < bytes.count {
                if long, starts("--}}", at: cursor) { end = cursor + 4; break }
                if long, starts("--~}}", at: cursor) { end = cursor + 5; tag.stripAfter = true; break }
                if !long, starts("}}", at: cursor) {
                    end = cursor + 2
                    if cursor > index + 1, bytes[cursor - 1] == UInt8(ascii: "~") { tag.stripAfter = true }
                    break
                }
                cursor += 1
            }
            guard cursor < bytes.count else {
                throw TemplateProblem("the comment \(long ? "{{!--" : "{{!") is never closed; end it with \(long ? "--}}" : "}}")", at: position(start))
            }
            tag.kind = .comment
            tag.content = index..<cursor
            return (tag, end)
        }

        var triple = false
        if at(index) == UInt8(ascii: "{") { triple = true; index += 1 }
        let closer = triple ? "}}}" : "}}"
        // The end: the first `}}` (`}}}`) outside quotes and `[…]` segments.
        var cursor = index
        var quote: UInt8?
        var inBrackets = false
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == UInt8(ascii: "\\"), cursor + 1 < bytes.count { cursor += 2; continue }
                if byte == open { quote = nil }
            } else if inBrackets {
                if byte == UInt8(ascii: "]") { inBrackets = false }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inBrackets = true
            } else if starts(closer, at: cursor) {
                break
            } else if byte == UInt8(ascii: "{"), at(cursor + 1) == UInt8(ascii: "{") {
                break
            }
            cursor += 1
        }
        guard cursor < bytes.count, starts(closer, at: cursor) else {
            let opener = triple ? "{{{" : "{{"
            let what = quote != nil ? "a quote in it is never closed" : "it is never closed with \"\(closer)\""
            throw TemplateProblem("a \"\(opener)\" is never closed: \(what); close it with \"\(closer)\" (write \\{{ for literal braces)", at: position(start))
        }
        var contentEnd = cursor
        if contentEnd > index, bytes[contentEnd - 1] == UInt8(ascii: "~") { tag.stripAfter = true; contentEnd -= 1 }
        let end = cursor + closer.utf8.count
        if triple {
            tag.kind = .output
            tag.content = index..<contentEnd
            return (tag, end)
        }
        switch at(index) {
        case UInt8(ascii: "#"):
            if at(index + 1) == UInt8(ascii: ">") || at(index + 1) == UInt8(ascii: "*") {
                throw TemplateProblem("partial blocks and decorators ({{#> …}}, {{#* …}}) are not supported; write the content in place", at: position(start))
            }
            tag.kind = .open
            index += 1
        case UInt8(ascii: "^"):
            tag.kind = .inverseOpen
            index += 1
        case UInt8(ascii: "/"):
            tag.kind = .close
            index += 1
        case UInt8(ascii: ">"):
            throw TemplateProblem("partials ({{> name}}) are not supported; write the content in place", at: position(start))
        case UInt8(ascii: "&"):
            tag.kind = .output
            index += 1
        case UInt8(ascii: "*"):
            throw TemplateProblem("decorators ({{* …}}) are not supported", at: position(start))
        default:
            var word = index
            while word < contentEnd, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[word]) { word += 1 }
            if starts("else", at: word), word + 4 == contentEnd || [0x20, 0x09, 0x0A, 0x0D].contains(bytes[word + 4]) {
                tag.kind = .elseTag
                index = word + 4
            }
        }
        if tag.kind == .inverseOpen, String(decoding: bytes[index..<contentEnd], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            tag.kind = .elseTag // `{{^}}` is `{{else}}`
        }
        tag.content = index..<max(index, contentEnd)
        return (tag, end)
    }

    /// `{{~`: the whitespace before the tag goes; `~}}`: the whitespace after it.
    private static func stripWhitespace(_ tokens: inout [Token]) {
        for index in tokens.indices {
            guard case .tag(let tag) = tokens[index] else { continue }
            if tag.stripBefore, index > 0, case .text(let text) = tokens[index - 1] {
                tokens[index - 1] = .text(String(text.reversed().drop(while: \.isWhitespace).reversed()))
            }
            if tag.stripAfter, index + 1 < tokens.count, case .text(let text) = tokens[index + 1] {
                tokens[index + 1] = .text(String(text.drop(while: \.isWhitespace)))
            }
        }
    }

    // MARK: - Expressions

    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// Reads the expression of a tag: a helper with its arguments, or a path or literal. `allowsBlockParams` for a
    /// block's head: the trailing `as |a b|` is allowed, and a lone helper name is the helper.
    func expression(_ range: Range<Int>, allowsBlockParams: Bool) throws(TemplateProblem) -> (HandlebarsCall, [String]) {
        var reader = ExpressionReader(bytes: bytes, index: range.lowerBound, end: range.upperBound, parser: self)
        reader.skipSpace()
        guard reader.index < reader.end else {
            throw TemplateProblem("the tag is empty; write an expression such as {{request.path}}", at: position(range.lowerBound))
        }
        var (call, blockParams) = try reader.call(depth: 0)
        if allowsBlockParams, let helper = call.shadowedHelper {
            // A block's head is always the helper (`{{#trim}}…{{/trim}}`).
            call.helper = helper
            call.target = nil
        }
        reader.skipSpace()
        if reader.index < reader.end {
            throw TemplateProblem("unexpected \"\(text(reader.index..<reader.end))\" in {{\(text(range).templateTrimmed)}}; a subexpression is closed with \")\" only after it is opened with \"(\"", at: position(reader.index))
        }
        if !blockParams.isEmpty, !allowsBlockParams {
            throw TemplateProblem("\"as |…|\" names block parameters, and only a block ({{#each … as |item|}}) has them", at: call.position)
        }
        return (call, blockParams)
    }

    /// The characters that end a name (Handlebars' ID).
    static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: return true
        case UInt8(ascii: "!"), UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "."),
             UInt8(ascii: "/"), UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "@"),
             UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"),
             UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    private struct ExpressionReader {
        let bytes: [UInt8]
        var index: Int
        let end: Int
        let parser: HandlebarsParser

        func at(_ offset: Int) -> UInt8? { offset < end ? bytes[offset] : nil }

        mutating func skipSpace() {
            while index < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// A helper call or a lone value, up to `)` or the end.
        mutating func call(depth: Int) throws(TemplateProblem) -> (HandlebarsCall, [String]) {
            guard depth < HandlebarsParser.maximumDepth else {
                throw TemplateProblem("subexpressions nest more than \(HandlebarsParser.maximumDepth) deep", at: parser.position(index))
            }
            skipSpace()
            let start = index
            let head = try param(depth: depth)
            var params: [HandlebarsExpression] = []
            var hash: [(key: String, value: HandlebarsExpression)] = []
            var blockParams: [String] = []
            while true {
                skipSpace()
                guard let byte = at(index), byte != UInt8(ascii: ")") else { break }
                if let names = try blockParameters() { blockParams = names; skipSpace(); break }
                if let key = hashKey() {
                    skipSpace()
                    guard index < end, at(index) != UInt8(ascii: ")") else {
                        throw TemplateProblem("\"\(key)=\" has no value; write \(key)='…'", at: parser.position(index))
                    }
                    let value = try param(depth: depth)
                    if hash.contains(where: { $0.key == key }) {
                        throw TemplateProblem("\"\(key)\" is given twice", at: value.position ?? parser.position(index))
                    }
                    hash.append((key, value))
                    continue
                }
                if !hash.isEmpty {
                    throw TemplateProblem("a positional argument comes after a named one (\(hash.last!.key)=…); put named arguments last", at: parser.position(index))
                }
                params.append(try param(depth: depth))
            }
            let source = parser.text(start..<index).templateTrimmed
            var call = HandlebarsCall(helper: nil, target: head, params: params, hash: hash, source: source, position: parser.position(start))
            if case .path(let path) = head, let name = path.simpleName, let helper = TemplateHelper(name: name) {
                if params.isEmpty, hash.isEmpty, helper.spec.params.lowerBound > 0, helper.spec.block != .blockOnly {
                    // `{{size}}` in `{{#each items}}` reads the item's `size`: a helper that needs arguments and
                    // has none is the value of that name (a block still needs the helper's arguments).
                    call.shadowedHelper = helper
                } else {
                    call.helper = helper
                    call.target = nil
                }
            } else if case .path(let path) = head, let name = path.simpleName, let reason = TemplateHelper.unsupported[name] {
                throw TemplateProblem("\"\(name)\" is not supported here: \(reason)", at: call.position)
            } else if !params.isEmpty || !hash.isEmpty {
                let name: String
                if case .path(let path) = head { name = path.source } else { name = source }
                throw TemplateProblem("\"\(name)\" is not a helper this library knows (in {{\(source)}}); use one of: \(TemplateHelper.allCases.map(\.rawValue).joined(separator: ", "))", at: call.position)
            }
            return (call, blockParams)
        }

        /// `key=` (with the `=`), or nothing.
        mutating func hashKey() -> String? {
            var cursor = index
            while cursor < end, !HandlebarsParser.endsName(bytes[cursor]) { cursor += 1 }
            guard cursor > index, at(cursor) == UInt8(ascii: "=") else { return nil }
            let key = parser.text(index..<cursor)
            index = cursor + 1
            return key
        }

        /// `as |a b|`, or nothing.
        mutating func blockParameters() throws(TemplateProblem) -> [String]? {
            guard at(index) == UInt8(ascii: "a"), at(index + 1) == UInt8(ascii: "s") else { return nil }
            var cursor = index + 2
            guard let next = at(cursor), [0x20, 0x09, 0x0A, 0x0D].contains(next) else { return nil }
            while cursor < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 }
            guard at(cursor) == UInt8(ascii: "|") else { return nil }
            let start = index
            cursor += 1
            var names: [String] = []
            while true {
                while cursor < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 }
                guard let byte = at(cursor) else {
                    throw TemplateProblem("\"as |\" is never closed with \"|\"; write as |item index|", at: parser.position(start))
                }
                if byte == UInt8(ascii: "|") { cursor += 1; break }
                let nameStart = cursor
                while cursor < end, !HandlebarsParser.endsName(bytes[cursor]) { cursor += 1 }
                guard cursor > nameStart else {
                    throw TemplateProblem("\"\(Character(Unicode.Scalar(byte)))\" cannot be in a block parameter's name; write as |item index|", at: parser.position(cursor))
                }
                names.append(parser.text(nameStart..<cursor))
            }
            guard !names.isEmpty else { throw TemplateProblem("\"as ||\" names no parameter; write as |item|", at: parser.position(start)) }
            index = cursor
            return names
        }

        mutating func param(depth: Int) throws(TemplateProblem) -> HandlebarsExpression {
            skipSpace()
            let start = index
            guard let byte = at(index) else {
                throw TemplateProblem("an argument is missing", at: parser.position(index))
            }
            switch byte {
            case UInt8(ascii: "("):
                index += 1
                let (call, blockParams) = try call(depth: depth + 1)
                guard blockParams.isEmpty else {
                    throw TemplateProblem("a subexpression cannot name block parameters", at: call.position)
                }
                skipSpace()
                guard at(index) == UInt8(ascii: ")") else {
                    throw TemplateProblem("the subexpression (\(call.source) is never closed; add \")\"", at: parser.position(start))
                }
                index += 1
                if call.helper == nil, let target = call.target { return target }
                return .call(call)
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                index += 1
                var text: [UInt8] = []
                while true {
                    guard let next = at(index) else {
                        throw TemplateProblem("the string starting \(Character(Unicode.Scalar(byte)))\(parser.text(start + 1..<min(end, start + 20))) is never closed; end it with \(Character(Unicode.Scalar(byte)))", at: parser.position(start))
                    }
                    if next == UInt8(ascii: "\\"), let escaped = at(index + 1), escaped == byte { text.append(escaped); index += 2; continue }
                    index += 1
                    if next == byte { break }
                    text.append(next)
                }
                if let after = at(index), !HandlebarsParser.endsName(after) {
                    throw TemplateProblem("a string is followed by \"\(Character(Unicode.Scalar(after)))\"; leave a space between arguments", at: parser.position(index))
                }
                return .literal(.string(String(decoding: text, as: UTF8.self)))
            case UInt8(ascii: ")"):
                throw TemplateProblem("\")\" closes no subexpression", at: parser.position(index))
            default:
                if let number = number() { return .literal(number) }
                return try path()
            }
        }

        /// `-?[0-9]+(.[0-9]+)?` followed by the end of the argument.
        mutating func number() -> TemplateValue? {
            var cursor = index
            if at(cursor) == UInt8(ascii: "-") { cursor += 1 }
            let digits = cursor
            while let byte = at(cursor), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { cursor += 1 }
            guard cursor > digits else { return nil }
            var whole = true
            if at(cursor) == UInt8(ascii: "."), let next = at(cursor + 1), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                whole = false
                cursor += 1
                while let byte = at(cursor), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { cursor += 1 }
            }
            if let after = at(cursor), !HandlebarsParser.endsName(after) || after == UInt8(ascii: ".") { return nil }
            let text = parser.text(index..<cursor)
            if whole, let value = Int(text) { index = cursor; return .int(value) }
            guard let value = Double(text) else { return nil }
            index = cursor
            return .double(value)
        }

        mutating func path() throws(TemplateProblem) -> HandlebarsExpression {
            let start = index
            var path = HandlebarsPath(position: parser.position(start))
            if at(index) == UInt8(ascii: "@") { path.isData = true; index += 1 }
            while at(index) == UInt8(ascii: "."), at(index + 1) == UInt8(ascii: "."), at(index + 2) == UInt8(ascii: "/") {
                path.depth += 1
                index += 3
            }
            if at(index) == UInt8(ascii: "."), at(index + 1) == UInt8(ascii: "."), at(index + 2).map(HandlebarsParser.endsName) ?? true {
                path.depth += 1 // `..` alone
                index += 2
                path.source = parser.text(start..<index)
                return .path(path)
            }
            var first = true
            while true {
                guard let byte = at(index) else { break }
                if byte == UInt8(ascii: "[") {
                    let open = index
                    index += 1
                    while let next = at(index), next != UInt8(ascii: "]") { index += 1 }
                    guard at(index) == UInt8(ascii: "]") else {
                        throw TemplateProblem("\"[\" is never closed with \"]\"; write request.headers.[X-Id]", at: parser.position(open))
                    }
                    path.parts.append(parser.text(open + 1..<index))
                    index += 1
                } else if first, byte == UInt8(ascii: "."), at(index + 1).map({ $0 == UInt8(ascii: "/") || HandlebarsParser.endsName($0) }) ?? true {
                    path.isThis = true // `.` or `./`
                    index += 1
                } else {
                    let nameStart = index
                    while let next = at(index), !HandlebarsParser.endsName(next) { index += 1 }
                    guard index > nameStart else {
                        let shown = Character(Unicode.Scalar(byte))
                        throw TemplateProblem("\"\(shown)\" cannot start a name here; a name is a path such as request.query.q, a string is quoted ('text')", at: parser.position(index))
                    }
                    let name = parser.text(nameStart..<index)
                    if first, name == "this", !path.isData { path.isThis = true } else { path.parts.append(name) }
                }
                first = false
                guard let separator = at(index), separator == UInt8(ascii: ".") || separator == UInt8(ascii: "/") else { break }
                guard let next = at(index + 1), !HandlebarsParser.endsName(next) || next == UInt8(ascii: "[") else {
                    throw TemplateProblem("a path ends with \"\(Character(Unicode.Scalar(separator)))\"; write request.path.[0]", at: parser.position(index))
                }
                index += 1
            }
            path.source = parser.text(start..<index)
            if path.parts.isEmpty, !path.isThis, path.depth == 0, !path.isData {
                throw TemplateProblem("an expression is missing", at: parser.position(start))
            }
            if path.isData, path.parts.isEmpty {
                throw TemplateProblem("\"@\" names no value; write @index, @key, @first, @last or @root", at: parser.position(start))
            }
            if let name = path.simpleName, !path.source.hasPrefix("[") {
                switch name {
                case "true": return .literal(.bool(true))
                case "false": return .literal(.bool(false))
                case "null", "undefined": return .literal(.null)
                default: break
                }
            }
            return .path(path)
        }
    }
}

/// Builds the tree of nodes from the tags, checking that every block is closed by its own name.
private struct TreeBuilder {
    let tokens: [HandlebarsParser.Token]
    let parser: HandlebarsParser
    var index = 0
    var depth = 0

    init(tokens: [HandlebarsParser.Token], parser: HandlebarsParser) {
        self.tokens = tokens
        self.parser = parser
    }

    /// The whole template.
    mutating func program() throws(TemplateProblem) -> [HandlebarsNode] {
        let (nodes, end) = try nodes()
        if let end {
            let what = end.kind == .close ? "{{/\(parser.text(end.content).templateTrimmed)}} closes no block"
                : "{{else}} is outside a block"
            throw TemplateProblem("\(what); open it with {{#helper …}} (write \\{{ for literal braces)", at: parser.position(end.start))
        }
        return nodes
    }

    /// Nodes up to a `{{/…}}` or `{{else …}}` (returned) or the end (`nil`).
    private mutating func nodes() throws(TemplateProblem) -> ([HandlebarsNode], HandlebarsParser.Tag?) {
        var nodes: [HandlebarsNode] = []
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .text(let text):
                if !text.isEmpty { nodes.append(.text(text)) }
            case .tag(let tag):
                switch tag.kind {
                case .comment: continue
                case .close, .elseTag: return (nodes, tag)
                case .output:
                    let (call, _) = try parser.expression(tag.content, allowsBlockParams: false)
                    try parser.checks.check(call, asBlock: false)
                    nodes.append(.output(call))
                case .open, .inverseOpen:
                    nodes.append(.block(try block(tag)))
                }
            }
        }
        return (nodes, nil)
    }

    private mutating func block(_ open: HandlebarsParser.Tag) throws(TemplateProblem) -> HandlebarsBlock {
        depth += 1
        defer { depth -= 1 }
        guard depth <= HandlebarsParser.maximumDepth else {
            throw TemplateProblem("blocks nest more than \(HandlebarsParser.maximumDepth) deep", at: parser.position(open.start))
        }
        let (call, blockParams) = try parser.expression(open.content, allowsBlockParams: true)
        var block = HandlebarsBlock(call: call, blockParams: blockParams, inverted: open.kind == .inverseOpen)
        try parser.checks.check(call, asBlock: true)
        let close = try tail(&block, openedBy: open)
        let name = parser.text(close.content).templateTrimmed
        let expected = Self.name(of: call)
        guard name == expected else {
            throw TemplateProblem("{{/\(name)}} closes {{#\(expected)}} opened at \(parser.position(open.start)); write {{/\(expected)}}", at: parser.position(close.start))
        }
        return block
    }

    /// The body of `block` and its `{{else}}` part (an `{{else x …}}` opens a nested block that shares the close);
    /// returns the close tag.
    private mutating func tail(_ block: inout HandlebarsBlock, openedBy open: HandlebarsParser.Tag) throws(TemplateProblem) -> HandlebarsParser.Tag {
        let (body, end) = try nodes()
        block.body = body
        guard let end else {
            let name = Self.name(of: block.call)
            throw TemplateProblem("{{#\(name)}} is never closed; add {{/\(name)}}", at: parser.position(open.start))
        }
        if end.kind == .close { return end }
        // {{else}} or {{else helper …}}
        let rest = parser.text(end.content).templateTrimmed
        if rest.isEmpty {
            let (inverse, close) = try nodes()
            block.inverse = inverse
            guard let close else {
                let name = Self.name(of: block.call)
                throw TemplateProblem("{{#\(name)}} is never closed; add {{/\(name)}}", at: parser.position(open.start))
            }
            guard close.kind == .close else {
                throw TemplateProblem("a second {{else}} in the same block; use {{else if …}} for another branch", at: parser.position(close.start))
            }
            return close
        }
        let (call, blockParams) = try parser.expression(end.content, allowsBlockParams: true)
        try parser.checks.check(call, asBlock: true)
        var chained = HandlebarsBlock(call: call, blockParams: blockParams)
        let close = try tail(&chained, openedBy: open)
        block.inverse = [.block(chained)]
        return close
    }

    /// The name a block's close tag repeats.
    private static func name(of call: HandlebarsCall) -> String {
        if let helper = call.helper { return call.source.hasPrefix("maths") ? "maths" : helper.rawValue }
        if case .path(let path)? = call.target { return path.source }
        return call.source
    }
}

extension String {
    var templateTrimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
