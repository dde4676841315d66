import Foundation

extension JSONSchema {
    /// The violations found so far, up to a limit.
    struct Report {
        var violations: [Violation] = []
        let limit: Int

        var isFull: Bool { violations.count >= limit }

        mutating func add(_ path: String, _ keyword: String, _ message: String) {
            if !isFull { violations.append(Violation(instancePath: path, keyword: keyword, message: message)) }
        }
    }

    /// A place in the value being checked, with the references followed there (to stop a cycle).
    struct Place {
        let path: String
        let references: [Int]

        func member(_ name: String) -> Place {
            Place(path: JSONSchema.Compiler.child(path, name), references: [])
        }

        func item(_ index: Int) -> Place { Place(path: path + "/\(index)", references: []) }
    }

    /// What a schema evaluated (the annotations of 2019-09 and 2020-12, for `unevaluatedProperties`/`unevaluatedItems`):
    /// the member names, the first `items` items, every item, or items one by one (2020-12's `contains`). Only
    /// tracked where an `unevaluated…` keyword is.
    struct Evaluated {
        var properties: Set<String> = []
        var items = 0
        var allItems = false
        /// Items evaluated one by one (those 2020-12's `contains` matched).
        var itemSet: Set<Int> = []

        mutating func merge(_ other: Evaluated) {
            properties.formUnion(other.properties)
            itemSet.formUnion(other.itemSet)
            items = max(items, other.items)
            allItems = allItems || other.allItems
        }
    }

    /// Checks one value against the nodes, with bounded work: a `$ref` cycle that does not go into the value
    /// stops (it would never end), and so does evaluation past ``stepLimit`` steps or ``depthLimit`` nested nodes.
    struct Evaluator {
        let schema: JSONSchema
        /// Nested `$ref`s followed at one place in the value before it counts as endless.
        static let referenceLimit = 64
        /// Nodes evaluated for one value; beyond, schemas that branch out exponentially are stopped.
        static let stepLimit = 500_000
        /// Nodes evaluated inside one another (a recursive schema's levels times the value's). A debug build's
        /// frames take up to about 2.5 KB a level, so this fits in a 512 KB thread stack (Darwin's default for
        /// threads other than the main one) with room for the caller's.
        static let depthLimit = 128
        private var steps = 0
        private var depth = 0
        /// Why evaluation stopped early, once it has.
        private var stopped: String?
        /// The schema resources evaluation is in, outermost first: the dynamic scope `$dynamicRef` and
        /// `$recursiveRef` look through.
        private var scope: [Int] = []

        init(schema: JSONSchema) { self.schema = schema }

        /// Evaluates node `index` on `instance` at `place`, adding what it breaks to `report`. `keyword` and
        /// `ifFalse` are the violation when the node is the schema `false` (what applied it, and why).
        /// Returns what it evaluated when `annotating` (its caller, or it, has an `unevaluated…` keyword).
        ///
        /// A deep value nests this and the keyword functions it calls, so each keeps its stack frame small (a debug
        /// build gives every temporary a slot): the switch binds nothing, each function takes one keyword's payload,
        /// and messages are built in functions of their own, called only on a violation.
        mutating func evaluate(_ index: Int, _ instance: JSONValue, at place: Place, annotating: Bool, keyword: String,
                               ifFalse: @autoclosure () -> String, into report: inout Report) -> Evaluated {
            let node = schema.nodes[index]
            guard case .keywords(let keywords) = node.body else {
                if case .always(false) = node.body { report.add(place.path, keyword, ifFalse()) }
                return Evaluated()
            }
            guard let place = enter(node, at: place, &report) else { return Evaluated() }
            let entersResource = scope.last != node.resource
            if entersResource { scope.append(node.resource) }
            defer {
                depth -= 1
                if entersResource { scope.removeLast() }
            }
            let annotating = annotating || node.tracksEvaluation
            var evaluated = Evaluated()
            var position = 0
            while position < keywords.count, !report.isFull, stopped == nil {
                let keyword = keywords[position]
                Self.handler(keyword.kind)(&self, keyword, instance, place, annotating, &evaluated, &report)
                position += 1
            }
            return evaluated
        }

