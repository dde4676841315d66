import Foundation
import _HTTPMockRegex

/// XML equality by meaning, as WireMock's `equalToXml` decides it.
///
/// - Whitespace-only text between elements is ignored, and text is compared trimmed; CDATA is text.
/// - Attribute order is ignored; elements and attributes are compared by local name and namespace URI, so
///   documents that bind different prefixes to the same namespaces are equal.
/// - Child elements with different names may come in any order. Children with the same name are compared in order
///   (the first with the first…), unless `ignoresOrderOfSameNode`, when each may match any of them.
/// - Comments, processing instructions, the XML declaration and the DOCTYPE are not compared.
/// - With placeholders on, an expected text or attribute value `${xmlunit.ignore}` accepts any value (or none),
///   `${xmlunit.isNumber}` a number, `${xmlunit.matchesRegex(regex)}` a match of the regular expression
///   anywhere in the value (as XMLUnit finds it for WireMock).
/// - Exemptions (XMLUnit's comparison type names, see ``Exemption``) turn single comparisons off.
package struct XMLComparison: Sendable, Hashable {
    /// The comparisons that can be exempted, by their XMLUnit names.
    enum Exemption: String, Sendable, CaseIterable {
        /// Element local names (children are then paired by position).
        case elementTagName = "ELEMENT_TAG_NAME"
        /// Namespace URIs of elements and attributes.
        case namespaceURI = "NAMESPACE_URI"
        /// Namespace prefixes: never compared (only the URIs they stand for are).
        case namespacePrefix = "NAMESPACE_PREFIX"
        /// The value of `xsi:schemaLocation`.
        case schemaLocation = "SCHEMA_LOCATION"
        /// The value of `xsi:noNamespaceSchemaLocation`.
        case noNamespaceSchemaLocation = "NO_NAMESPACE_SCHEMA_LOCATION"
        /// Text values.
        case textValue = "TEXT_VALUE"
        /// Attribute values (the attributes must still be there).
        case attributeValue = "ATTR_VALUE"
        /// The number of attributes of an element.
        case elementAttributeCount = "ELEMENT_NUM_ATTRIBUTES"
        /// Whether each attribute of one element is on the other.
        case attributeLookup = "ATTR_NAME_LOOKUP"
        /// The number of children of an element.
        case childCount = "CHILD_NODELIST_LENGTH"
        /// Whether each child of one element has a counterpart in the other. With ``childCount`` too, the actual
        /// document may have children the expected one lacks (and the other way round).
        case childLookup = "CHILD_LOOKUP"
        /// The order of children with different names: never compared.
        case childSequence = "CHILD_NODELIST_SEQUENCE"
        /// What is never compared here anyway: accepted, so WireMock stubs that exempt them load.
        case processingInstructionTarget = "PROCESSING_INSTRUCTION_TARGET"
        case processingInstructionData = "PROCESSING_INSTRUCTION_DATA"
        case commentValue = "COMMENT_VALUE"
        case xmlVersion = "XML_VERSION"
        case xmlStandalone = "XML_STANDALONE"
        case xmlEncoding = "XML_ENCODING"
        case hasDoctypeDeclaration = "HAS_DOCTYPE_DECLARATION"
        case doctypeName = "DOCTYPE_NAME"
        case doctypePublicID = "DOCTYPE_PUBLIC_ID"
        case doctypeSystemID = "DOCTYPE_SYSTEM_ID"
        case attributeValueExplicitlySpecified = "ATTR_VALUE_EXPLICITLY_SPECIFIED"
    }

    /// Comparisons XMLUnit can exempt that this comparison cannot honour, and why.
    static let refusedExemptions = [
        "NODE_TYPE": "NODE_TYPE cannot be exempted: an element is never compared with text here "
            + "(CDATA and text already compare equal); remove it from exemptedComparisons",
    ]

    /// Steps one comparison may take (pairs of nodes compared) before it gives up and the documents differ.
    static let stepBudget = 1_000_000
    /// How many differences ``differences(_:)`` lists at most.
    static let reportedDifferences = 5

    /// A value the expected document asks for.
    enum Expectation: Sendable, Hashable {
        case literal(String)
        case ignore
        case number
        case regex(String)
    }

    struct ExpectedAttribute: Sendable, Hashable {
        var name: String
        var namespaceURI: String?
        var prefix: String?
        var value: Expectation
        var qualifiedName: String { prefix.map { $0 + ":" + name } ?? name }
    }

    indirect enum ExpectedChild: Sendable, Hashable {
        case element(ExpectedElement)
        case text(Expectation)
    }

    struct ExpectedElement: Sendable, Hashable {
        var name: String
        var namespaceURI: String?
        var prefix: String?
        var attributes: [ExpectedAttribute]
        var children: [ExpectedChild]
        var qualifiedName: String { prefix.map { $0 + ":" + name } ?? name }
    }

    let expected: ExpectedElement
    let exempted: Set<Exemption>
    let ignoresOrderOfSameNode: Bool
    /// Steps a comparison may take before it gives up (``stepBudget`` unless a test lowers it).
    var budget = XMLComparison.stepBudget

    /// - Parameters:
    ///   - expected: the expected document.
    ///   - placeholders: the opening and closing delimiters of placeholders, as regular expressions (WireMock's
    ///     defaults are `\$\{` and `\}`), or `nil` when placeholders are off.
    ///   - exempted: XMLUnit comparison type names (`"TEXT_VALUE"`…) to turn off.
    ///   - ignoresOrderOfSameNode: whether children with the same name may come in any order.
    package init(expected: String, placeholders: (opening: String, closing: String)?, exempted: Set<String>,
         ignoresOrderOfSameNode: Bool) throws(XMLPatternError) {
        var exemptions = Set<Exemption>()
        for name in exempted.sorted() {
            if let exemption = Exemption(rawValue: name) {
                exemptions.insert(exemption)
            } else if let reason = Self.refusedExemptions[name] {
                throw XMLPatternError("equalToXml: " + reason)
            } else {
                let known = Exemption.allCases.map(\.rawValue).joined(separator: ", ")
                let hint = Exemption(rawValue: name.uppercased()) != nil ? " (write it in capitals)" : ""
                throw XMLPatternError(
                                    "equalToXml: \"\(name)\" in exemptedComparisons is not a comparison type\(hint); use one of \(known)")
            }
        }
        let root: XMLElementNode
        switch XMLElementNode.parse(Data(expected.utf8)) {
        case .success(let element): root = element
        case .failure(let problem):
            throw XMLPatternError("equalToXml: the expected document is not well-formed XML at \(problem); "
                                + "fix the expected XML (escape & and < in text as &amp; and &lt;)")
        }
        var reader = try PlaceholderReader(placeholders)
        self.expected = try reader.element(root, path: "/" + root.qualifiedName)
        self.exempted = exemptions
        self.ignoresOrderOfSameNode = ignoresOrderOfSameNode
    }

    /// Whether `actual` is an XML document equal to the expected one.
    package func matches(_ actual: Data) -> Bool {
        guard case .success(let root) = XMLElementNode.parse(actual) else { return false }
        var walk = Walk(comparison: self, limit: 1)
        walk.compare(expected, root, path: "/" + expected.qualifiedName)
        return walk.differences.isEmpty
    }

    /// The first few differences between the expected document and `actual` (empty when they are equal), each
    /// with where it is: for a near-miss report.
    func differences(_ actual: Data) -> [String] {
        let root: XMLElementNode
        switch XMLElementNode.parse(actual) {
        case .success(let element): root = element
        case .failure(let problem): return ["the body is not well-formed XML: \(problem)"]
        }
        var walk = Walk(comparison: self, limit: Self.reportedDifferences)
        walk.compare(expected, root, path: "/" + expected.qualifiedName)
        return walk.differences
    }
}

