import Foundation
import _HTTPMockJSON

/// `{{math a op b}}`: whole numbers stay whole; any decimal makes a decimal. A quotient keeps the dividend's digits
/// after the point, rounded half away from zero, as WireMock's `BigDecimal` division does: `7 / 2` is `4`,
/// `1.0 / 3` is `0.3`, `'9.00' / 4` is `2.25`.
package enum TemplateMath {
    enum Operator: String, Sendable {
        case plus = "+", minus = "-", times = "*", divide = "/", remainder = "%"
    }

    /// `dividendScale`: the digits after the point of the dividend as written (``TemplateNumber/scale(ofDecimal:)``).
    static func apply(_ a: TemplateNumber, _ operation: Operator, _ b: TemplateNumber, dividendScale: Int? = nil) -> TemplateNumber? {
        if operation == .divide {
            let scale: Int
            if let dividendScale { scale = dividendScale }
            else if case .double(let x) = a { scale = TemplateNumber.scale(ofDecimal: Substring(TemplateNumber.javaText(of: x))) }
            else { scale = 0 }
            return divide(a, scale: scale, by: b)
        }
        if case .int(let x) = a, case .int(let y) = b {
            switch operation {
            case .plus: let (sum, overflow) = x.addingReportingOverflow(y); if !overflow { return .int(sum) }
            case .minus: let (difference, overflow) = x.subtractingReportingOverflow(y); if !overflow { return .int(difference) }
            case .times: let (product, overflow) = x.multipliedReportingOverflow(by: y); if !overflow { return .int(product) }
            case .divide: break
            case .remainder:
                guard y != 0 else { return nil }
                return .int(x.remainderReportingOverflow(dividingBy: y).partialValue)
            }
        }
        let x = a.double, y = b.double
        // Sums and products of decimals are worked out in decimal, as WireMock's BigDecimal does: 0.1 + 0.2 is 0.3.
        // The result is read back from its decimal text: Foundation's own conversion to a double can miss the nearest one
        // (0.000001 became 1.0000000000000002E-6).
        let posix = Locale(identifier: "en_US_POSIX")
        if operation != .divide, operation != .remainder,
           let first = Decimal(string: "\(x)", locale: posix), let second = Decimal(string: "\(y)", locale: posix) {
            let result = operation == .plus ? first + second : operation == .minus ? first - second : first * second
            if let value = Double(result.description), value.isFinite { return .double(value) }
        }
        switch operation {
        case .plus: return .double(x + y)
        case .minus: return .double(x - y)
        case .times: return .double(x * y)
        case .divide: return y == 0 ? nil : .double(x / y)
        case .remainder: return y == 0 ? nil : .double(x.truncatingRemainder(dividingBy: y))
        }
    }

    /// `a / b` rounded half away from zero to `scale` digits after the point: whole when `scale` is 0.
    private static func divide(_ a: TemplateNumber, scale: Int, by b: TemplateNumber) -> TemplateNumber? {
        guard b.double != 0 else { return nil }
        func decimal(_ number: TemplateNumber) -> Decimal? {
            switch number {
            case .int(let value): Decimal(value)
            case .double(let value): Decimal(string: TemplateNumber.javaText(of: value), locale: Locale(identifier: "en_US_POSIX"))
            }
        }
        guard let x = decimal(a), let y = decimal(b) else { return .double(a.double / b.double) }
        var quotient = x / y, rounded = Decimal()
        NSDecimalRound(&rounded, &quotient, scale, .plain)
        let text = rounded.description
        if scale == 0, let whole = Int(text) { return .int(whole) }
        guard let value = Double(text), value.isFinite else { return .double(a.double / b.double) }
        return .double(value)
    }
}

extension HandlebarsRenderer {
    // MARK: - Numbers and lists

