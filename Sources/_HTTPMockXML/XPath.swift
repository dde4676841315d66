import Foundation

/// An XPath 1.0 expression, as WireMock's `matchesXPath` evaluates it against a request body.
///
/// Evaluated from the document's root node. Supported: absolute and relative location paths, `//`, `.`, `..`, `*`,
/// `@name`, `@*`, `text()`, `node()`, every axis but `namespace::`, predicates (`[1]`, `[last()]`, `[@id = '3']`),
/// `or`, `and`, `=`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `-`, `*`, `div`, `mod`, unary `-`, `|`, and the core functions
/// but `id()` (see ``XPathFunction``). An unprefixed name selects that local name in any namespace (as WireMock does
/// for namespaced documents); `prefix:name` selects it in the namespace `namespaces` declares for the prefix.
/// Refused when compiled, with the token and its position: variables, `comment()`, `processing-instruction()`,
/// the namespace axis, undeclared prefixes, unknown functions, and expressions longer than ``maximumLength`` bytes.
package struct XPathExpression: Sendable, Hashable, CustomStringConvertible {
    /// The longest expression accepted, in UTF-8 bytes.
    static let maximumLength = 4096
    /// How many nodes one evaluation may visit before it gives up (and selects nothing).
    package static let stepBudget = 1_000_000

    let source: String
    /// The prefixes the expression may use, and their namespace URIs.
    let namespaces: [String: String]
    let syntax: XPathSyntax

    package var description: String { source }

    /// Expressions are the same when written the same with the same prefixes.
    package static func == (left: XPathExpression, right: XPathExpression) -> Bool {
        left.source == right.source && left.namespaces == right.namespaces
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(namespaces)
    }

    /// Compiles `text`; `namespaces` maps the prefixes it uses to namespace URIs (WireMock's `xPathNamespaces`).
    package init(_ text: String, namespaces: [String: String] = [:]) throws(XMLPatternError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw XMLPatternError("matchesXPath: the expression is \(text.utf8.count) bytes long; "
                                + "the limit is \(Self.maximumLength)")
        }
        var parser = XPathParser(text, namespaces: namespaces)
        syntax = try parser.parse()
        source = text
        self.namespaces = namespaces
    }

    /// The expression's value in the document whose root element is `root`. Past `stepBudget` it is
    /// `.boolean(false)`: the match fails.
    func evaluate(_ root: XMLElementNode, stepBudget: Int = Self.stepBudget) -> XPathResult {
        var spent = 0
        return evaluate(root, stepBudget: stepBudget, spent: &spent)
    }

    /// ``evaluate(_:stepBudget:)``, saying in `spent` how many steps it took (past the budget: more than it).
    package func evaluate(_ root: XMLElementNode, stepBudget: Int, spent: inout Int) -> XPathResult {
        let document = XPathDocument(root)
        var evaluator = XPathEvaluator(document: document, budget: stepBudget)
        defer { spent = evaluator.steps }
        do {
            switch try evaluator.value(syntax, XPathEvaluator.Context(node: 0, position: 1, size: 1)) {
            case .nodes(let nodes): return .nodeSet(nodes.map { XPathNode(document: document, index: $0) })
            case .string(let text): return .string(text)
            case .number(let number): return .number(number)
            case .boolean(let truth): return .boolean(truth)
            }
        } catch {
            return .boolean(false)
        }
    }

    /// What the expression selects in `data`, as text: `nil` when `data` is not XML; the string values of the
    /// selected nodes, or the one string, number or `true` it evaluates to; empty when it selects nothing, is
    /// `false`, an empty string or not a number. Something was matched exactly when the array is not empty.
    /// As WireMock's `matchesXPath` reads it (`asWireMock`): only nodes count (`count(//a) = 2` selects nothing), and
    /// a selected element is given as ``XPathNode/printed`` (its XML, as WireMock gives it to the pattern beside the
    /// expression), not as its text.
    package func selects(_ data: Data, asWireMock: Bool = false) -> [String]? {
        guard case .success(let root) = XMLElementNode.parse(data) else { return nil }
        let result = evaluate(root)
        if asWireMock {
            guard case .nodeSet(let nodes) = result else { return [] }
            return nodes.map { node in node.kind == .element ? node.printed ?? node.stringValue : node.stringValue }
        }
        switch result {
        case .nodeSet(let nodes): return nodes.map(\.stringValue)
        case .string(let text): return text.isEmpty ? [] : [text]
        case .number(let number): return number.isNaN ? [] : [XPathEvaluator.string(number)]
        case .boolean(let truth): return truth ? ["true"] : []
        }
    }
}

