import Foundation

/// The keywords that apply subschemas to an array's items or an object's members. Like `evaluate`, the functions
/// here keep their stack frames small: messages are built in functions of their own, called only on a violation.
extension JSONSchema.Evaluator {
    // The types of `JSONSchema` by their short names, here and in `JSONSchema+Assertions.swift`.
    typealias Keyword = JSONSchema.Keyword
    typealias Place = JSONSchema.Place
    typealias Evaluated = JSONSchema.Evaluated
    typealias Report = JSONSchema.Report

    /// `items` as one schema: every item.
    mutating func items(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _: Bool,
                        _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .items(let node) = keyword, case .array(let items) = instance else { return }
        for index in items.indices where !report.isFull {
            _ = evaluate(node, items[index], at: place.item(index), annotating: false, keyword: "items",
                         ifFalse: Self.noItems(index), into: &report)
        }
        evaluated.allItems = true
    }

    /// `items` as an array: the item at each position.
    mutating func positionalItems(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _: Bool,
                                  _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .positionalItems(let nodes) = keyword, case .array(let items) = instance else { return }
        let count = min(nodes.count, items.count)
        for index in 0..<count where !report.isFull {
            _ = evaluate(nodes[index], items[index], at: place.item(index), annotating: false, keyword: "items",
                         ifFalse: Self.falseItem(index), into: &report)
        }
        evaluated.items = max(evaluated.items, count)
    }

    /// `additionalItems`: the items after those positional `items` took.
    mutating func additionalItems(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _: Bool,
                                  _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .additionalItems(let node, let after, let name) = keyword, case .array(let items) = instance, items.count > after else { return }
        for index in after..<items.count where !report.isFull {
            _ = evaluate(node, items[index], at: place.item(index), annotating: false, keyword: name,
                         ifFalse: Self.additionalItem(index, after: after, keyword: name), into: &report)
        }
        evaluated.allItems = true
    }

    /// `unevaluatedItems`: the items no schema here evaluated.
    mutating func unevaluatedItems(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _: Bool,
                                   _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .unevaluatedItems(let node) = keyword, case .array(let items) = instance,
              !evaluated.allItems, items.count > evaluated.items else { return }
        for index in evaluated.items..<items.count where !report.isFull && !evaluated.itemSet.contains(index) {
            _ = evaluate(node, items[index], at: place.item(index), annotating: false, keyword: "unevaluatedItems",
                         ifFalse: Self.unevaluatedItem(index), into: &report)
        }
        evaluated.allItems = true
    }

    /// `contains`, with `minContains`/`maxContains`.
    mutating func contains(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _ annotating: Bool,
                           _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .contains(let node, let minimum, let maximum, let annotates) = keyword, case .array(let items) = instance else { return }
        let gathers = annotates && annotating
        guard minimum > 0 || maximum != nil || gathers else { return }
        var found = 0
        for index in items.indices where holds(node, items[index], at: place.item(index)) {
            found += 1
            if gathers { evaluated.itemSet.insert(index) } else if maximum == nil, found >= minimum { break }
        }
        if found < minimum || found > maximum ?? .max {
            let (name, message) = Self.containsViolation(found: found, of: items.count, minimum: minimum, maximum: maximum)
            report.add(place.path, name, message)
        }
    }

    private static func noItems(_ index: Int) -> String { "item \(index) is not allowed: \"items\" is false, so the array must be empty" }
    private static func falseItem(_ index: Int) -> String { "item \(index) is not allowed: its schema in \"items\" is false" }
    private static func additionalItem(_ index: Int, after: Int, keyword: String) -> String {
        "item \(index) is not allowed: the array may hold at most \(after) item\(after == 1 ? "" : "s") (\"\(keyword)\" is false)"
    }
    private static func unevaluatedItem(_ index: Int) -> String {
        "item \(index) is not allowed: no schema here describes it (\"unevaluatedItems\" is false)"
    }

    private static func containsViolation(found: Int, of count: Int, minimum: Int, maximum: Int?) -> (String, String) {
        let all = "\(count) item\(count == 1 ? "" : "s")"
        if found == 0, minimum == 1 {
            return ("contains", count == 0 ? "the array is empty, but must hold an item that matches the schema of \"contains\""
                                           : "none of the \(all) matches the schema of \"contains\"")
        }
        if found < minimum {
            return ("minContains", "\(found) of the \(all) match\(found == 1 ? "es" : "") the schema of \"contains\", fewer than the minimum \(minimum)")
        }
        return ("maxContains", "\(found) of the \(all) match the schema of \"contains\", more than the maximum \(maximum ?? 0)")
    }