    func list(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch helper {
        case .math:
            guard let a = arguments.param(0).number else { throw arguments.problem("'\(arguments.text(0))' is not a number") }
            guard let b = arguments.param(2).number else { throw arguments.problem("'\(arguments.text(2))' is not a number") }
            guard let operation = TemplateMath.Operator(rawValue: arguments.text(1)) else {
                throw arguments.problem("'\(arguments.text(1))' is not an operator; use '+', '-', '*', '/' or '%'")
            }
            var dividendScale: Int?
            if case .string(let text) = arguments.param(0).single, case .double = a {
                dividendScale = TemplateNumber.scale(ofDecimal: Substring(text.trimmingCharacters(in: .whitespaces)))
            }
            guard let result = TemplateMath.apply(a, operation, b, dividendScale: dividendScale) else { throw arguments.problem("division by zero") }
            return result.value
        case .range:
            let lower = try arguments.integer(0, "the lower bound"), upper = try arguments.integer(1, "the upper bound")
            guard lower <= upper else { return .list([]) }
            let (span, overflow) = upper.subtractingReportingOverflow(lower)
            try allow(overflow || span == Int.max ? Int.max : span + 1, arguments.call.position)
            return .list((lower...upper).map { .int($0) })
        case .array:
            return .list(arguments.params)
        case .arrayAdd, .arrayRemove:
            // WireMock 3: adding to no list at all gives the empty list.
            if helper == .arrayAdd, case .null = arguments.param(0) { return .list([]) }
            var items = arguments.param(0).items ?? (arguments.param(0).isEmpty ? [] : [arguments.param(0)])
            let adding = helper == .arrayAdd
            let position: Int
            switch arguments.hash["position"]?.single {
            case nil, .null?: position = adding ? items.count : items.count - 1
            case .string(let word)? where word.lowercased() == "start": position = 0
            case .string(let word)? where word.lowercased() == "end": position = adding ? items.count : items.count - 1
            case let value?: position = try HelperArguments.integer(value, "the position", arguments)
            }
            if adding {
                guard (0...items.count).contains(position) else { throw arguments.problem("position \(position) is outside the list of \(items.count)") }
                try allow(items.count + 1, arguments.call.position)
                items.insert(arguments.param(1), at: position)
            } else if !items.isEmpty {
                guard items.indices.contains(position) else { throw arguments.problem("position \(position) is outside the list of \(items.count)") }
                items.remove(at: position)
            }
            return .list(items)
        case .arrayJoin:
            return .string(try arrayJoin(arguments.call, block: nil, arguments: arguments))
        default:
            throw arguments.problem("\(helper.rawValue) is not a list helper")
        }
    }

    /// `{{arrayJoin ',' list}}` and `{{#arrayJoin ',' list as |item|}}…{{/arrayJoin}}`: the items (of lists, or the
    /// arguments themselves) joined, each rendered by the block when there is one.
    func arrayJoin(_ call: HandlebarsCall, block: HandlebarsBlock?, arguments given: HelperArguments? = nil) throws(TemplateProblem) -> String {
        var arguments: HelperArguments
        if let given {
            arguments = given
        } else {
            var params: [TemplateValue] = []
            for expression in call.params { params.append(try evaluate(expression)) }
            var hash: [String: TemplateValue] = [:]
            for (key, expression) in call.hash { hash[key] = try evaluate(expression) }
            arguments = HelperArguments(call: call, params: params, hash: hash)
        }
        // As WireMock 3 joins: the separator is text, and the first argument after it is there (else WireMock's
        // error in place); the items are those of that argument when it is a list, otherwise the arguments
        // themselves (a list among them printed whole). Nothing to join gives nothing, without prefix and suffix.
        guard case .string(let separator)? = arguments.params.first else { return "[ERROR: Separator parameter must be a String]" }
        let given = Array(arguments.params.dropFirst())
        let items: [TemplateValue]
        switch given.first {
        case nil, .null?: return "[ERROR: The parameter must be list]"
        case .array(let list, _)?: items = list
        case .multi(let multi)? where multi.text == nil: items = multi.values
        default: items = given
        }
        if items.isEmpty { return "" }
        // Without a block each item is printed as Java prints it: WireMock fails (a 500) on one that is no value.
        if block == nil, items.contains(where: { if case .null = $0 { true } else { false } }) {
            throw arguments.problem("arrayJoin has an item that is no value, which WireMock fails on; give it a value with val … default=")
        }
        try allow(items.count, call.position)
        var pieces: [String] = []
        for item in items {
            guard let block else { pieces.append(printed(item)); continue }
            try step(call.position)
            // Each item as the block's context, as Handlebars.java's options.fn gives it: no @index of its own.
            var piece = ""
            try within(item, params: block.blockParams.prefix(1).map { ($0, item) }, data: [:]) { () throws(TemplateProblem) in
                piece = try rendered(block.body)
            }
            pieces.append(piece)
        }
        return (arguments.hashText("prefix") ?? "") + pieces.joined(separator: separator) + (arguments.hashText("suffix") ?? "")
    }