/// The value of an XPath expression.
package enum XPathResult: Sendable {
    case nodeSet([XPathNode])
    case string(String)
    case number(Double)
    case boolean(Bool)
}

/// A node an expression selected.
package struct XPathNode: Sendable {
    package enum Kind: Sendable { case root, element, attribute, text }

    fileprivate let document: XPathDocument
    fileprivate let index: Int

    package var kind: Kind { document.nodes[index].kind }
    /// The qualified name of an element or attribute; empty for text and the root.
    package var name: String { document.nodes[index].qualifiedName }
    /// An element's or the root's text (all descendants'), an attribute's value, a text node's text.
    package var stringValue: String { document.stringValue(index) }
    /// An element written as XML (for `equalToXml` on what was selected), the document's for the root; `nil` otherwise.
    package var markup: String? {
        switch kind {
        case .element: document.element(index).markup
        case .root: document.children[index].first { document.nodes[$0].kind == .element }.map { document.element($0).markup }
        case .attribute, .text: nil
        }
    }

    /// An element as WireMock's `xPath` helper prints it (the JDK's XML serializer, indenting by two spaces), the
    /// document's element for the root; `nil` otherwise. The namespace declarations are those written on the
    /// element and its descendants (not its ancestors'), first, then the attributes, each by name; an element whose content
    /// is one text stays on its line; other content goes one child a line, indented, a text without its leading
    /// line breaks; the whole ends with a line break.
    package var printed: String? {
        let element: Int
        switch kind {
        case .element: element = index
        case .root:
            guard let first = document.children[index].first(where: { document.nodes[$0].kind == .element }) else { return nil }
            element = first
        case .attribute, .text: return nil
        }
        var out = ""
        document.print(element, level: 0, to: &out)
        return out + "\n"
    }
}

/// A document flattened in document order for XPath: the root node at 0, then each element, its attributes and
/// its contents. A node's descendants are the nodes after it up to its `end`.
private struct XPathDocument: Sendable {
    struct Node: Sendable {
        var kind: XPathNode.Kind
        var parent: Int
        var localName = ""
        var prefix: String?
        var namespaceURI: String?
        /// A text node's text, an attribute's value.
        var value = ""
        /// One past the last descendant.
        var end = 0
        /// Where it is among its parent's children.
        var position = 0
        /// An element's namespace declarations, as written.
        var declared: [XMLAttribute] = []

        var qualifiedName: String { prefix.map { $0 + ":" + localName } ?? localName }
    }

    var nodes: [Node]
    var children: [[Int]]
    var attributes: [[Int]]

    init(_ root: XMLElementNode) {
        nodes = [Node(kind: .root, parent: -1)]
        children = [[]]
        attributes = [[]]
        add(root, parent: 0)
        nodes[0].end = nodes.count
    }

    private mutating func append(_ node: Node) -> Int {
        var node = node
        node.position = node.parent >= 0 && node.kind != .attribute ? children[node.parent].count : 0
        nodes.append(node)
        children.append([])
        attributes.append([])
        return nodes.count - 1
    }

    private mutating func add(_ element: XMLElementNode, parent: Int) {
        let index = append(Node(kind: .element, parent: parent, localName: element.name, prefix: element.prefix,
                                namespaceURI: element.namespaceURI, declared: element.declared))
        children[parent].append(index)
        for attribute in element.attributes {
            let attributeIndex = append(Node(kind: .attribute, parent: index, localName: attribute.name,
                                             prefix: attribute.prefix, namespaceURI: attribute.namespaceURI,
                                             value: attribute.value))
            nodes[attributeIndex].end = attributeIndex + 1
            attributes[index].append(attributeIndex)
        }
        for child in element.children {
            switch child {
            case .element(let inner): add(inner, parent: index)
            case .text(let text):
                let textIndex = append(Node(kind: .text, parent: index, value: text))
                nodes[textIndex].end = textIndex + 1
                children[index].append(textIndex)
            }
        }
        nodes[index].end = nodes.count
    }

    func stringValue(_ index: Int) -> String {
        let node = nodes[index]
        switch node.kind {
        case .attribute, .text: return node.value
        case .element, .root:
            var text = ""
            for inner in index + 1..<node.end where nodes[inner].kind == .text { text += nodes[inner].value }
            return text
        }
    }

