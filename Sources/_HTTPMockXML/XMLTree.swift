import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element read by ``parse(_:)``, its namespaces resolved: what `equalToXml` compares and XPath walks.
///
/// Comments and processing instructions are not kept; CDATA sections are text; adjacent text is one child.
/// Text is kept exactly as written, whitespace included (a comparison decides what whitespace means).
package struct XMLElementNode: Sendable, Hashable {
    /// The local name (`Envelope` of `soap:Envelope`).
    var name: String
    /// The namespace the element is in, `nil` for none.
    var namespaceURI: String?
    /// The prefix the document wrote, `nil` for none. Documents that differ only in prefixes are the same document.
    var prefix: String?
    /// In the order the parser reported them (which need not be the document's).
    package var attributes: [XMLAttribute]
    var children: [XMLChild]
    /// The namespace declarations written on this element (`xmlns`, `xmlns:p`, each a name and its URI), in no order:
    /// how WireMock's `xPath` helper prints an element it selected. Not part of what the element is: trees that
    /// differ only in where they declare their namespaces are equal.
    var declared: [XMLAttribute] = []

    package static func == (lhs: XMLElementNode, rhs: XMLElementNode) -> Bool {
        lhs.name == rhs.name && lhs.namespaceURI == rhs.namespaceURI && lhs.prefix == rhs.prefix
            && lhs.attributes == rhs.attributes && lhs.children == rhs.children
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(namespaceURI)
        hasher.combine(prefix)
        hasher.combine(attributes)
        hasher.combine(children)
    }

    /// The name as the document wrote it: `prefix:name`, or `name`.
    var qualifiedName: String { prefix.map { $0 + ":" + name } ?? name }

    /// The text of the element and of all its descendants, in document order (XPath's string value).
    var stringValue: String {
        var text = ""
        appendText(to: &text)
        return text
    }

    private func appendText(to text: inout String) {
        for child in children {
            switch child {
            case .text(let value): text += value
            case .element(let element): element.appendText(to: &text)
            }
        }
    }

    /// The element written back as XML, declaring the namespaces it and its descendants use.
    var markup: String {
        var text = ""
        write(to: &text, inScope: ["xml": XMLElementNode.xmlNamespace])
        return text
    }

    private func write(to text: inout String, inScope: [String: String]) {
        var scope = inScope
        var declarations = ""
        func declare(_ prefix: String?, _ uri: String?) {
            let key = prefix ?? ""
            guard scope[key] != (uri ?? "") else { return }
            if key.isEmpty, uri == nil, scope[key] == nil { return }
            scope[key] = uri ?? ""
            declarations += (prefix.map { " xmlns:" + $0 } ?? " xmlns") + "=\"" + Self.escaped(uri ?? "", quote: true) + "\""
        }
        declare(prefix, namespaceURI)
        for attribute in attributes where attribute.prefix != nil { declare(attribute.prefix, attribute.namespaceURI) }
        text += "<" + qualifiedName + declarations
        for attribute in attributes {
            text += " " + attribute.qualifiedName + "=\"" + Self.escaped(attribute.value, quote: true) + "\""
        }
        guard !children.isEmpty else {
            text += "/>"
            return
        }
        text += ">"
        for child in children {
            switch child {
            case .text(let value): text += Self.escaped(value, quote: false)
            case .element(let element): element.write(to: &text, inScope: scope)
            }
        }
        text += "</" + qualifiedName + ">"
    }

    static func escaped(_ text: String, quote: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quote: result += "&quot;"
            case "\n" where quote: result += "&#10;"
            case "\t" where quote: result += "&#9;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

/// An attribute of an ``XMLElementNode`` (namespace declarations are not attributes).
package struct XMLAttribute: Sendable, Hashable {
    /// The local name.
    var name: String
    /// The namespace, `nil` for none: an unprefixed attribute is in no namespace, whatever the default one.
    var namespaceURI: String?
    var prefix: String?
    package var value: String

    package var qualifiedName: String { prefix.map { $0 + ":" + name } ?? name }
}

/// What an element contains: elements and text, in document order.
package enum XMLChild: Sendable, Hashable {
    case element(XMLElementNode)
    case text(String)
}

/// Why a document could not be read, and where: 1-based line and column, as the parser counted them.
package struct XMLProblem: Error, Sendable, Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var message: String

    package var description: String { "line \(line), column \(column): \(message)" }
}

extension XMLElementNode {
    /// Elements nested deeper than this are refused: deep documents cost stack and time in every walk.
    static let maximumDepth = 256
    /// The namespace the `xml` prefix is bound to without a declaration.
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    /// The namespace of `xmlns` declarations.
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    /// Reads a whole document and returns its root element, or what is wrong with it.
    ///
    /// Bounded: external entities are never fetched, a DOCTYPE that declares entities is refused (so no entity
    /// expands, however nested), and so are documents nested deeper than ``maximumDepth``.
    package static func parse(_ data: Data) -> Result<XMLElementNode, XMLProblem> {
        if let problem = XMLDoctypeScan.entityDeclaration(in: data) { return .failure(problem) }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false // resolved below, the same way on every platform
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let finished = parser.parse()
        if let problem = builder.problem { return .failure(problem) }
        // corelibs Foundation can report success for a document with an error, and no error for an empty one.
        guard finished, let root = builder.root else {
            return .failure(XMLProblem(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1),
                                       message: XMLTreeBuilder.noRoot))
        }
        return .success(root)
    }
}