    // MARK: - JSON

    func json(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch helper {
        case .jsonPath:
            let source = arguments.text(1)
            let path: JSONPath
            if let compiled = jsonPaths[source] {
                path = compiled
            } else {
                do { path = try JSONPath(source) } catch { throw arguments.problem("the JSONPath '\(source)' does not compile (\(error.message))") }
                if jsonPaths.count < 64 { jsonPaths[source] = path }
            }
            let input = arguments.param(0)
            // A path that walks the document reads it whole; one that names its way reads a few nodes.
            if !path.isDefinite, case .string(let text) = input { try read(text.utf8.count, arguments.call.position) }
            if path.functionOfDefinite == "keys", let document = jsonDocument(input), let view = document.value {
                // An object's keys in the document's order, as WireMock's JSONPath gives them.
                let found = path.withoutFinalFunction.select(in: document.json, view: view, inside: TemplateJSON.inside, keys: TemplateJSON.keys,
                                                             merge: TemplateJSON.merged, leafToNull: true)
                if found.count == 1, let viewed = found[0].view, let names = TemplateJSON.keys(viewed) {
                    return .array(names.map { .string($0) }, json: false)
                }
            }
            // Most paths name text, whole numbers or truths of a body without objects walked in between: read as
            // quickly as a matcher reads JSON. The rest is read again with each value's place in the document.
            if case .string(let text) = input, let quick = quickDocument(text) {
                var walked = false
                let found = path.select(in: quick, view: (), inside: { _, _ in () }, keys: { _ in walked = true; return nil }, leafToNull: true)
                if !walked, path.functionOfDefinite != nil || found.allSatisfy({ Self.isPlain($0.value) }) {
                    return try selection(found.map { ($0.value, nil) }, of: path, arguments)
                }
            }
            guard let document = jsonDocument(input) else { return arguments.hash["default"] ?? .null }
            // Each value with where it is in the document: its objects' keys in the document's order, its numbers as
            // WireMock read them; an object without the member the path ends in gives null, as in WireMock.
            let found = path.select(in: document.json, view: document.value, inside: TemplateJSON.inside, keys: TemplateJSON.keys,
                                    merge: TemplateJSON.merged, leafToNull: true)
            return try selection(found, of: path, javaLists: !Self.isText(input), arguments)
        case .parseJson:
            let input = arguments.param(0)
            // As WireMock 3 reads it: no value at all is an empty map (and assigns nothing); so is a blank text.
            if case .null = input.single { return .object(TemplateObject()) }
            let value: TemplateValue
            // Blank as Java's trim() sees it: nothing above U+0020.
            if case .string(let text) = input.single, text.utf8.allSatisfy({ $0 <= 0x20 }) {
                value = .object(TemplateObject())
            } else {
                value = try parsedJSON(input, json: false, arguments)
            }
            guard arguments.params.count > 1 else { return value }
            assign(arguments.text(1), value)
            return .null
        case .toJson:
            // WireMock 3: no value prints nothing (not `null`).
            if case .null = arguments.param(0).single { return .string("") }
            // Written by WireMock's Jackson, which leaves out members whose value is null.
            return .string(TemplateJSON.write(materialized(arguments.param(0)), pretty: true, omittingNulls: true))
        case .formatJson:
            let value = try parsedJSON(arguments.param(0), json: true, arguments)
            // Compact, WireMock 3 prints its JSON tree with Jackson's own defaults: a decimal as Java prints it (1E+2).
            let pretty = arguments.hashText("format") != "compact"
            return .string(TemplateJSON.write(value, pretty: pretty, plainDecimals: pretty))
        case .jsonMerge:
            guard case .object(let first) = try parsedJSON(arguments.param(0), json: true, arguments),
                  case .object(let second) = try parsedJSON(arguments.param(1), json: true, arguments) else {
                throw arguments.problem("jsonMerge merges two JSON objects")
            }
            // WireMock 3 gives the merged object as text (its `size` is the text's length).
            return .string(TemplateJSON.write(.object(Self.merge(first, second, removeNulls: arguments.hashFlag("removeNulls"))), pretty: false))
        case .jsonArrayAdd:
            guard case .array(var items, _) = try parsedJSON(arguments.param(0), json: true, arguments) else {
                throw arguments.problem("the first argument of jsonArrayAdd must be a JSON array")
            }
            let item: TemplateValue
            if case .string(let text) = arguments.param(1).single, let parsed = TemplateJSON.parse(text, json: true) { item = parsed }
            else { item = materialized(arguments.param(1)) }
            if arguments.hashFlag("flatten"), case .array(let more, _) = item { items += more } else { items.append(item) }
            try allow(items.count, arguments.call.position)
            if let maximum = try arguments.hashInteger("maxItems"), maximum >= 0, items.count > maximum {
                items.removeFirst(items.count - maximum)
            }
            // WireMock 3 gives the list as text, written by its Jackson: `/` and characters past ASCII as they are,
            // decimals without an exponent, members whose value is null left out.
            return .string(TemplateJSON.write(.array(items, json: true), pretty: false, omittingNulls: true, escaping: .jackson))
        case .jsonRemove:
            return try jsonRemove(arguments)
        default:
            throw arguments.problem("\(helper.rawValue) is not a JSON helper")
        }
    }