// MARK: - Reading the expected document

extension XMLComparison {
    /// Turns the expected document's values into ``Expectation``s, reading placeholders when they are on.
    private struct PlaceholderReader {
        let pattern: NSRegularExpression?

        init(_ placeholders: (opening: String, closing: String)?) throws(XMLPatternError) {
            guard let placeholders else {
                pattern = nil
                return
            }
            for (name, delimiter) in [("placeholderOpeningDelimiterRegex", placeholders.opening),
                                      ("placeholderClosingDelimiterRegex", placeholders.closing)] {
                if delimiter.isEmpty {
                    throw XMLPatternError("equalToXml: \(name) is empty; give a regular expression such as \\$\\{")
                }
                if (try? NSRegularExpression(pattern: JavaRegex.icu(delimiter))) == nil {
                    throw XMLPatternError("equalToXml: \(name) \"\(delimiter)\" is not a valid regular "
                                        + "expression (escape [ { $ with a backslash)")
                }
            }
            let source = "\\A(?:" + JavaRegex.icu(placeholders.opening) + ")\\s*xmlunit\\.([A-Za-z]+)(?:\\((.*)\\))?\\s*(?:"
                + JavaRegex.icu(placeholders.closing) + ")\\z"
            do { pattern = try NSRegularExpression(pattern: source, options: [.dotMatchesLineSeparators]) } catch {
                throw XMLPatternError("equalToXml: the placeholder delimiters do not make a valid "
                                    + "regular expression together: \(source)")
            }
        }