        /// What evaluates a keyword: every keyword function has this shape, so `evaluate` has one call (a debug
        /// build gives each call its own temporaries, on the stack for as long as the call runs).
        typealias Handler = (inout Evaluator, Keyword, JSONValue, Place, Bool, inout Evaluated, inout Report) -> Void

        private static func handler(_ kind: KeywordKind) -> Handler {
            switch kind {
            case .reference: { $0.follow($1, $2, at: $3, $4, &$5, &$6) }
            case .dynamicReference: { $0.followDynamic($1, $2, at: $3, $4, &$5, &$6) }
            case .allOf: { $0.allOf($1, $2, at: $3, $4, &$5, &$6) }
            case .anyOf, .oneOf: { $0.alternatives($1, $2, at: $3, $4, &$5, &$6) }
            case .not: { $0.not($1, $2, at: $3, $4, &$5, &$6) }
            case .conditional: { $0.conditional($1, $2, at: $3, $4, &$5, &$6) }
            case .dependentSchemas: { $0.dependentSchemas($1, $2, at: $3, $4, &$5, &$6) }
            case .items: { $0.items($1, $2, at: $3, $4, &$5, &$6) }
            case .positionalItems: { $0.positionalItems($1, $2, at: $3, $4, &$5, &$6) }
            case .additionalItems: { $0.additionalItems($1, $2, at: $3, $4, &$5, &$6) }
            case .unevaluatedItems: { $0.unevaluatedItems($1, $2, at: $3, $4, &$5, &$6) }
            case .contains: { $0.contains($1, $2, at: $3, $4, &$5, &$6) }
            case .properties: { $0.properties($1, $2, at: $3, $4, &$5, &$6) }
            case .patternProperties: { $0.patternProperties($1, $2, at: $3, $4, &$5, &$6) }
            case .additionalProperties: { $0.additionalProperties($1, $2, at: $3, $4, &$5, &$6) }
            case .unevaluatedProperties: { $0.unevaluatedProperties($1, $2, at: $3, $4, &$5, &$6) }
            case .propertyNames: { $0.propertyNames($1, $2, at: $3, $4, &$5, &$6) }
            case .assertion: { evaluator, keyword, instance, place, _, _, report in evaluator.check(keyword, instance, at: place.path, into: &report) }
            }
        }

        /// Counts a step and a level of nesting, and the reference of a node that was only a `$ref`: the place to
        /// evaluate `node` at, or `nil` (and a violation) when evaluation must stop.
        private mutating func enter(_ node: Node, at place: Place, _ report: inout Report) -> Place? {
            guard stopped == nil else { return nil }
            var place = place
            if let reference = node.reference {
                guard !place.references.contains(reference.target), place.references.count < Self.referenceLimit else {
                    report.add(place.path, reference.keyword, Self.endless(reference.keyword, reference.text))
                    return nil
                }
                place = Place(path: place.path, references: place.references + [reference.target])
            }
            steps += 1
            depth += 1
            guard steps > Self.stepLimit || depth > Self.depthLimit else { return place }
            depth -= 1
            stopped = steps > Self.stepLimit
                ? "checking stopped after \(Self.stepLimit) steps: the schema branches out too much (\"allOf\", \"anyOf\", \"oneOf\" over \"$ref\"s) for this value; simplify it"
                : "checking stopped \(Self.depthLimit) subschemas deep: the value is nested too deeply to check against this schema"
            report.add(place.path, "$ref", stopped!)
            return nil
        }

        /// Whether `node` holds for `instance`, its violations not wanted (`not`, `contains`).
        mutating func holds(_ node: Int, _ instance: JSONValue, at place: Place) -> Bool {
            var branch = Report(limit: 1)
            _ = evaluate(node, instance, at: place, annotating: false, keyword: "", ifFalse: "", into: &branch)
            return branch.violations.isEmpty
        }