    /// Writes the element at `index`, `level` deep, as ``XPathNode/printed`` says.
    func print(_ index: Int, level: Int, to out: inout String) {
        let node = nodes[index]
        out += "<" + node.qualifiedName
        let declarations = node.declared.map { ($0.qualifiedName, $0.value) }.sorted { $0.0 < $1.0 }
        let pairs = attributes[index].map { (nodes[$0].qualifiedName, nodes[$0].value) }.sorted { $0.0 < $1.0 }
        for (name, value) in declarations + pairs {
            out += " " + name + "=\"" + XMLElementNode.escaped(value, quote: true) + "\""
        }
        let inner = children[index]
        guard !inner.isEmpty else {
            out += "/>"
            return
        }
        out += ">"
        if inner.count == 1, nodes[inner[0]].kind == .text {
            out += XMLElementNode.escaped(nodes[inner[0]].value, quote: false)
        } else {
            let indent = String(repeating: "  ", count: level + 1)
            for child in inner {
                out += "\n" + indent
                if nodes[child].kind == .text {
                    out += XMLElementNode.escaped(String(nodes[child].value.drop { $0 == "\n" }), quote: false)
                } else {
                    print(child, level: level + 1, to: &out)
                }
            }
            out += "\n" + String(repeating: "  ", count: level)
        }
        out += "</" + node.qualifiedName + ">"
    }

    /// The element at `index` rebuilt as an ``XMLElementNode``.
    func element(_ index: Int) -> XMLElementNode {
        let node = nodes[index]
        return XMLElementNode(
            name: node.localName, namespaceURI: node.namespaceURI, prefix: node.prefix,
            attributes: attributes[index].map {
                XMLAttribute(name: nodes[$0].localName, namespaceURI: nodes[$0].namespaceURI, prefix: nodes[$0].prefix,
                             value: nodes[$0].value)
            },
            children: children[index].map { nodes[$0].kind == .text ? .text(nodes[$0].value) : .element(element($0)) })
    }
}

/// Evaluates ``XPathSyntax`` over an ``XPathDocument`` within a step budget.
private struct XPathEvaluator {
    struct Exhausted: Error {}

    struct Context {
        var node: Int
        var position: Int
        var size: Int
    }

    enum Value {
        case nodes([Int])
        case string(String)
        case number(Double)
        case boolean(Bool)
    }

    let document: XPathDocument
    let budget: Int
    var steps = 0

    init(document: XPathDocument, budget: Int) {
        self.document = document
        self.budget = budget
    }

    private mutating func spend(_ count: Int = 1) throws(Exhausted) {
        steps += count
        if steps > budget { throw Exhausted() }
    }

    // MARK: Expressions

    mutating func value(_ syntax: XPathSyntax, _ context: Context) throws(Exhausted) -> Value {
        try spend()
        switch syntax {
        case .number(let number): return .number(number)
        case .literal(let text): return .string(text)
        case .or(let left, let right):
            if boolean(try value(left, context)) { return .boolean(true) }
            return .boolean(boolean(try value(right, context)))
        case .and(let left, let right):
            if !boolean(try value(left, context)) { return .boolean(false) }
            return .boolean(boolean(try value(right, context)))
        case .compare(let comparison, let left, let right):
            return .boolean(try compare(comparison, value(left, context), value(right, context)))
        case .arithmetic(let operation, let left, let right):
            let a = number(try value(left, context)), b = number(try value(right, context))
            switch operation {
            case .plus: return .number(a + b)
            case .minus: return .number(a - b)
            case .times: return .number(a * b)
            case .divide: return .number(a / b)
            case .modulo: return .number(a.truncatingRemainder(dividingBy: b))
            }
        case .negate(let inner):
            return .number(-number(try value(inner, context)))
        case .union(let left, let right):
            let a = try nodes(value(left, context)), b = try nodes(value(right, context))
            try spend(a.count + b.count)
            return .nodes(Array(Set(a).union(b)).sorted())
        case .function(let function, let arguments):
            return try call(function, arguments, context)
        case .path(let absolute, let steps):
            return .nodes(try walk(steps, from: [absolute ? 0 : context.node]))
        case .filter(let primary, let predicates, let steps):
            var selected = try nodes(value(primary, context))
            for predicate in predicates { selected = try filter(selected, by: predicate) }
            return .nodes(try walk(steps, from: selected))
        }
    }

    private func nodes(_ value: Value) -> [Int] {
        if case .nodes(let nodes) = value { return nodes }
        return [] // unreachable: the parser lets only node-sets through where node-sets are needed
    }