        mutating func element(_ node: XMLElementNode, path: String) throws(XMLPatternError) -> ExpectedElement {
            var attributes: [ExpectedAttribute] = []
            for attribute in node.attributes {
                attributes.append(ExpectedAttribute(name: attribute.name, namespaceURI: attribute.namespaceURI,
                                                    prefix: attribute.prefix,
                                                    value: try expectation(attribute.value, at: path + "/@" + attribute.qualifiedName)))
            }
            var children: [ExpectedChild] = []
            for child in XMLComparison.normalized(node.children) {
                switch child {
                case .text(let text): children.append(.text(try expectation(text, at: path + "/text()")))
                case .element(let element):
                    children.append(.element(try self.element(element, path: path + "/" + element.qualifiedName)))
                }
            }
            return ExpectedElement(name: node.name, namespaceURI: node.namespaceURI, prefix: node.prefix,
                                   attributes: attributes, children: children)
        }

        private func expectation(_ text: String, at path: String) throws(XMLPatternError) -> Expectation {
            let trimmed = text.trimmingCharacters(in: XMLComparison.whitespace)
            let range = NSRange(trimmed.startIndex..., in: trimmed)
            guard let pattern, let match = pattern.firstMatch(in: trimmed, range: range),
                  let keywordRange = Range(match.range(at: 1), in: trimmed) else { return .literal(trimmed) }
            let keyword = String(trimmed[keywordRange])
            let argument = Range(match.range(at: 2), in: trimmed).map { String(trimmed[$0]) }
            switch (keyword, argument) {
            case ("ignore", nil): return .ignore
            case ("isNumber", nil): return .number
            case ("matchesRegex", let regex?):
                guard (try? NSRegularExpression(pattern: JavaRegex.icu(regex))) != nil else {
                    throw XMLPatternError("equalToXml: the placeholder at \(path) has the regular expression "
                                        + "\"\(regex)\", which does not compile")
                }
                return .regex(regex)
            case ("matchesRegex", nil):
                throw XMLPatternError("equalToXml: the placeholder xmlunit.matchesRegex at \(path) needs "
                                    + "its regular expression in parentheses: xmlunit.matchesRegex(^[0-9]+$)")
            case ("ignore", _?), ("isNumber", _?):
                throw XMLPatternError("equalToXml: the placeholder xmlunit.\(keyword) at \(path) takes no "
                                    + "argument; remove the parentheses")
            default:
                throw XMLPatternError("equalToXml: the placeholder xmlunit.\(keyword) at \(path) is not "
                                    + "supported; use xmlunit.ignore, xmlunit.isNumber or xmlunit.matchesRegex(…)")
            }
        }
    }

    /// XML's whitespace: space, tab, line feed, carriage return.
    static let whitespace = CharacterSet(charactersIn: " \t\n\r")

    /// Children as compared: text trimmed, whitespace-only text gone.
    static func normalized(_ children: [XMLChild]) -> [XMLChild] {
        children.compactMap { child in
            guard case .text(let text) = child else { return child }
            let trimmed = text.trimmingCharacters(in: whitespace)
            return trimmed.isEmpty ? nil : .text(trimmed)
        }
    }
}