        /// Adds a violation for why evaluation stopped early, unless `report` already has it.
        func finish(_ report: inout Report) {
            guard let stopped, !report.violations.contains(where: { $0.message == stopped }) else { return }
            if report.isFull { report.violations.removeLast() }
            report.add("", "$ref", stopped)
        }

        /// A subschema applied to the value itself: its violations are this node's; what it evaluated counts when
        /// it holds.
        private mutating func inPlace(_ node: Int, _ instance: JSONValue, at place: Place, _ annotating: Bool, keyword: String,
                                      ifFalse: @autoclosure () -> String, _ evaluated: inout Evaluated, _ report: inout Report) {
            let before = report.violations.count
            let result = evaluate(node, instance, at: place, annotating: annotating, keyword: keyword, ifFalse: ifFalse(), into: &report)
            if report.violations.count == before { evaluated.merge(result) }
        }

        /// `$ref`, `$recursiveRef`: the target in place, unless it is already being evaluated at this place.
        mutating func follow(_ keyword: Keyword, _ instance: JSONValue, at place: Place,
                             _ annotating: Bool, _ evaluated: inout Evaluated, _ report: inout Report) {
            guard case .reference(let target, let text, let name) = keyword else { return }
            guard !place.references.contains(target), place.references.count < Self.referenceLimit else {
                report.add(place.path, name, Self.endless(name, text))
                return
            }
            inPlace(target, instance, at: Place(path: place.path, references: place.references + [target]), annotating,
                    keyword: name, ifFalse: Self.falseTarget(text), &evaluated, &report)
        }

        /// `$dynamicRef`, `$recursiveRef`: the target the dynamic scope gives (the outermost resource that declares the
        /// anchor), else the one found statically.
        mutating func followDynamic(_ keyword: Keyword, _ instance: JSONValue, at place: Place,
                                    _ annotating: Bool, _ evaluated: inout Evaluated, _ report: inout Report) {
            guard case .dynamicReference(var target, let anchor, let text, let name) = keyword else { return }
            if let anchor {
                for resource in scope {
                    if anchor.isEmpty, let root = schema.recursiveRoots[resource] { target = root; break }
                    if !anchor.isEmpty, let node = schema.dynamicAnchors[resource]?[anchor] { target = node; break }
                }
            }
            follow(.reference(target, text: text, keyword: name), instance, at: place, annotating, &evaluated, &report)
        }

        private static func endless(_ keyword: String, _ text: String) -> String {
            "the schema refers to itself without end: \"\(keyword)\": \"\(text)\" comes back to the same place in the value without going into it; make the cycle go through \"properties\" or \"items\""
        }

        private static func falseTarget(_ text: String) -> String { "no value is allowed here: \"\(text)\" refers to the schema false" }

        mutating func allOf(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _ annotating: Bool,
                            _ evaluated: inout Evaluated, _ report: inout Report) {
            guard case .allOf(let nodes) = keyword else { return }
            for (position, node) in nodes.enumerated() where !report.isFull {
                inPlace(node, instance, at: place, annotating, keyword: "allOf", ifFalse: Self.falseAllOf(position), &evaluated, &report)
            }
        }

        private static func falseAllOf(_ position: Int) -> String { "no value is allowed here: schema \(position + 1) of \"allOf\" is false" }

        mutating func not(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _: Bool, _: inout Evaluated,
                          _ report: inout Report) {
            guard case .not(let node) = keyword, holds(node, instance, at: place) else { return }
            report.add(place.path, "not", Self.matchesNot(instance))
        }

        private static func matchesNot(_ instance: JSONValue) -> String {
            "\(instance.schemaQuote) matches the schema of \"not\", which it must not"
        }