    // MARK: Paths

    /// The nodes `steps` reach from `start`, in document order.
    private mutating func walk(_ steps: [XPathStep], from start: [Int]) throws(Exhausted) -> [Int] {
        var current = start
        for step in steps {
            var reached: [Int] = []
            for node in current {
                var candidates = try axis(step.axis, from: node).filter { matches(step.test, $0, on: step.axis) }
                for predicate in step.predicates { candidates = try filter(candidates, by: predicate) }
                reached += candidates
            }
            try spend(reached.count)
            current = current.count == 1 && !step.axis.isReverse ? reached : Array(Set(reached)).sorted()
        }
        return current
    }

    /// Keeps the nodes the predicate holds for, positions counted in the order given.
    private mutating func filter(_ nodes: [Int], by predicate: XPathSyntax) throws(Exhausted) -> [Int] {
        var kept: [Int] = []
        for (offset, node) in nodes.enumerated() {
            let result = try value(predicate, Context(node: node, position: offset + 1, size: nodes.count))
            if case .number(let number) = result {
                if number == Double(offset + 1) { kept.append(node) }
            } else if boolean(result) {
                kept.append(node)
            }
        }
        return kept
    }

    /// The nodes on the axis from `node`, nearest first for reverse axes, in document order for the others.
    private mutating func axis(_ axis: XPathAxis, from node: Int) throws(Exhausted) -> [Int] {
        let nodes = document.nodes
        let isAttribute = nodes[node].kind == .attribute
        switch axis {
        case .self: return [node]
        case .child:
            try spend(document.children[node].count + 1)
            return document.children[node]
        case .attribute:
            try spend(document.attributes[node].count + 1)
            return document.attributes[node]
        case .parent: return node == 0 ? [] : [nodes[node].parent]
        case .descendant, .descendantOrSelf:
            let span = isAttribute ? node + 1..<node + 1 : node + 1..<nodes[node].end
            try spend(span.count + 1)
            return (axis == .descendantOrSelf ? [node] : []) + span.filter { nodes[$0].kind != .attribute }
        case .ancestor, .ancestorOrSelf:
            var result = axis == .ancestorOrSelf ? [node] : []
            var parent = nodes[node].parent
            while parent >= 0 {
                result.append(parent)
                parent = nodes[parent].parent
            }
            try spend(result.count + 1)
            return result
        case .followingSibling, .precedingSibling:
            guard node != 0, !isAttribute else { return [] }
            let siblings = document.children[nodes[node].parent], position = nodes[node].position
            try spend(siblings.count + 1)
            return axis == .followingSibling ? Array(siblings[(position + 1)...]) : siblings[..<position].reversed()
        case .following:
            // After the node in document order, but not its descendants (an attribute has none: its element's
            // contents follow it).
            let span = (isAttribute ? node + 1 : nodes[node].end)..<nodes.count
            try spend(span.count + 1)
            return span.filter { nodes[$0].kind != .attribute }
        case .preceding:
            // Before the node in document order, but not its ancestors (whose subtrees end after it).
            try spend(node + 1)
            return (1..<max(node, 1)).reversed().filter { nodes[$0].kind != .attribute && nodes[$0].end <= node }
        }
    }

    private func matches(_ test: XPathNodeTest, _ index: Int, on axis: XPathAxis) -> Bool {
        let node = document.nodes[index]
        let principal: XPathNode.Kind = axis == .attribute ? .attribute : .element
        switch test {
        case .node: return true
        case .text: return node.kind == .text
        case .anyName: return node.kind == principal
        case .namespaceWildcard(let namespace): return node.kind == principal && node.namespaceURI == namespace
        case .localName(let local): return node.kind == principal && node.localName == local
        case .qualifiedName(let namespace, let local):
            return node.kind == principal && node.localName == local && node.namespaceURI == namespace
        }
    }

    // MARK: Conversions (XPath 1.0, section 4)

    private func string(_ value: Value) -> String {
        switch value {
        case .nodes(let nodes): nodes.first.map { document.stringValue($0) } ?? ""
        case .string(let text): text
        case .number(let number): Self.string(number)
        case .boolean(let truth): truth ? "true" : "false"
        }
    }

    private func number(_ value: Value) -> Double {
        switch value {
        case .nodes, .string: Self.number(string(value))
        case .number(let number): number
        case .boolean(let truth): truth ? 1 : 0
        }
    }