// MARK: - Comparing

extension XMLComparison {
    private static let schemaInstance = "http://www.w3.org/2001/XMLSchema-instance"

    /// One comparison: collects differences up to `limit`, within ``stepBudget``.
    private struct Walk {
        let comparison: XMLComparison
        let limit: Int
        var differences: [String] = []
        var steps = 0
        var exhausted = false

        init(comparison: XMLComparison, limit: Int) {
            self.comparison = comparison
            self.limit = limit
        }

        var done: Bool { differences.count >= limit || exhausted }

        func exempts(_ exemption: Exemption) -> Bool { comparison.exempted.contains(exemption) }

        mutating func report(_ difference: String) {
            if differences.count < limit { differences.append(difference) }
        }

        /// Counts a step; past the budget, the comparison stops with a difference.
        mutating func step() -> Bool {
            steps += 1
            guard steps > comparison.budget else { return true }
            if !exhausted {
                exhausted = true
                differences.append("the comparison was stopped after \(comparison.budget) steps: "
                                   + "the documents are too large to compare")
            }
            return false
        }

        // MARK: Elements

        mutating func compare(_ expected: ExpectedElement, _ actual: XMLElementNode, path: String) {
            guard step() else { return }
            if !exempts(.elementTagName), expected.name != actual.name {
                report("\(path): expected the element <\(expected.qualifiedName)> but was <\(actual.qualifiedName)>")
            }
            if !exempts(.namespaceURI), expected.namespaceURI != actual.namespaceURI {
                report("\(path): expected the element in \(describe(expected.namespaceURI)) but it is in "
                       + describe(actual.namespaceURI))
            }
            guard !done else { return }
            compareAttributes(expected, actual, path: path)
            guard !done else { return }
            compareChildren(expected.children, XMLComparison.normalized(actual.children), path: path)
        }

        private func describe(_ namespace: String?) -> String {
            namespace.map { "the namespace \"\($0)\"" } ?? "no namespace"
        }

        // MARK: Attributes

        private func key(_ name: String, _ namespace: String?) -> String {
            exempts(.namespaceURI) ? name : (namespace ?? "") + "\u{0}" + name
        }

        private func schemaLocationExemption(_ name: String, _ namespace: String?) -> Exemption? {
            guard namespace == XMLComparison.schemaInstance else { return nil }
            switch name {
            case "schemaLocation": return .schemaLocation
            case "noNamespaceSchemaLocation": return .noNamespaceSchemaLocation
            default: return nil
            }
        }

        private mutating func compareAttributes(_ expected: ExpectedElement, _ actual: XMLElementNode, path: String) {
            // xsi:schemaLocation and xsi:noNamespaceSchemaLocation are compared on their own (SCHEMA_LOCATION…), not
            // as attributes: they count neither in ATTR_NAME_LOOKUP nor in ELEMENT_NUM_ATTRIBUTES.
            var actualByKey: [String: XMLAttribute] = [:]
            var actualCount = 0
            for attribute in actual.attributes {
                if let exemption = schemaLocationExemption(attribute.name, attribute.namespaceURI) {
                    if !exempts(exemption),
                       !expected.attributes.contains(where: { $0.name == attribute.name && $0.namespaceURI == attribute.namespaceURI }) {
                        report("\(path)/@\(attribute.qualifiedName): unexpected (expected no \(attribute.name))")
                    }
                    continue
                }
                actualByKey[key(attribute.name, attribute.namespaceURI)] = attribute
                actualCount += 1
            }
            var expectedCount = 0
            var matched = Set<String>()
            for attribute in expected.attributes {
                let location = "\(path)/@\(attribute.qualifiedName)"
                let name = key(attribute.name, attribute.namespaceURI)
                if let exemption = schemaLocationExemption(attribute.name, attribute.namespaceURI) {
                    guard !exempts(exemption) else { continue }
                    let found = actual.attributes.first { $0.name == attribute.name && $0.namespaceURI == attribute.namespaceURI }
                    if let value = found?.value {
                        if let problem = check(attribute.value, value) { report("\(location): \(problem)") }
                    } else if attribute.value != .ignore {
                        report("\(location): missing")
                    }
                    continue
                }
                guard let found = actualByKey[name] else {
                    if attribute.value != .ignore {
                        expectedCount += 1
                        if !exempts(.attributeLookup) { report("\(location): missing") }
                    }
                    continue
                }
                expectedCount += 1
                matched.insert(name)
                if !exempts(.attributeValue), let problem = check(attribute.value, found.value) {
                    report("\(location): \(problem)")
                }
            }
            if !exempts(.attributeLookup) {
                for attribute in actual.attributes.sorted(by: { $0.qualifiedName < $1.qualifiedName })
                where schemaLocationExemption(attribute.name, attribute.namespaceURI) == nil
                    && !matched.contains(key(attribute.name, attribute.namespaceURI)) {
                    report("\(path)/@\(attribute.qualifiedName): unexpected attribute (value \"\(attribute.value)\")")
                }
            } else if !exempts(.elementAttributeCount), expectedCount != actualCount {
                report("\(path): expected \(expectedCount) attributes but found \(actualCount)")
            }
        }