    /// Why `path` cannot remove as WireMock does, if it cannot: Jayway removes an element by its index as the path
    /// writes it, so a negative one fails there (a `500`) where it selects an element, and a slice with a negative
    /// bound beside another selects as no other JSONPath does.
    static func removalProblem(_ path: JSONPath) -> String? {
        guard path.hasNegativePositions else { return nil }
        return "jsonRemove cannot take out '\(path)': WireMock fails on a negative index or a slice with a negative bound beside another; count the index from the start, or write the slice as [-2:] or [:-1]"
    }

    /// `{{jsonRemove text '$.path'}}`, as WireMock 3 removes with Jayway's JSONPath: every member or element the path
    /// selects taken out, the elements of one list from the highest index down (`$[0,0]` takes out two), and the
    /// rest written as its Jackson writes (compact, plain decimals, null members left out). A path that selects
    /// nothing gives the text as it was; so does the text `null`. What WireMock prints in place of the value
    /// (`[ERROR: …]`) is printed the same way here.
    private func jsonRemove(_ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        guard case .string(let text) = arguments.param(0) else { return .string("[ERROR: Input JSON must be a string]") }
        if text == "null" { return .string(text) }
        guard case .string(let source) = arguments.param(1) else { return .string("[ERROR: JSONPath parameter must be a string]") }
        try read(text.utf8.count, arguments.call.position)
        guard let document = TemplateJSON.parse(text.trimmingCharacters(in: .whitespacesAndNewlines), json: true) else {
            return .string("[ERROR: Input JSON string is not valid JSON ('\(text)')]")
        }
        guard let compiled = try? JSONPath(source) else {
            return .string("[ERROR: JSONPath parameter is not a valid JSONPath expression ('\(source)')]")
        }
        if let problem = Self.removalProblem(compiled) { throw arguments.problem(problem) }
        // A function at the end removes what it was applied to, as in Jayway (`$.items.length()` takes out items).
        let path = compiled.withoutFinalFunction
        typealias Places = [DocumentPlace]
        let inside: (Places, JSONPath.Member) -> Places? = { places, member in
            guard places.count == 1, let value = TemplateJSON.inside(places[0].value, member) else { return nil }
            return [DocumentPlace(value, member, in: places[0])]
        }
        let keys: (Places) -> [String]? = { places in places.count == 1 ? TemplateJSON.keys(places[0].value) : nil }
        let merge: ([(String, JSONValue, Places?)]) -> Places? = { parts in
            var all: Places = []
            for part in parts { all += part.2 ?? [] }
            return all
        }
        let root: Places = [DocumentPlace(document)]
        let found = path.select(in: TemplateJSON.selectable(document), view: root, inside: inside, keys: keys, merge: merge,
                                leafToNull: true)
        try step(arguments.call.position, count: found.count)
        if found.isEmpty { return .string(text) }
        // No view: a member missing at the end, selected as null, where there is nothing to take out.
        var targets: Places = []
        for (_, view) in found { targets += view ?? [] }
        if targets.contains(where: { $0.parent == nil }) {
            return .string("[ERROR: Delete operation cannot be applied to JSONPath expression ('\(source)')]")
        }
        // Each target's place is followed up to the document once: work in proportion to the depths.
        try step(arguments.call.position, count: targets.reduce(0) { $0 + $1.depth })
        var removals = TemplateJSON.Removals()
        for target in targets { removals.add(target.members) }
        guard let result = removals.applied(to: document) else {
            throw arguments.problem("jsonRemove '\(source)' takes out more elements of a list than it holds, which WireMock fails on")
        }
        return .string(TemplateJSON.write(result, pretty: false, omittingNulls: true, escaping: .jackson))
    }