    private func boolean(_ value: Value) -> Bool {
        switch value {
        case .nodes(let nodes): !nodes.isEmpty
        case .string(let text): !text.isEmpty
        case .number(let number): number != 0 && !number.isNaN
        case .boolean(let truth): truth
        }
    }

    /// XPath's number(): optional whitespace, an optional minus, digits with an optional fraction; else NaN.
    static func number(_ text: String) -> Double {
        let trimmed = text.trimmingCharacters(in: XMLComparison.whitespace)
        var digits = trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              digits.filter({ $0 == "." }).count <= 1, digits != "." else { return .nan }
        if digits.hasPrefix(".") { digits = "0" + digits }
        if digits.hasSuffix(".") { digits = digits.dropLast() }
        return Double(trimmed.hasPrefix("-") ? "-" + digits : String(digits)) ?? .nan
    }

    /// XPath's string() of a number: integers without a fraction, no exponent, NaN and (-)Infinity by name.
    static func string(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        let text = "\(number)"
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(text[text.index(after: exponentIndex)...]) else {
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        // Expand "d.ddde±x" into plain decimal notation.
        let mantissa = text[..<exponentIndex]
        let negative = mantissa.hasPrefix("-")
        let unsigned = negative ? mantissa.dropFirst() : mantissa
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
        var allDigits = whole + fraction
        var point = whole.count + exponent
        if point <= 0 {
            allDigits = String(repeating: "0", count: 1 - point) + allDigits
            point = 1
        } else if point > allDigits.count {
            allDigits += String(repeating: "0", count: point - allDigits.count)
        }
        var integer = String(allDigits.prefix(point)), decimals = String(allDigits.dropFirst(point))
        while decimals.hasSuffix("0") { decimals.removeLast() }
        while integer.count > 1, integer.hasPrefix("0") { integer.removeFirst() }
        return (negative ? "-" : "") + integer + (decimals.isEmpty ? "" : "." + decimals)
    }

    // MARK: Comparisons (XPath 1.0, section 3.4)

    private mutating func compare(_ comparison: XPathComparison, _ left: Value, _ right: Value) throws(Exhausted) -> Bool {
        switch (left, right) {
        case (.nodes(let a), .nodes(let b)):
            try spend(a.count + b.count)
            let mine = a.map { document.stringValue($0) }, theirs = b.map { document.stringValue($0) }
            switch comparison {
            case .equal: return !Set(mine).isDisjoint(with: theirs)
            case .notEqual:
                let distinctMine = Set(mine), distinctTheirs = Set(theirs)
                guard !distinctMine.isEmpty, !distinctTheirs.isEmpty else { return false }
                return !(distinctMine.count == 1 && distinctMine == distinctTheirs)
            default:
                let x = mine.map(Self.number).filter { !$0.isNaN }, y = theirs.map(Self.number).filter { !$0.isNaN }
                guard let minX = x.min(), let maxX = x.max(), let minY = y.min(), let maxY = y.max() else { return false }
                switch comparison {
                case .less: return minX < maxY
                case .lessOrEqual: return minX <= maxY
                case .greater: return maxX > minY
                default: return maxX >= minY
                }
            }
        case (.nodes(let a), .boolean):
            return compareAtomic(comparison, .boolean(!a.isEmpty), right)
        case (.boolean, .nodes(let b)):
            return compareAtomic(comparison, left, .boolean(!b.isEmpty))
        case (.nodes(let a), _):
            try spend(a.count)
            return a.contains { compareAtomic(comparison, .string(document.stringValue($0)), right) }
        case (_, .nodes(let b)):
            try spend(b.count)
            return b.contains { compareAtomic(comparison, left, .string(document.stringValue($0))) }
        default:
            return compareAtomic(comparison, left, right)
        }
    }

    private func compareAtomic(_ comparison: XPathComparison, _ left: Value, _ right: Value) -> Bool {
        switch comparison {
        case .equal, .notEqual:
            let equal: Bool
            switch (left, right) {
            case (.boolean, _), (_, .boolean): equal = boolean(left) == boolean(right)
            case (.number, _), (_, .number): equal = number(left) == number(right)
            default: equal = string(left) == string(right)
            }
            return comparison == .equal ? equal : !equal
        case .less: return number(left) < number(right)
        case .lessOrEqual: return number(left) <= number(right)
        case .greater: return number(left) > number(right)
        case .greaterOrEqual: return number(left) >= number(right)
        }
    }

    // MARK: Functions (XPath 1.0, section 4)

    private mutating func call(_ function: XPathFunction, _ arguments: [XPathSyntax],
                               _ context: Context) throws(Exhausted) -> Value {
        var values: [Value] = []
        for argument in arguments { values.append(try value(argument, context)) }
        /// The string argument at `index`, or the context node's string value when it is not given.
        func text(_ index: Int) -> String {
            index < values.count ? string(values[index]) : document.stringValue(context.node)
        }
        /// The first node of the node-set argument, or the context node when it is not given.
        func node() -> Int? {
            values.isEmpty ? context.node : nodes(values[0]).first
        }
        switch function {
        case .last: return .number(Double(context.size))
        case .position: return .number(Double(context.position))
        case .count: return .number(Double(nodes(values[0]).count))
        case .localName: return .string(node().map { document.nodes[$0].localName } ?? "")
        case .namespaceURI: return .string(node().flatMap { document.nodes[$0].namespaceURI } ?? "")
        case .name: return .string(node().map { document.nodes[$0].qualifiedName } ?? "")
        case .string: return .string(values.isEmpty ? document.stringValue(context.node) : string(values[0]))
        case .concat:
            try spend(values.count)
            return .string(values.map { string($0) }.joined())
        case .startsWith: return .boolean(text(0).hasPrefix(text(1)))
        case .contains: return .boolean(text(1).isEmpty || text(0).contains(text(1)))
        case .substringBefore:
            let whole = text(0), part = text(1)
            return .string(whole.range(of: part).map { String(whole[..<$0.lowerBound]) } ?? "")
        case .substringAfter:
            let whole = text(0), part = text(1)
            guard !part.isEmpty else { return .string(whole) }
            return .string(whole.range(of: part).map { String(whole[$0.upperBound...]) } ?? "")
        case .substring:
            let scalars = Array(text(0).unicodeScalars)
            let start = Self.round(number(values[1]))
            let end = values.count > 2 ? start + Self.round(number(values[2])) : .infinity
            var result = String.UnicodeScalarView()
            for (offset, scalar) in scalars.enumerated() where Double(offset + 1) >= start && Double(offset + 1) < end {
                result.append(scalar)
            }
            return .string(String(result))
        case .stringLength: return .number(Double(text(0).unicodeScalars.count))
        case .normalizeSpace:
            return .string(text(0).split(whereSeparator: { " \t\n\r".contains($0) }).joined(separator: " "))
        case .translate:
            let from = Array(text(1).unicodeScalars), to = Array(text(2).unicodeScalars)
            var result = String.UnicodeScalarView()
            for scalar in text(0).unicodeScalars {
                guard let position = from.firstIndex(of: scalar) else {
                    result.append(scalar)
                    continue
                }
                if position < to.count { result.append(to[position]) }
            }
            return .string(String(result))
        case .boolean: return .boolean(boolean(values[0]))
        case .not: return .boolean(!boolean(values[0]))
        case .true: return .boolean(true)
        case .false: return .boolean(false)
        case .lang: return .boolean(language(of: context.node).map { Self.language($0, matches: text(0)) } ?? false)
        case .number: return .number(values.isEmpty ? Self.number(document.stringValue(context.node)) : number(values[0]))
        case .sum:
            let selected = nodes(values[0])
            try spend(selected.count)
            return .number(selected.reduce(0) { $0 + Self.number(document.stringValue($1)) })
        case .floor: return .number(number(values[0]).rounded(.down))
        case .ceiling: return .number(number(values[0]).rounded(.up))
        case .round: return .number(Self.round(number(values[0])))
        }
    }

    /// XPath's round(): the nearest integer, halves up; NaN and infinities unchanged.
    static func round(_ number: Double) -> Double {
        guard number.isFinite else { return number }
        let rounded = (number + 0.5).rounded(.down)
        return rounded == 0 && number < 0 ? -0.0 : rounded
    }

    /// The `xml:lang` in effect at `node`.
    private func language(of node: Int) -> String? {
        var current = node
        while current >= 0 {
            for attribute in document.attributes[current] {
                let candidate = document.nodes[attribute]
                if candidate.localName == "lang", candidate.namespaceURI == XMLElementNode.xmlNamespace { return candidate.value }
            }
            current = document.nodes[current].parent
        }
        return nil
    }

    private static func language(_ language: String, matches wanted: String) -> Bool {
        let language = language.lowercased(), wanted = wanted.lowercased()
        return language == wanted || language.hasPrefix(wanted + "-")
    }
}