        // MARK: Values

        /// Why `actual` does not meet `expectation`, or `nil` when it does.
        private func check(_ expectation: Expectation, _ actual: String) -> String? {
            let value = actual.trimmingCharacters(in: XMLComparison.whitespace)
            switch expectation {
            case .ignore: return nil
            case .literal(let text): return text == value ? nil : "expected \"\(text)\" but was \"\(value)\""
            case .number: return XMLComparison.isNumber(value) ? nil : "expected a number but was \"\(value)\""
            case .regex(let pattern):
                // A match anywhere in the value, as XMLUnit's placeholder finds it for WireMock.
                guard let regex = try? NSRegularExpression(pattern: JavaRegex.icu(pattern)) else {
                    return "the regular expression \(pattern) does not compile"
                }
                return regex.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) == nil
                    ? "expected a match of \(pattern) but was \"\(value)\"" : nil
            }
        }

        // MARK: Children

        private func elementKey(_ name: String, _ namespace: String?) -> String {
            "e" + (exempts(.elementTagName) ? (exempts(.namespaceURI) ? "" : namespace ?? "") : key(name, namespace))
        }

        private mutating func compareChildren(_ expected: [ExpectedChild], _ actual: [XMLChild], path: String) {
            let paths = childPaths(path, expected)
            // Group both sides by kind and name: text with text, each element name with itself.
            var expectedGroups: [String: [Int]] = [:], actualGroups: [String: [Int]] = [:]
            var order: [String] = []
            for (index, child) in expected.enumerated() {
                let key: String
                switch child {
                case .text: key = "#text"
                case .element(let element): key = elementKey(element.name, element.namespaceURI)
                }
                if expectedGroups[key] == nil { order.append(key) }
                expectedGroups[key, default: []].append(index)
            }
            for (index, child) in actual.enumerated() {
                let key: String
                switch child {
                case .text: key = "#text"
                case .element(let element): key = elementKey(element.name, element.namespaceURI)
                }
                if expectedGroups[key] == nil, actualGroups[key] == nil { order.append(key) }
                actualGroups[key, default: []].append(index)
            }
            var missing: [Int] = [], unexpected: [Int] = []
            var expectedCount = expected.count
            for key in order {
                let mine = expectedGroups[key] ?? [], theirs = actualGroups[key] ?? []
                let pairs: [(Int, Int)]
                if ignoresOrderOfSameNode(key), mine.count > 0, theirs.count > 0 {
                    pairs = bestPairs(mine.map { expected[$0] }, theirs.map { actual[$0] }).map { (mine[$0.0], theirs[$0.1]) }
                } else {
                    pairs = Array(zip(mine, theirs))
                }
                let pairedExpected = Set(pairs.map(\.0)), pairedActual = Set(pairs.map(\.1))
                for (mineIndex, theirIndex) in pairs {
                    guard !done else { return }
                    compare(expected[mineIndex], actual[theirIndex], path: paths[mineIndex])
                }
                for index in mine where !pairedExpected.contains(index) {
                    // An ignored text that is not there is not missing.
                    if case .text(.ignore) = expected[index] { expectedCount -= 1 } else { missing.append(index) }
                }
                unexpected += theirs.filter { !pairedActual.contains($0) }
            }
            guard !done else { return }
            if !exempts(.childLookup) {
                for index in missing { report("\(paths[index]): missing (\(describe(expected[index])))") }
                for index in unexpected.sorted() { report("\(path): unexpected \(describe(actual[index]))") }
            } else if !exempts(.childCount), expectedCount != actual.count {
                report("\(path): expected \(expectedCount) child nodes but found \(actual.count)")
            }
        }