    /// The request model as a map; other values as they are.
    func materialized(_ value: TemplateValue) -> TemplateValue {
        if case .request = value { return model.materialized }
        return value
    }

    /// A value as JSON: text is parsed (an error when it is not JSON), maps and lists are taken as they are.
    private func parsedJSON(_ value: TemplateValue, json: Bool, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch value {
        case .object(var object):
            object.json = json
            return .object(object)
        case .array(let items, _): return .array(items, json: json)
        case .request: return model.materialized
        default:
            let text = value.single.text
            guard let parsed = TemplateJSON.parse(text.trimmingCharacters(in: .whitespacesAndNewlines), json: json) else {
                let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
                throw arguments.problem("'\(shown)' is not JSON")
            }
            return parsed
        }
    }

    /// What `jsonPath` gives for what `path` selected: one value for a definite path, a list otherwise; `javaLists`:
    /// the lists of the document print as Java prints them, as WireMock's do from a document given as a value.
    private func selection(_ found: [(value: JSONValue, view: TemplateValue?)], of path: JSONPath, javaLists: Bool = false,
                           _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        try step(arguments.call.position, count: found.count)
        if let function = path.functionOfDefinite {
            // One value, as of a definite path; `keys()` a set of names, printed as Java prints one.
            guard let value = found.first?.value, value != .null else { return arguments.hash["default"] ?? .null }
            if function == "keys", case .array(let names) = value { return .array(names.map(TemplateJSON.value), json: false) }
            return TemplateJSON.value(value)
        }
        if path.isDefinite {
            guard let first = found.first, first.value != .null else { return arguments.hash["default"] ?? .null }
            // An object prints indented, as WireMock's Jackson writes it; a list compact.
            let selected = TemplateJSON.selected(first.value, first.view, javaLists: javaLists)
            guard case .object(var object) = selected else { return selected }
            object.json = true
            object.pretty = true
            return .object(object)
        }
        if found.isEmpty, let fallback = arguments.hash["default"] { return fallback }
        try allow(found.count, arguments.call.position)
        // What a path that is not definite selects is a JSON list (json-smart's), whatever the document.
        return .array(found.map { TemplateJSON.selected($0.value, $0.view, javaLists: javaLists) }, json: true)
    }

    /// Whether `jsonPath` reads the value as JSON text (not as a map or list it was given).
    private static func isText(_ value: TemplateValue) -> Bool {
        switch value {
        case .string: true
        case .multi(let multi): multi.text != nil || (multi.values.count == 1 && isText(multi.values[0]))
        default: false
        }
    }

    /// Whether a value prints the same however the document was read: text, a whole number, a truth, null, or a list
    /// of those (a decimal may have been a long one, an object has its document's order).
    private static func isPlain(_ value: JSONValue) -> Bool {
        switch value {
        case .null, .bool, .int, .string: true
        case .array(let items): items.allSatisfy(isPlain)
        case .double, .decimal, .object: false
        }
    }

    /// Text read as JSON the quick way (as matchers read it), once per text in a render.
    private func quickDocument(_ text: String) -> JSONValue? {
        if let last = lastQuickDocument, last.text == text { return last.json }
        let json = JSONValue(data: Data(text.utf8))
        lastQuickDocument = (text, json)
        return json
    }

    /// The document a `jsonPath` reads (``TemplateJSON/document(_:request:)``) and the same as ``JSONValue``;
    /// `nil` for text that is not JSON.
    private func jsonDocument(_ input: TemplateValue) -> (value: TemplateValue?, json: JSONValue)? {
        if case .string(let text) = input {
            // A loop reads the same body again and again: it is parsed once.
            if let last = lastDocument, last.text == text { return last.document }
            var document: (value: TemplateValue?, json: JSONValue)?
            if let value = TemplateJSON.document(input, request: { model.materialized }) {
                document = (value, TemplateJSON.selectable(value))
            } else if let json = JSONValue(data: Data(text.utf8)) {
                // JSON this parser does not take (in another encoding than UTF-8): selected without its order.
                document = (nil, json)
            }
            lastDocument = (text, document)
            return document
        }
        guard let value = TemplateJSON.document(input, request: { model.materialized }) else { return nil }
        return (value, TemplateJSON.selectable(value))
    }