    // Members are taken in order of name, so the violations come in the same order every time.

    mutating func properties(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _ annotating: Bool,
                             _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .properties(let properties) = keyword, case .object(let members) = instance else { return }
        for (name, node) in properties where !report.isFull {
            guard let value = members[name] else { continue }
            _ = evaluate(node, value, at: place.member(name), annotating: false, keyword: "properties",
                         ifFalse: Self.falseProperty(name), into: &report)
            if annotating { evaluated.properties.insert(name) }
        }
    }

    mutating func patternProperties(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _ annotating: Bool,
                                    _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .patternProperties(let patterns) = keyword, case .object(let members) = instance else { return }
        for name in members.keys.sorted() {
            for (pattern, node) in patterns where !report.isFull && pattern.isFound(in: name) {
                _ = evaluate(node, members[name]!, at: place.member(name), annotating: false, keyword: "patternProperties",
                             ifFalse: Self.falsePatternProperty(name, pattern: pattern.source), into: &report)
                if annotating { evaluated.properties.insert(name) }
            }
        }
    }

    /// `additionalProperties`: the members neither `properties` nor `patternProperties` took.
    mutating func additionalProperties(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _ annotating: Bool,
                                       _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .additionalProperties(let node, let declared, let patterns) = keyword, case .object(let members) = instance else { return }
        for name in members.keys.sorted() where !report.isFull && !declared.contains(name) {
            guard !patterns.contains(where: { $0.isFound(in: name) }) else { continue }
            _ = evaluate(node, members[name]!, at: place.member(name), annotating: false, keyword: "additionalProperties",
                         ifFalse: Self.notDeclared(name, declared: declared), into: &report)
            if annotating { evaluated.properties.insert(name) }
        }
    }

    /// `unevaluatedProperties`: the members no schema here evaluated.
    mutating func unevaluatedProperties(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _: Bool,
                                        _ evaluated: inout Evaluated, _ report: inout Report) {
        guard case .unevaluatedProperties(let node) = keyword, case .object(let members) = instance else { return }
        for name in members.keys.sorted() where !report.isFull && !evaluated.properties.contains(name) {
            _ = evaluate(node, members[name]!, at: place.member(name), annotating: false, keyword: "unevaluatedProperties",
                         ifFalse: Self.unevaluatedProperty(name), into: &report)
            evaluated.properties.insert(name)
        }
    }

    /// `propertyNames`: each name checked as a string; one violation a name, at the object.
    mutating func propertyNames(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _: Bool, _: inout Evaluated,
                                _ report: inout Report) {
        guard case .propertyNames(let node) = keyword, case .object(let members) = instance else { return }
        for name in members.keys.sorted() where !report.isFull {
            var branch = Report(limit: 1)
            _ = evaluate(node, .string(name), at: Place(path: place.path, references: []), annotating: false,
                         keyword: "propertyNames", ifFalse: Self.noNames, into: &branch)
            if let failure = branch.violations.first {
                report.add(place.path, "propertyNames", Self.invalidName(name, failure))
            }
        }
    }

    private static func falseProperty(_ name: String) -> String {
        "the property \"\(name)\" is not allowed (its schema in \"properties\" is false)"
    }
    private static func falsePatternProperty(_ name: String, pattern: String) -> String {
        "the property \"\(name)\" is not allowed (it matches \"\(pattern)\" of \"patternProperties\", whose schema is false)"
    }
    private static func unevaluatedProperty(_ name: String) -> String {
        "the property \"\(name)\" is not allowed: no schema here declares it (\"unevaluatedProperties\" is false)"
    }
    private static let noNames = "no property is allowed (\"propertyNames\" is false)"
    private static func invalidName(_ name: String, _ failure: JSONSchema.Violation) -> String {
        "the property name \"\(name.clipped(to: 60))\" is not valid: \(failure.message)"
    }

    /// Why a member `additionalProperties: false` refuses is not allowed, with the names that are (a typo shows).
    private static func notDeclared(_ name: String, declared: Set<String>) -> String {
        guard !declared.isEmpty else { return "the property \"\(name)\" is not allowed (\"additionalProperties\" is false)" }
        let names = declared.sorted()
        let listed = names.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ") + (names.count > 10 ? "…" : "")
        return "the property \"\(name)\" is not allowed: \"additionalProperties\" is false, and it is not one of \"properties\" (\(listed))"
    }
}