        private func ignoresOrderOfSameNode(_ key: String) -> Bool {
            comparison.ignoresOrderOfSameNode && key != "#text"
        }

        private mutating func compare(_ expected: ExpectedChild, _ actual: XMLChild, path: String) {
            switch (expected, actual) {
            case (.element(let mine), .element(let theirs)):
                compare(mine, theirs, path: path)
            case (.text(let expectation), .text(let text)):
                guard step() else { return }
                if !exempts(.textValue), let problem = check(expectation, text) { report("\(path): \(problem)") }
            default:
                report("\(path): expected \(describe(expected)) but found \(describe(actual))")
            }
        }

        /// Where each expected child is: `/a/b[2]` when several siblings share its name, `/a/text()` for text.
        private func childPaths(_ path: String, _ children: [ExpectedChild]) -> [String] {
            func name(_ child: ExpectedChild) -> String? {
                guard case .element(let element) = child else { return nil }
                return (element.namespaceURI ?? "") + " " + element.name
            }
            var total: [String: Int] = [:], seen: [String: Int] = [:]
            for child in children { if let name = name(child) { total[name, default: 0] += 1 } }
            return children.map { child in
                guard case .element(let element) = child, let name = name(child) else { return path + "/text()" }
                seen[name, default: 0] += 1
                return path + "/" + element.qualifiedName + (total[name]! > 1 ? "[\(seen[name]!)]" : "")
            }
        }

        private func describe(_ child: ExpectedChild) -> String {
            switch child {
            case .element(let element):
                "the element <\(element.qualifiedName)>" + (element.namespaceURI.map { " in \"\($0)\"" } ?? "")
            case .text(.literal(let text)): "the text \"\(text)\""
            case .text: "a text"
            }
        }

        private func describe(_ child: XMLChild) -> String {
            switch child {
            case .element(let element):
                "element <\(element.qualifiedName)>" + (element.namespaceURI.map { " in \"\($0)\"" } ?? "")
            case .text(let text): "text \"\(text)\""
            }
        }

        // MARK: Pairing in any order

        /// A largest set of (expected, actual) pairs that compare equal, then the leftovers paired in order, so
        /// their differences are reported. Identical subtrees are paired first (by ``fingerprint(_:)``, in linear
        /// time); augmenting paths then pair the rest, and may re-pair those.
        private mutating func bestPairs(_ expected: [ExpectedChild], _ actual: [XMLChild]) -> [(Int, Int)] {
            var equal: [Int: Bool] = [:]
            var owner = [Int?](repeating: nil, count: actual.count)
            var paired = [Bool](repeating: false, count: expected.count)
            var identical: [String: [Int]] = [:]
            for theirs in actual.indices.reversed() {
                guard case .element(let element) = actual[theirs] else { continue }
                identical[fingerprint(element), default: []].append(theirs)
            }
            for mine in expected.indices {
                guard case .element(let element) = expected[mine], let print = fingerprint(element),
                      let theirs = identical[print]?.popLast() else { continue }
                owner[theirs] = mine
                paired[mine] = true
                equal[mine * actual.count + theirs] = true
            }
            guard !exhausted else { return [] }
            func equals(_ mine: Int, _ theirs: Int, _ walk: inout Walk) -> Bool {
                let key = mine * actual.count + theirs
                if let known = equal[key] { return known }
                var trial = Walk(comparison: walk.comparison, limit: 1)
                trial.steps = walk.steps
                trial.compare(expected[mine], actual[theirs], path: "")
                walk.steps = trial.steps
                if trial.exhausted { _ = walk.step() }
                let result = trial.differences.isEmpty
                equal[key] = result
                return result
            }
            // visited[theirs] == round: already tried while looking for a pair for this round's expected node.
            var visited = [Int](repeating: -1, count: actual.count)
            func augment(_ mine: Int, _ round: Int, _ walk: inout Walk) -> Bool {
                for theirs in actual.indices where visited[theirs] != round && !walk.exhausted && equals(mine, theirs, &walk) {
                    visited[theirs] = round
                    if owner[theirs] == nil || augment(owner[theirs]!, round, &walk) {
                        owner[theirs] = mine
                        return true
                    }
                }
                return false
            }
            for mine in expected.indices where !paired[mine] {
                if augment(mine, mine, &self) { paired[mine] = true }
                if exhausted { return [] }
            }
            var pairs = owner.enumerated().compactMap { theirs, mine in mine.map { ($0, theirs) } }
            let pairedMine = Set(pairs.map(\.0))
            let unpairedMine = expected.indices.filter { !pairedMine.contains($0) }
            let unpairedTheirs = actual.indices.filter { owner[$0] == nil }
            pairs += zip(unpairedMine, unpairedTheirs).map { ($0, $1) }
            return pairs.sorted { $0.0 < $1.0 }
        }