    private static func merge(_ first: TemplateObject, _ second: TemplateObject, removeNulls: Bool) -> TemplateObject {
        var result = first
        result.json = true
        for (key, value) in second.pairs {
            if removeNulls, case .null = value { result[key] = nil; continue }
            if case .object(let mine)? = result[key], case .object(let theirs) = value {
                result[key] = .object(merge(mine, theirs, removeNulls: removeNulls))
            } else {
                result[key] = value
            }
        }
        return result
    }

    // MARK: - Encodings, forms and variables

    func encoding(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch helper {
        case .base64:
            let text = arguments.text(0)
            if arguments.hashFlag("decode") {
                var encoded = text.trimmingCharacters(in: .whitespacesAndNewlines)
                    .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                encoded += String(repeating: "=", count: (4 - encoded.utf8.count % 4) % 4)
                guard let data = Data(base64Encoded: encoded) else { throw arguments.problem("the text is not base64") }
                return .string(String(decoding: data, as: UTF8.self))
            }
            var encoded = Data(text.utf8).base64EncodedString()
            if let padding = arguments.hash["padding"], !HelperArguments.flag(padding) {
                encoded = String(encoded.reversed().drop { $0 == "=" }.reversed())
            }
            return .string(encoded)
        case .urlEncode:
            let text = arguments.text(0)
            return .string(arguments.hashFlag("decode") ? Self.formDecoded(text) : Self.formEncoded(text))
        case .formData:
            var form = TemplateObject()
            let decode = arguments.hashFlag("urlDecode")
            var values: [String: [String]] = [:]
            var order: [String] = []
            for pair in arguments.text(0).split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let name = decode ? Self.formDecoded(parts[0]) : parts[0]
                let value = parts.count > 1 ? (decode ? Self.formDecoded(parts[1]) : parts[1]) : ""
                if values[name] == nil { order.append(name) }
                values[name, default: []].append(value)
            }
            try allow(order.count, arguments.call.position)
            for name in order { form[name] = .multi(values[name]!) }
            guard arguments.params.count > 1 else { return .object(form) }
            assign(arguments.text(1), .object(form))
            return .null
        case .val:
            var value = arguments.param(0)
            if case .null = value { value = arguments.hash["or"] ?? arguments.hash["default"] ?? .null }
            guard let name = arguments.hashText("assign") else { return value }
            assign(name, value)
            return .null
        case .assign:
            var value = arguments.param(1)
            if case .string(let text) = value { value = .string(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            assign(arguments.text(0), value)
            return .null
        default:
            throw arguments.problem("\(helper.rawValue) is not an encoding helper")
        }
    }

    /// As Java's `URLEncoder` writes a form value: letters, digits and `.-*_` as they are, a space as `+`, other
    /// bytes of the UTF-8 as `%XX`.
    static func formEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): result += "+"
            default: result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// `+` as a space and `%XX` as its byte (a `%` not followed by two hex digits stays).
    static func formDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "+") { bytes.append(0x20); index += 1; continue }
            if byte == UInt8(ascii: "%"), index + 2 < source.count,
               let value = UInt8(String(decoding: source[index + 1...index + 2], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
                continue
            }
            bytes.append(byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A place in a document `jsonRemove` walks: the value there, and the member it is of the place above it.
private final class DocumentPlace {
    let value: TemplateValue
    let member: JSONPath.Member?
    let parent: DocumentPlace?
    let depth: Int

    init(_ value: TemplateValue, _ member: JSONPath.Member? = nil, in parent: DocumentPlace? = nil) {
        self.value = value
        self.member = member
        self.parent = parent
        depth = (parent?.depth ?? -1) + 1
    }

    /// The members from the document down to here.
    var members: [JSONPath.Member] {
        var members: [JSONPath.Member] = []
        members.reserveCapacity(depth)
        var place: DocumentPlace? = self
        while let current = place, let member = current.member {
            members.append(member)
            place = current.parent
        }
        return members.reversed()
    }
}