        /// `if`, then `then` or `else` in place; what `if` evaluated counts when it holds.
        mutating func conditional(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _ annotating: Bool,
                                  _ evaluated: inout Evaluated, _ report: inout Report) {
            guard case .conditional(let condition, let then, let otherwise) = keyword,
                  then != nil || otherwise != nil || annotating else { return }
            var branch = Report(limit: 1)
            let conditionEvaluated = evaluate(condition, instance, at: place, annotating: annotating, keyword: "if", ifFalse: "", into: &branch)
            if branch.violations.isEmpty {
                evaluated.merge(conditionEvaluated)
                if let then {
                    inPlace(then, instance, at: place, annotating, keyword: "then", ifFalse: Self.falseBranch(then: true), &evaluated, &report)
                }
            } else if let otherwise {
                inPlace(otherwise, instance, at: place, annotating, keyword: "else", ifFalse: Self.falseBranch(then: false), &evaluated, &report)
            }
        }

        private static func falseBranch(then: Bool) -> String {
            then ? "no value is allowed here: it matches \"if\", and \"then\" is false"
                 : "no value is allowed here: it does not match \"if\", and \"else\" is false"
        }

        /// `dependentSchemas` (or `dependencies`' schemas): each in place when its property is present.
        mutating func dependentSchemas(_ keyword: Keyword, _ instance: JSONValue, at place: Place, _ annotating: Bool,
                                       _ evaluated: inout Evaluated, _ report: inout Report) {
            guard case .dependentSchemas(let dependencies, let name) = keyword, case .object(let members) = instance else { return }
            for (member, node) in dependencies where members[member] != nil && !report.isFull {
                inPlace(node, instance, at: place, annotating, keyword: name, ifFalse: Self.falseDependency(member, name), &evaluated, &report)
            }
        }

        private static func falseDependency(_ member: String, _ keyword: String) -> String {
            "the property \"\(member)\" is not allowed: its schema in \"\(keyword)\" is false"
        }

        /// `anyOf` (at least one schema holds) or `oneOf` (exactly one): one violation, which says how each failed.
        mutating func alternatives(_ alternatives: Keyword, _ instance: JSONValue, at place: Place,
                                   _ annotating: Bool, _ evaluated: inout Evaluated, _ report: inout Report) {
            let nodes: [Int], isOneOf: Bool
            switch alternatives {
            case .anyOf(let list): (nodes, isOneOf) = (list, false)
            case .oneOf(let list): (nodes, isOneOf) = (list, true)
            default: return
            }
            let keyword = isOneOf ? "oneOf" : "anyOf"
            var matching: [Int] = []
            var failures: [Violation] = []
            var gathered = Evaluated()
            for (position, node) in nodes.enumerated() {
                var branch = Report(limit: 1)
                let result = evaluate(node, instance, at: place, annotating: annotating, keyword: keyword,
                                      ifFalse: Self.falseAlternative(position), into: &branch)
                if let failure = branch.violations.first {
                    failures.append(failure)
                    continue
                }
                matching.append(position + 1)
                gathered.merge(result)
                // `anyOf` gathers what every matching schema evaluated; `oneOf` needs only a second match to fail.
                if isOneOf ? matching.count > 1 : !annotating { break }
            }
            if matching.count == 1 || (!isOneOf && !matching.isEmpty) {
                evaluated.merge(gathered)
            } else {
                report.add(place.path, keyword, Self.alternativesMessage(keyword, instance, count: nodes.count, matching: matching, failures: failures))
            }
        }

        private static func falseAlternative(_ position: Int) -> String { "schema \(position + 1) is false" }

        /// Why `anyOf`/`oneOf` failed: how each schema failed (its first violation), or which two both matched.
        private static func alternativesMessage(_ keyword: String, _ instance: JSONValue, count: Int, matching: [Int],
                                                failures: [Violation]) -> String {
            guard matching.isEmpty else {
                return "\(instance.schemaQuote) matches schemas \(matching[0]) and \(matching[1]) of \"oneOf\", but must match exactly one"
            }
            let reasons = failures.enumerated().map { "\($0 + 1): \($1.description.clipped(to: 160))" }.joined(separator: "; ")
            return "\(instance.schemaQuote) matches none of the \(count) schemas of \"\(keyword)\" (\(reasons))"
        }
    }
}