        // MARK: Fingerprints

        /// A text two subtrees share only when nothing this comparison looks at differs between them: names,
        /// namespaces, trimmed values, children (the order of same-named ones unless it is ignored). `nil` for an
        /// expected subtree with placeholders, which only a comparison can test.
        private mutating func fingerprint(_ element: ExpectedElement) -> String? {
            guard step() else { return nil }
            var attributes: [String] = []
            for attribute in element.attributes {
                guard case .literal(let value) = attribute.value else { return nil }
                attributes.append(Self.field(attribute.namespaceURI ?? "") + Self.field(attribute.name) + Self.field(value))
            }
            var children: [(String, String)] = []
            for child in element.children {
                switch child {
                case .text(.literal(let text)): children.append(("#text", Self.field(text)))
                case .text: return nil
                case .element(let inner):
                    guard let print = fingerprint(inner) else { return nil }
                    children.append((Self.field(inner.namespaceURI ?? "") + Self.field(inner.name), print))
                }
            }
            return fingerprint(element.namespaceURI, element.name, attributes, children)
        }

        private mutating func fingerprint(_ element: XMLElementNode) -> String {
            guard step() else { return "" }
            let attributes = element.attributes.map {
                Self.field($0.namespaceURI ?? "") + Self.field($0.name)
                    + Self.field($0.value.trimmingCharacters(in: XMLComparison.whitespace))
            }
            var children: [(String, String)] = []
            for child in XMLComparison.normalized(element.children) {
                switch child {
                case .text(let text): children.append(("#text", Self.field(text)))
                case .element(let inner):
                    children.append((Self.field(inner.namespaceURI ?? "") + Self.field(inner.name), fingerprint(inner)))
                }
            }
            return fingerprint(element.namespaceURI, element.name, attributes, children)
        }

        private func fingerprint(_ namespace: String?, _ name: String, _ attributes: [String],
                                 _ children: [(key: String, print: String)]) -> String {
            // Children grouped by name, each group in document order (or sorted, when that order is ignored).
            var groups: [String: [String]] = [:]
            for child in children { groups[child.key, default: []].append(child.print) }
            let body = groups.keys.sorted().map { key in
                let members = comparison.ignoresOrderOfSameNode && key != "#text" ? groups[key]!.sorted() : groups[key]!
                return key + members.joined()
            }
            return "<" + Self.field(namespace ?? "") + Self.field(name) + attributes.sorted().joined() + ">"
                + body.joined() + "/"
        }

        /// A value with its length in front, so no two sequences of fields run together alike.
        private static func field(_ text: String) -> String { "\(text.utf8.count):" + text }
    }

    /// Whether the text reads as a decimal number (`12`, `-1.5`, `.5`, `2e10`), as `${xmlunit.isNumber}` asks.
    static func isNumber(_ text: String) -> Bool {
        guard !text.isEmpty, text.allSatisfy({ "0123456789+-.eE".contains($0) }), let value = Double(text) else {
            return false
        }
        return value.isFinite
    }
}