/// Collects `XMLParser`'s events into an ``XMLElementNode``, resolving prefixes itself.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private struct Open {
        var qualifiedName: String
        var element: XMLElementNode
        var scope: [String: String] // prefix ("" for the default namespace) → URI ("" for none)
    }

    static let noRoot = "the document has no root element (it starts with \"<\", after an optional <?xml …?> declaration)"

    private var stack: [Open] = []
    private var pendingMappings: [(String, String)] = []
    private(set) var root: XMLElementNode?
    private(set) var problem: XMLProblem?

    private func fail(_ parser: XMLParser, _ message: String) {
        guard problem == nil else { return }
        problem = XMLProblem(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), message: message)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard problem == nil else { return }
        guard stack.count < XMLElementNode.maximumDepth else {
            return fail(parser, "elements are nested deeper than \(XMLElementNode.maximumDepth) levels")
        }
        var scope = stack.last?.scope ?? ["xml": XMLElementNode.xmlNamespace]
        // Declarations come as xmlns attributes, or as prefix mappings just before (whichever the platform sends).
        var declarations = attributeDict.filter { $0.key == "xmlns" || $0.key.hasPrefix("xmlns:") }
        for (prefix, uri) in pendingMappings { declarations[prefix.isEmpty ? "xmlns" : "xmlns:" + prefix] = uri }
        pendingMappings = []
        for (name, value) in declarations.sorted(by: { $0.key < $1.key }) {
            if name == "xmlns" {
                scope[""] = value
            } else if name.hasPrefix("xmlns:") {
                let prefix = String(name.dropFirst(6))
                if value.isEmpty { return fail(parser, "the namespace prefix \"\(prefix)\" is declared with an empty URI") }
                if prefix == "xmlns" || (prefix == "xml") != (value == XMLElementNode.xmlNamespace) {
                    return fail(parser, "the namespace prefix \"\(prefix)\" cannot be bound to \"\(value)\"")
                }
                scope[prefix] = value
            }
        }
        guard let (prefix, local) = split(parser, elementName) else { return }
        var element = XMLElementNode(name: local, namespaceURI: nil, prefix: prefix, attributes: [], children: [],
                                     declared: declarations.map { XMLAttribute(name: $0.key, namespaceURI: nil, prefix: nil, value: $0.value) })
        guard let uri = resolve(parser, prefix, in: scope, for: "element <\(elementName)>") else { return }
        element.namespaceURI = uri.isEmpty ? nil : uri
        var seen = Set<String>()
        for (name, value) in attributeDict.sorted(by: { $0.key < $1.key }) where name != "xmlns" && !name.hasPrefix("xmlns:") {
            guard let (attributePrefix, attributeLocal) = split(parser, name) else { return }
            var namespace: String?
            if let attributePrefix {
                guard let uri = resolve(parser, attributePrefix, in: scope, for: "attribute \(name)") else { return }
                namespace = uri
            }
            guard seen.insert((namespace ?? "") + " " + attributeLocal).inserted else {
                return fail(parser, "<\(elementName)> has two attributes named \"\(attributeLocal)\" in the same namespace")
            }
            element.attributes.append(XMLAttribute(name: attributeLocal, namespaceURI: namespace, prefix: attributePrefix,
                                                   value: value))
        }
        stack.append(Open(qualifiedName: elementName, element: element, scope: scope))
    }

    /// `prefix:local` or `local`; anything else is not a name a namespace-aware reader accepts.
    private func split(_ parser: XMLParser, _ name: String) -> (String?, String)? {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (nil, name)
        case 2 where !parts[0].isEmpty && !parts[1].isEmpty: return (String(parts[0]), String(parts[1]))
        default:
            fail(parser, "\"\(name)\" is not a valid name: use one colon at most, between a prefix and a local name")
            return nil
        }
    }

    /// The URI the prefix is bound to ("" for no namespace), or `nil` after failing for an undeclared prefix.
    private func resolve(_ parser: XMLParser, _ prefix: String?, in scope: [String: String], for what: String) -> String? {
        guard let prefix else { return scope[""] ?? "" }
        if prefix == "xmlns" {
            fail(parser, "the prefix \"xmlns\" is reserved for namespace declarations (\(what))")
            return nil
        }
        guard let uri = scope[prefix] else {
            fail(parser, "the namespace prefix \"\(prefix)\" of \(what) is not declared: add xmlns:\(prefix)=\"…\"")
            return nil
        }
        return uri
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        pendingMappings.append((prefix, namespaceURI))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard problem == nil, let open = stack.popLast() else { return }
        if stack.isEmpty {
            if root == nil { root = open.element } else { fail(parser, "the document has more than one root element") }
        } else {
            stack[stack.count - 1].element.children.append(.element(open.element))
        }
    }

    private func append(_ text: String) {
        guard problem == nil, !stack.isEmpty, !text.isEmpty else { return }
        if case .text(let previous)? = stack[stack.count - 1].element.children.last {
            stack[stack.count - 1].element.children[stack[stack.count - 1].element.children.count - 1] = .text(previous + text)
        } else {
            stack[stack.count - 1].element.children.append(.text(text))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { append(string) }

    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) { append(whitespaceString) }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard let text = String(data: CDATABlock, encoding: .utf8) else {
            return fail(parser, "a CDATA section is not valid UTF-8")
        }
        append(text)
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail(parser, "the DOCTYPE declares the entity \"\(name)\"; entities are not expanded: remove the declaration")
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
                systemID: String?) {
        fail(parser, "the DOCTYPE declares the external entity \"\(name)\"; entities are not expanded: remove the declaration")
    }

    /// Never fetched: an undeclared entity is then an error the parser reports.
    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard problem == nil else { return }
        let code = (parseError as NSError).code
        problem = XMLProblem(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1),
                             message: Self.explanation(ofParserError: code))
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {}

    /// `XMLParser.ErrorCode`s (libxml2's numbering) in words; Foundation's own descriptions only give the number.
    static func explanation(ofParserError code: Int) -> String {
        switch code {
        case 3, 4: XMLTreeBuilder.noRoot
        case 5, 86: "there is more after the root element ends (one root element only)"
        case 6, 7, 8: "an invalid character reference (&#…;)"
        case 9: "a character that XML does not allow"
        case 22, 68: "a name is missing or starts with a character a name cannot start with"
        case 23: "an entity reference is missing its \";\" (write & as &amp;)"
        case 26, 27: "an undeclared entity: only &lt; &gt; &amp; &quot; &apos; and character references are known (write & as &amp;)"
        case 31, 32, 79, 81: "the document's encoding is unknown or does not match its bytes"
        case 33, 34, 39, 40, 41: "an attribute value must be quoted with \" or '"
        case 38: "\"<\" is not allowed in an attribute value (write it as &lt;)"
        case 42: "an attribute is written twice on one element"
        case 45: "a comment is not closed with -->"
        case 47: "a processing instruction is not closed with ?>"
        case 57: "the <?xml …?> declaration is malformed"
        case 61: "the DOCTYPE is not closed"
        case 63: "a CDATA section is not closed with ]]>"
        case 64: "a processing instruction named \"xml\" is allowed only at the very start of the document"
        case 65: "a space is missing (between attributes?)"
        case 73: "a tag is not closed with \">\""
        case 75: "an attribute is missing its \"=\""
        case 76: "an end tag does not match the start tag it closes"
        case 77: "the document ends before all its elements are closed"
        case 85: "the elements are not properly nested"
        case 200: "the prefix xml or xmlns, or the namespace of xml, is misused"
        case 201: "a namespace prefix is not declared: add xmlns:prefix=\"…\" to the element or an ancestor"
        case 202, 205: "a name is not a valid qualified name: one colon at most, between a prefix and a local name"
        case 203: "an attribute is written twice in the same namespace"
        case 204: "a namespace prefix is declared with an empty URI"
        default: "not well-formed XML (XMLParser error \(code))"
        }
    }
}

/// Finds an entity declaration in a document's DOCTYPE before any parser sees it, so none can ever expand.
private enum XMLDoctypeScan {
    /// The problem to report when the prolog holds `<!DOCTYPE … [ … <!ENTITY …> … ]>`, otherwise `nil`.
    static func entityDeclaration(in data: Data) -> XMLProblem? {
        guard let bytes = asciiCompatibleBytes(data) else {
            return XMLProblem(line: 1, column: 1, message: "the document is neither UTF-8 nor valid UTF-16/UTF-32")
        }
        var scanner = Scanner(bytes: bytes)
        return scanner.scanProlog()
    }

    /// The bytes themselves when "<" is one byte, else the text re-encoded as UTF-8 (for scanning only).
    private static func asciiCompatibleBytes(_ data: Data) -> [UInt8]? {
        let head = Array(data.prefix(4))
        let encoding: String.Encoding? = switch head.count >= 4 ? (head[0], head[1], head[2], head[3]) : (1, 1, 1, 1) {
        case (0, 0, 0xFE, 0xFF), (0, 0, 0, 0x3C): .utf32BigEndian
        case (0xFF, 0xFE, 0, 0), (0x3C, 0, 0, 0): .utf32LittleEndian
        case (0xFE, 0xFF, _, _), (0, 0x3C, _, _): .utf16BigEndian
        case (0xFF, 0xFE, _, _), (0x3C, 0, _, _): .utf16LittleEndian
        default: nil
        }
        guard let encoding else { return Array(data) }
        return String(data: data, encoding: encoding).map { Array($0.utf8) }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        private func has(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            guard position + pattern.count <= bytes.count else { return false }
            return bytes[position..<position + pattern.count].elementsEqual(pattern)
        }

        private mutating func skip(past terminator: String) {
            let pattern = Array(terminator.utf8)
            while index < bytes.count, !has(terminator, at: index) { index += 1 }
            index = min(index + pattern.count, bytes.count)
        }

        private func problem(_ message: String) -> XMLProblem {
            let before = bytes[..<index]
            let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            let column = index - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return XMLProblem(line: line, column: column, message: message)
        }

        /// Walks comments, processing instructions and whitespace up to the root element, entering a DOCTYPE.
        mutating func scanProlog() -> XMLProblem? {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                case 0x3C where has("<?", at: index): skip(past: "?>")
                case 0x3C where has("<!--", at: index): skip(past: "-->")
                case 0x3C where has("<!DOCTYPE", at: index): return scanDoctype()
                default: return nil
                }
            }
            return nil
        }

        private mutating func scanDoctype() -> XMLProblem? {
            index += 9
            var quote: UInt8?
            var inSubset = false
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                    index += 1
                    continue
                }
                switch byte {
                case 0x22, 0x27: quote = byte
                case 0x5B: inSubset = true
                case 0x5D: inSubset = false
                case 0x3E where !inSubset: return nil
                case 0x3C where inSubset && has("<!--", at: index):
                    skip(past: "-->")
                    continue
                case 0x3C where inSubset && has("<?", at: index):
                    skip(past: "?>")
                    continue
                case 0x3C where inSubset && has("<!ENTITY", at: index):
                    return problem("the DOCTYPE declares entities, which are never expanded: remove the <!ENTITY …> "
                                   + "declarations (write characters as &#…; references instead)")
                case 0x25 where inSubset:
                    return problem("the DOCTYPE uses parameter entities, which are never expanded: remove them")
                default: break
                }
                index += 1
            }
            return nil
        }
    }
}
