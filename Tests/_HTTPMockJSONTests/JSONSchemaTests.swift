import Foundation
import Testing
@testable import _HTTPMockJSON

/// JSON Schema (drafts 4 to 2020-12) over `JSONValue`: every keyword passes what it allows and reports what it
/// does not with the place in the value and the keyword; invalid schemas are refused at compile time.
@Suite struct JSONSchemaTests {
    /// One keyword: a value it accepts, one it refuses, and the only violation that one has.
    struct KeywordCase: Sendable, CustomTestStringConvertible {
        let schema: String
        let valid: String
        let invalid: String
        let path: String
        let keyword: String
        var draft = JSONSchema.Draft.draft2019_09

        var testDescription: String { "\(keyword): \(schema)" }
    }

    static let keywordCases: [KeywordCase] = [
        KeywordCase(schema: #"{"type": "string"}"#, valid: #""hello""#, invalid: "12", path: "", keyword: "type"),
        KeywordCase(schema: #"{"type": ["string", "null"]}"#, valid: "null", invalid: "false", path: "", keyword: "type"),
        KeywordCase(schema: #"{"type": "integer"}"#, valid: "2.0", invalid: "2.5", path: "", keyword: "type"),
        KeywordCase(schema: #"{"type": "number"}"#, valid: "7", invalid: #""7""#, path: "", keyword: "type"),
        KeywordCase(schema: #"{"type": "object"}"#, valid: "{}", invalid: "[]", path: "", keyword: "type"),
        KeywordCase(schema: #"{"enum": ["red", "green", 3]}"#, valid: "3.0", invalid: #""blue""#, path: "", keyword: "enum"),
        KeywordCase(schema: #"{"const": {"size": [1, 2]}}"#, valid: #"{"size": [1.0, 2]}"#, invalid: #"{"size": [2, 1]}"#, path: "", keyword: "const"),
        KeywordCase(schema: #"{"multipleOf": 4}"#, valid: "-12", invalid: "10", path: "", keyword: "multipleOf"),
        KeywordCase(schema: #"{"multipleOf": 0.01}"#, valid: "19.99", invalid: "0.125", path: "", keyword: "multipleOf"),
        KeywordCase(schema: #"{"maximum": 10}"#, valid: "10", invalid: "10.5", path: "", keyword: "maximum"),
        KeywordCase(schema: #"{"exclusiveMaximum": 10}"#, valid: "9.99", invalid: "10", path: "", keyword: "exclusiveMaximum"),
        KeywordCase(schema: #"{"minimum": 0}"#, valid: "0", invalid: "-1", path: "", keyword: "minimum"),
        KeywordCase(schema: #"{"exclusiveMinimum": 0}"#, valid: "0.5", invalid: "0", path: "", keyword: "exclusiveMinimum"),
        KeywordCase(schema: #"{"maxLength": 3}"#, valid: #""été""#, invalid: #""four""#, path: "", keyword: "maxLength"),
        KeywordCase(schema: #"{"maxLength": 2}"#, valid: #""😀😀""#, invalid: #""😀😀😀""#, path: "", keyword: "maxLength"),
        KeywordCase(schema: #"{"minLength": 2}"#, valid: #""ab""#, invalid: #""a""#, path: "", keyword: "minLength"),
        KeywordCase(schema: #"{"pattern": "^[A-Z]{3}-\\d+$"}"#, valid: #""ORD-42""#, invalid: #""ord-42""#, path: "", keyword: "pattern"),
        KeywordCase(schema: #"{"pattern": "b+"}"#, valid: #""abbbc""#, invalid: #""ac""#, path: "", keyword: "pattern"),
        // ECMA-262's reading: \d is ASCII, $ is the end of the text (not before a final line break).
        KeywordCase(schema: #"{"pattern": "^\\d+$"}"#, valid: #""42""#, invalid: #""৪২""#, path: "", keyword: "pattern"),
        KeywordCase(schema: #"{"pattern": "^[a-z]+$"}"#, valid: #""abc""#, invalid: #""abc\n""#, path: "", keyword: "pattern"),
        KeywordCase(schema: #"{"patternProperties": {"^\\w+$": {"type": "string"}}}"#, valid: #"{"é": 1}"#,
                    invalid: #"{"e": 1}"#, path: "/e", keyword: "type"),
        KeywordCase(schema: #"{"items": {"type": "integer"}}"#, valid: "[1, 2]", invalid: #"[1, "x"]"#, path: "/1", keyword: "type"),
        KeywordCase(schema: #"{"items": [{"type": "string"}, {"type": "number"}]}"#, valid: #"["a", 1, true]"#,
                    invalid: #"["a", "b"]"#, path: "/1", keyword: "type"),
        KeywordCase(schema: #"{"items": [{"type": "string"}, {"type": "number"}]}"#, valid: #"["a", 1, true]"#,
                    invalid: #"[3]"#, path: "/0", keyword: "type", draft: .draft7),
        KeywordCase(schema: #"{"items": [{"type": "string"}], "additionalItems": false}"#, valid: #"["a"]"#,
                    invalid: #"["a", 2]"#, path: "/1", keyword: "additionalItems"),
        KeywordCase(schema: #"{"items": [true], "additionalItems": {"type": "boolean"}}"#, valid: "[1, true]",
                    invalid: "[1, true, 3]", path: "/2", keyword: "type"),
        KeywordCase(schema: #"{"maxItems": 2}"#, valid: "[1, 2]", invalid: "[1, 2, 3]", path: "", keyword: "maxItems"),
        KeywordCase(schema: #"{"minItems": 1}"#, valid: "[0]", invalid: "[]", path: "", keyword: "minItems"),
        KeywordCase(schema: #"{"uniqueItems": true}"#, valid: #"[1, "1", [1], true]"#, invalid: "[1, 2, 1.0]", path: "", keyword: "uniqueItems"),
        KeywordCase(schema: #"{"uniqueItems": true}"#, valid: #"[{"a": 1}, {"a": 2}]"#,
                    invalid: #"[{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]"#, path: "", keyword: "uniqueItems"),
        KeywordCase(schema: #"{"contains": {"const": "x"}}"#, valid: #"["a", "x"]"#, invalid: #"["a", "b"]"#, path: "", keyword: "contains"),
        KeywordCase(schema: #"{"contains": {"type": "integer"}, "minContains": 2}"#, valid: #"[1, "a", 2]"#,
                    invalid: #"[1, "a"]"#, path: "", keyword: "minContains"),
        KeywordCase(schema: #"{"contains": {"type": "integer"}, "maxContains": 1}"#, valid: #"[1, "a"]"#,
                    invalid: "[1, 2]", path: "", keyword: "maxContains"),
        KeywordCase(schema: #"{"maxProperties": 1}"#, valid: #"{"a": 1}"#, invalid: #"{"a": 1, "b": 2}"#, path: "", keyword: "maxProperties"),
        KeywordCase(schema: #"{"minProperties": 1}"#, valid: #"{"a": 1}"#, invalid: "{}", path: "", keyword: "minProperties"),
        KeywordCase(schema: #"{"required": ["id"]}"#, valid: #"{"id": null}"#, invalid: #"{"ID": 1}"#, path: "", keyword: "required"),
        KeywordCase(schema: #"{"properties": {"price": {"minimum": 0}}}"#, valid: #"{"price": 0, "other": -5}"#,
                    invalid: #"{"price": -1}"#, path: "/price", keyword: "minimum"),
        KeywordCase(schema: #"{"properties": {"secret": false}}"#, valid: #"{"public": 1}"#, invalid: #"{"secret": 1}"#,
                    path: "/secret", keyword: "properties"),
        KeywordCase(schema: #"{"patternProperties": {"^x-": {"type": "string"}}}"#, valid: #"{"x-a": "s", "b": 1}"#,
                    invalid: #"{"x-a": 1}"#, path: "/x-a", keyword: "type"),
        KeywordCase(schema: #"{"properties": {"a": true}, "patternProperties": {"^b": true}, "additionalProperties": false}"#,
                    valid: #"{"a": 1, "bb": 2}"#, invalid: #"{"a": 1, "c/d": 3}"#, path: "/c~1d", keyword: "additionalProperties"),
        KeywordCase(schema: #"{"additionalProperties": {"type": "number"}}"#, valid: #"{"a": 1}"#, invalid: #"{"a": "1"}"#,
                    path: "/a", keyword: "type"),
        KeywordCase(schema: #"{"dependencies": {"card": ["billing"]}}"#, valid: #"{"card": 1, "billing": 2}"#,
                    invalid: #"{"card": 1}"#, path: "", keyword: "dependencies", draft: .draft7),
        KeywordCase(schema: #"{"dependencies": {"card": {"required": ["cvv"]}}}"#, valid: #"{"billing": 1}"#,
                    invalid: #"{"card": 1}"#, path: "", keyword: "required", draft: .draft7),
        KeywordCase(schema: #"{"dependentRequired": {"card": ["billing"]}}"#, valid: #"{"billing": 2}"#,
                    invalid: #"{"card": 1}"#, path: "", keyword: "dependentRequired"),
        KeywordCase(schema: #"{"dependentSchemas": {"card": {"properties": {"cvv": {"type": "string"}}}}}"#,
                    valid: #"{"cvv": 123}"#, invalid: #"{"card": 1, "cvv": 123}"#, path: "/cvv", keyword: "type"),
        KeywordCase(schema: #"{"propertyNames": {"maxLength": 3}}"#, valid: #"{"abc": 1}"#, invalid: #"{"abcd": 1}"#,
                    path: "", keyword: "propertyNames"),
        KeywordCase(schema: #"{"if": {"properties": {"kind": {"const": "card"}}}, "then": {"required": ["number"]}}"#,
                    valid: #"{"kind": "cash"}"#, invalid: #"{"kind": "card"}"#, path: "", keyword: "required"),
        KeywordCase(schema: #"{"if": {"properties": {"kind": {"const": "card"}}}, "else": {"properties": {"amount": {"maximum": 100}}}}"#,
                    valid: #"{"kind": "card", "amount": 500}"#, invalid: #"{"kind": "cash", "amount": 500}"#, path: "/amount", keyword: "maximum"),
        KeywordCase(schema: #"{"allOf": [{"type": "integer"}, {"minimum": 2}]}"#, valid: "3", invalid: "1", path: "", keyword: "minimum"),
        KeywordCase(schema: #"{"anyOf": [{"type": "string"}, {"minimum": 10}]}"#, valid: "11", invalid: "5", path: "", keyword: "anyOf"),
        KeywordCase(schema: #"{"oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]}"#, valid: "9", invalid: "15", path: "", keyword: "oneOf"),
        KeywordCase(schema: #"{"oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]}"#, valid: "10", invalid: "7", path: "", keyword: "oneOf"),
        KeywordCase(schema: #"{"not": {"type": "null"}}"#, valid: "0", invalid: "null", path: "", keyword: "not"),
        KeywordCase(schema: "true", valid: #"{"any": ["thing"]}"#, invalid: "", path: "", keyword: ""),
        KeywordCase(schema: "false", valid: "", invalid: "1", path: "", keyword: "false"),
        KeywordCase(schema: ##"{"properties": {"n": {"$ref": "#/definitions/positive"}}, "definitions": {"positive": {"exclusiveMinimum": 0}}}"##,
                    valid: #"{"n": 1}"#, invalid: #"{"n": 0}"#, path: "/n", keyword: "exclusiveMinimum", draft: .draft7),
        KeywordCase(schema: ##"{"items": {"$ref": "#/$defs/id"}, "$defs": {"id": {"type": "string", "format": "uuid"}}}"##,
                    valid: #"["x"]"#, invalid: "[1]", path: "/0", keyword: "type"),
        KeywordCase(schema: ##"{"properties": {"a": {"$ref": "#item"}}, "$defs": {"x": {"$anchor": "item", "type": "boolean"}}}"##,
                    valid: #"{"a": true}"#, invalid: #"{"a": 0}"#, path: "/a", keyword: "type"),
        KeywordCase(schema: ##"{"properties": {"a": {"$ref": "#item"}}, "definitions": {"x": {"$id": "#item", "type": "boolean"}}}"##,
                    valid: #"{"a": true}"#, invalid: #"{"a": 0}"#, path: "/a", keyword: "type", draft: .draft7),
        KeywordCase(schema: #"{"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}"#, valid: #"{"a": 1}"#,
                    invalid: #"{"a": 1, "b": 2}"#, path: "/b", keyword: "unevaluatedProperties"),
        KeywordCase(schema: #"{"allOf": [{"items": [true, true]}], "unevaluatedItems": {"type": "string"}}"#, valid: #"[1, 2, "c"]"#,
                    invalid: "[1, 2, 3]", path: "/2", keyword: "type"),
    ]

    @Test("each keyword accepts a valid value and reports an invalid one where it is", arguments: keywordCases)
    func keyword(_ test: KeywordCase) throws {
        let schema = try JSONSchema(Self.json(test.schema), draft: test.draft)
        if !test.valid.isEmpty {
            let valid = try Self.json(test.valid)
            #expect(schema.violations(of: valid) == [])
            #expect(schema.validates(valid))
        }
        if !test.invalid.isEmpty {
            let invalid = try Self.json(test.invalid)
            let found = schema.violations(of: invalid)
            #expect(found.map(\.instancePath) == [test.path])
            #expect(found.map(\.keyword) == [test.keyword])
            #expect(!schema.validates(invalid))
        }
    }

    @Test("messages say what is wrong in plain words")
    func messages() throws {
        func message(_ schema: String, _ instance: String) throws -> String {
            try JSONSchema(Self.json(schema)).violations(of: Self.json(instance)).map(\.message).joined(separator: " | ")
        }
        #expect(try message(#"{"minimum": 0}"#, "-1") == "-1 is less than the minimum 0")
        #expect(try message(#"{"type": ["string", "null"]}"#, "5") == "expected a string or null, not a number (5)")
        #expect(try message(#"{"required": ["id"]}"#, "{}") == #"the required property "id" is missing"#)
        #expect(try message(#"{"maxLength": 3}"#, #""four""#) == #""four" is 4 characters long, more than the maximum length 3"#)
        #expect(try message(#"{"enum": ["a", "b"]}"#, #""c""#) == #""c" is not one of the allowed values: "a", "b""#)
        #expect(try message(#"{"uniqueItems": true}"#, "[1, 2, 1.0]") == "items 0 and 2 are equal (1), but every item must be different")
        #expect(try message(#"{"properties": {"name": true}, "additionalProperties": false}"#, #"{"nmae": 1}"#)
            == #"the property "nmae" is not allowed: "additionalProperties" is false, and it is not one of "properties" ("name")"#)
        #expect(try message(#"{"anyOf": [{"type": "string"}, {"minimum": 10}]}"#, "5")
            == #"5 matches none of the 2 schemas of "anyOf" (1: at the top level: expected a string, not a number (5) (type); 2: at the top level: 5 is less than the minimum 10 (minimum))"#)
        #expect(try message(#"{"oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]}"#, "15")
            == #"15 matches schemas 1 and 2 of "oneOf", but must match exactly one"#)
        #expect(try message(#"{"propertyNames": {"pattern": "^[a-z]+$"}}"#, #"{"Bad": 1}"#)
            == #"the property name "Bad" is not valid: "Bad" does not match the pattern ^[a-z]+$"#)
        let violation = JSONSchema.Violation(instancePath: "/items/0/price", keyword: "minimum", message: "-1 is less than the minimum 0")
        #expect(violation.description == "at /items/0/price: -1 is less than the minimum 0 (minimum)")
    }

    static let order = #"""
    {"type": "object", "required": ["id", "name"], "additionalProperties": false,
     "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                    "lines": {"items": {"properties": {"price": {"minimum": 0}, "quantity": {"type": "integer", "minimum": 1}}}}}}
    """#

    @Test("every violation is reported, in order, with its place and keyword")
    func severalViolations() throws {
        let schema = try JSONSchema(Self.json(Self.order))
        let instance = try Self.json(#"""
        {"id": "x", "tags": ["a", 1, "b"], "extra": true, "lines": [{"price": 1, "quantity": 1}, {"price": -1, "quantity": 0.5}]}
        """#)
        let found = schema.violations(of: instance)
        #expect(found.map { "\($0.instancePath) \($0.keyword)" } == [
            " required", "/id type", "/lines/1/price minimum", "/lines/1/quantity type", "/lines/1/quantity minimum",
            "/tags/1 type", "/tags maxItems", "/extra additionalProperties",
        ])
        #expect(found.first?.message == #"the required property "name" is missing"#)
        #expect(schema.violations(of: instance, limit: 2).map(\.keyword) == ["required", "type"])
        #expect(schema.violations(of: try Self.json(#"{"id": 1, "name": "n", "tags": [], "lines": [{"price": 0}]}"#)) == [])
    }

    static let tree = #"""
    {"$defs": {"node": {"type": "object", "required": ["value"],
                        "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
     "$ref": "#/$defs/node"}
    """#

    /// A chain `depth` nodes deep, the last with `leaf` as its value.
    static func chain(depth: Int, leaf: JSONValue) -> JSONValue {
        var node = JSONValue.object(["value": leaf])
        for level in 1..<depth { node = .object(["value": .int(level), "children": .array([.object(["value": .int(0)]), node])]) }
        return node
    }

    @Test("a recursive schema checks a deep tree, and finds a mistake at its bottom")
    func recursiveTree() throws {
        let schema = try JSONSchema(Self.json(Self.tree))
        #expect(schema.violations(of: Self.chain(depth: 60, leaf: .int(1))) == [])
        let found = schema.violations(of: Self.chain(depth: 60, leaf: .string("x")))
        #expect(found.map(\.keyword) == ["type"])
        #expect(found.first?.instancePath == String(repeating: "/children/1", count: 59) + "/value")
        let text = #"{"value": 1, "children": [{"value": 2, "children": [{"children": []}]}]}"#
        #expect(schema.violations(of: try Self.json(text)).map { "\($0.instancePath) \($0.keyword)" } == ["/children/0/children/0 required"])
    }

    static let list = #"""
    {"anyOf": [{"type": "null"}, {"type": "object", "required": ["head"], "additionalProperties": {"$ref": "#"},
                                  "properties": {"head": {"type": "integer"}}}]}
    """#

    @Test("a value nested deeper than the schema checks stops with a violation, within a 512 KB thread stack", arguments: [tree, list])
    func tooDeep(_ text: String) throws {
        let schema = try JSONSchema(Self.json(text))
        var list = JSONValue.null
        for level in 0..<300 { list = .object(["head": .int(level), "tail": list]) }
        let deep = text == Self.tree ? Self.chain(depth: 300, leaf: .int(1)) : list
        let done = DispatchSemaphore(value: 0)
        let found = ThreadResult()
        let thread = Thread {
            found.set(schema.violations(of: deep).map(\.description))
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        let messages = found.get()
        #expect(messages.contains { $0.contains("the value is nested too deeply to check against this schema") }, "\(messages)")
    }

    @Test("a schema that refers to itself without going into the value stops", arguments: [
        ##"{"$ref": "#"}"##,
        ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}"##,
        ##"{"anyOf": [{"$ref": "#"}, {"$ref": "#"}, {"$ref": "#"}]}"##,
        ##"{"properties": {"a": {"$ref": "#/properties/a"}}}"##,
    ])
    func cycle(_ text: String) throws {
        let schema = try JSONSchema(Self.json(text))
        let found = schema.violations(of: try Self.json(#"{"a": 1}"#))
        #expect(!found.isEmpty)
        #expect(found.contains { $0.message.contains("the schema refers to itself without end") })
        #expect(!schema.validates(.int(1)) || text.contains("properties"))
    }

    @Test("draft 7 ignores what is beside $ref; 2019-09 applies it; \"$schema\" chooses the draft")
    func drafts() throws {
        let beside = ##"{"$ref": "#/definitions/text", "maxLength": 2, "definitions": {"text": {"type": "string"}}}"##
        #expect(try JSONSchema(Self.json(beside), draft: .draft7).validates(.string("long")))
        #expect(try JSONSchema(Self.json(beside)).violations(of: .string("long")).map(\.keyword) == ["maxLength"])
        let declared = ##"{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/text", "maxLength": 2, "definitions": {"text": {"type": "string"}}}"##
        let schema = try JSONSchema(Self.json(declared))
        #expect(schema.draft == .draft7)
        #expect(schema.validates(.string("long")))
        // Keywords of the other draft are unknown, so ignored.
        #expect(try JSONSchema(Self.json(#"{"dependentRequired": {"a": ["b"]}}"#), draft: .draft7).validates(Self.json(#"{"a": 1}"#)))
        #expect(try JSONSchema(Self.json(#"{"unevaluatedProperties": false}"#), draft: .draft7).validates(Self.json(#"{"a": 1}"#)))
        #expect(try JSONSchema(Self.json(#"{"$schema": "https://json-schema.org/draft/2019-09/schema"}"#), draft: .draft7).draft == .draft2019_09)
    }

    @Test("JSON-pointer references: ~0, ~1, %-escapes, array positions, and the document's own $id")
    func pointers() throws {
        let schema = try JSONSchema(Self.json(#"""
        {"$id": "https://example.com/schemas/order.json",
         "$defs": {"a/b": {"type": "string"}, "c~d": {"type": "integer"}, "e f%": {"type": "boolean"}},
         "x-choices": [{"const": 0}, {"const": 1}],
         "properties": {"s": {"$ref": "#/$defs/a~1b"}, "i": {"$ref": "#/$defs/c~0d"}, "b": {"$ref": "#/$defs/e%20f%25"},
                        "one": {"$ref": "#/x-choices/1"}, "full": {"$ref": "https://example.com/schemas/order.json#/$defs/c~0d"},
                        "relative": {"$ref": "order.json#/$defs/c~0d"}}}
        """#))
        #expect(schema.violations(of: try Self.json(#"{"s": "x", "i": 1, "b": true, "one": 1, "full": 2, "relative": 3}"#)) == [])
        let found = schema.violations(of: try Self.json(#"{"s": 1, "i": "x", "b": 1, "one": 2, "full": "x", "relative": "x"}"#))
        #expect(found.map { "\($0.instancePath) \($0.keyword)" } == [
            "/b type", "/full type", "/i type", "/one const", "/relative type", "/s type",
        ])
    }

    @Test("$recursiveRef, and anchors found only through a reference")
    func otherReferences() throws {
        let list = try JSONSchema(Self.json(##"{"required": ["v"], "properties": {"next": {"$recursiveRef": "#"}}}"##))
        #expect(list.validates(try Self.json(#"{"v": 1, "next": {"v": 2, "next": {"v": 3}}}"#)))
        #expect(list.violations(of: try Self.json(#"{"v": 1, "next": {"next": {"v": 3}}}"#)).map { "\($0.instancePath) \($0.keyword)" }
            == ["/next required"])
        let late = try JSONSchema(Self.json(##"""
        {"properties": {"a": {"$ref": "#late"}, "b": {"$ref": "#/x-extra/s"}}, "x-extra": {"s": {"$anchor": "late", "type": "string"}}}
        """##))
        #expect(late.violations(of: try Self.json(#"{"a": 1, "b": "x"}"#)).map { "\($0.instancePath) \($0.keyword)" } == ["/a type"])
    }

    @Test("unevaluatedProperties and unevaluatedItems see what subschemas that hold evaluated")
    func unevaluated() throws {
        let schema = try JSONSchema(Self.json(#"""
        {"properties": {"kind": {"enum": ["card", "cash"]}},
         "if": {"properties": {"kind": {"const": "card"}}}, "then": {"properties": {"number": {"type": "string"}}},
         "anyOf": [{"properties": {"amount": {"type": "number"}}}, {"properties": {"note": true}}],
         "unevaluatedProperties": false}
        """#))
        #expect(schema.validates(try Self.json(#"{"kind": "card", "number": "4111", "amount": 5, "note": "x"}"#)))
        #expect(schema.violations(of: try Self.json(#"{"kind": "cash", "number": "4111"}"#)).map { "\($0.instancePath) \($0.keyword)" }
            == ["/number unevaluatedProperties"])
        // A subschema that fails evaluates nothing: "amount" is not a number, so only "note"'s branch counts.
        #expect(schema.violations(of: try Self.json(#"{"kind": "cash", "amount": "5", "note": 1}"#)).map { "\($0.instancePath) \($0.keyword)" }
            == ["/amount unevaluatedProperties"])
        // Through references: a `$ref` beside the keyword, and one that is a whole subschema.
        let base = #"{"$defs": {"base": {"properties": {"a": true}}}, "unevaluatedProperties": false, "#
        for text in [base + ##""$ref": "#/$defs/base"}"##, base + ##""allOf": [{"$ref": "#/$defs/base"}]}"##] {
            let referring = try JSONSchema(Self.json(text))
            #expect(referring.validates(try Self.json(#"{"a": 1}"#)))
            #expect(referring.violations(of: try Self.json(#"{"a": 1, "b": 2}"#)).map { "\($0.instancePath) \($0.keyword)" }
                == ["/b unevaluatedProperties"])
        }
        let items = try JSONSchema(Self.json(#"{"items": [{"type": "integer"}], "unevaluatedItems": false}"#))
        #expect(items.validates(try Self.json("[1]")))
        #expect(items.violations(of: try Self.json("[1, 2, 3]")).map { "\($0.instancePath) \($0.keyword)" }
            == ["/1 unevaluatedItems", "/2 unevaluatedItems"])
    }

    @Test("OpenAPI 3.0: nullable lets null through a type, and exclusive bounds may be booleans")
    func openAPI30() throws {
        let text = #"{"type": "string", "nullable": true, "maxLength": 2}"#
        #expect(try JSONSchema(Self.json(text), openAPI30: true).validates(.null))
        #expect(try JSONSchema(Self.json(text), openAPI30: true).violations(of: .string("abc")).map(\.keyword) == ["maxLength"])
        #expect(try JSONSchema(Self.json(text)).violations(of: .null).map(\.keyword) == ["type"])
        let bounds = try JSONSchema(Self.json(#"{"minimum": 0, "exclusiveMinimum": true, "maximum": 5, "exclusiveMaximum": false}"#), openAPI30: true)
        #expect(bounds.violations(of: .int(0)).map(\.keyword) == ["exclusiveMinimum"])
        #expect(bounds.validates(.int(5)))
    }

    static let formats: [(format: String, valid: [String], invalid: [String])] = [
        ("date-time", ["2024-02-29T23:59:59Z", "2023-06-30t12:00:00.123+02:00", "1998-12-31T23:59:60Z", "1998-12-31T15:59:60-08:00"],
         ["2023-02-29T10:00:00Z", "2024-01-31 10:00:00Z", "2024-01-31T10:00:00", "2024-01-31T24:00:00Z", "2024-01-31T10:00:60Z"]),
        ("date", ["2000-02-29", "2024-12-31"], ["1900-02-29", "2024-1-31", "2024-04-31", "2024-01-31T00:00:00Z"]),
        ("time", ["09:30:00Z", "23:59:59.5-05:30"], ["9:30:00Z", "09:30:00", "09:60:00Z", "09:30:00+5:00"]),
        ("email", ["ada@example.com", "first.last+tag@sub.example.org", "\"odd name\"@example.com", "joe@[192.168.0.1]"],
         ["no-at-sign", "two..dots@example.com", ".lead@example.com", "ada@", "ada@-bad-.com"]),
        ("uuid", ["123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"],
         ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"]),
        ("uri", ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "http://[2001:db8::1]:8080/x", "mailto:ada@example.com"],
         ["/relative/path", "https://example.com/a b", "http://exa mple.com", "1http://x", "https://example.com/%zz"]),
        ("ipv4", ["192.168.0.1", "0.0.0.0", "255.255.255.255"], ["256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "١.2.3.4"]),
        ("ipv6", ["::1", "2001:db8::8a2e:370:7334", "::", "::ffff:192.0.2.128", "1:2:3:4:5:6:7:8"],
         ["1:2:3:4:5:6:7:8:9", "2001::db8::1", "12345::1", ":1:2:3:4:5:6:7", "fe80::1%eth0", "1::2:3:4:5:6:7:8"]),
        ("hostname", ["example.com", "a-b.c1.example", "localhost"], ["-bad.example.com", "ex_ample.com", "a..b", String(repeating: "a", count: 64) + ".com"]),
    ]

    @Test("formats are annotations by default, and checked when asked", arguments: formats.map(\.format))
    func format(_ name: String) throws {
        let entry = try #require(Self.formats.first { $0.format == name })
        let schemaText = JSONValue.object(["format": .string(name)])
        let annotating = try JSONSchema(schemaText)
        let checking = try JSONSchema(schemaText, validatesFormats: true)
        for text in entry.valid {
            #expect(checking.violations(of: .string(text)) == [], "\(name): \(text)")
        }
        for text in entry.invalid {
            #expect(checking.violations(of: .string(text)).map(\.keyword) == ["format"], "\(name): \(text)")
            #expect(annotating.validates(.string(text)))
        }
        #expect(checking.validates(.int(12)))
        #expect(try JSONSchema(JSONValue.object(["format": .string("color")]), validatesFormats: true).validates(.string("anything")))
    }

    @Test("embedded resources: a $id below the top level sets the base URI its references resolve against")
    func embeddedResources() throws {
        let schema = try JSONSchema(Self.json(##"""
        {"$id": "https://example.com/root.json",
         "properties": {"a": {"$ref": "item.json"}, "b": {"$ref": "https://example.com/nested/leaf.json#top"}},
         "$defs": {"item": {"$id": "item.json", "type": "integer"},
                   "nested": {"$id": "nested/", "$defs": {"leaf": {"$id": "leaf.json", "$anchor": "top", "type": "string"}}}}}
        """##))
        #expect(schema.validates(try Self.json(#"{"a": 1, "b": "x"}"#)))
        #expect(schema.violations(of: try Self.json(#"{"a": "1", "b": 2}"#)).map { "\($0.instancePath) \($0.keyword)" } == ["/a type", "/b type"])
    }

    @Test("other documents come from the resources the caller gives, by URI")
    func givenResources() throws {
        let resources = try ["https://example.com/money.json": Self.json(#"{"$defs": {"amount": {"type": "number", "minimum": 0}}}"#)]
        let schema = try JSONSchema(Self.json(#"{"properties": {"price": {"$ref": "https://example.com/money.json#/$defs/amount"}}}"#),
                                    resources: resources)
        #expect(schema.validates(try Self.json(#"{"price": 3.5}"#)))
        #expect(schema.violations(of: try Self.json(#"{"price": -1}"#)).map { "\($0.instancePath) \($0.keyword)" } == ["/price minimum"])
    }

    @Test("2020-12: prefixItems, items for the rest, contains counting as evaluated, $dynamicRef")
    func draft2020() throws {
        let tuple = try JSONSchema(Self.json(#"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#), draft: .draft2020_12)
        #expect(tuple.validates(try Self.json(#"["a", 1, 2]"#)))
        #expect(tuple.violations(of: try Self.json(#"["a", 1, "b"]"#)).map { "\($0.instancePath) \($0.keyword)" } == ["/2 type"])
        let contains = try JSONSchema(Self.json(#"{"contains": {"type": "string"}, "unevaluatedItems": false}"#), draft: .draft2020_12)
        #expect(contains.validates(try Self.json(#"["a", "b"]"#)))
        #expect(contains.violations(of: try Self.json(#"["a", 1]"#)).map { "\($0.instancePath) \($0.keyword)" } == ["/1 unevaluatedItems"])
        // A generic list whose items a schema that refers to it chooses, through the dynamic scope.
        let list = try JSONSchema(Self.json(##"""
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/strings.json",
         "$ref": "list.json", "$defs": {"item": {"$dynamicAnchor": "item", "type": "string"},
           "list": {"$id": "list.json", "type": "array", "items": {"$dynamicRef": "#item"},
                    "$defs": {"default": {"$dynamicAnchor": "item"}}}}}
        """##))
        #expect(list.draft == .draft2020_12)
        #expect(list.validates(try Self.json(#"["a", "b"]"#)))
        #expect(list.violations(of: try Self.json(#"["a", 2]"#)).map { "\($0.instancePath) \($0.keyword)" } == ["/1 type"])
    }

    @Test("$recursiveRef follows the outermost resource with $recursiveAnchor; a custom meta-schema's $vocabulary turns assertions off")
    func dynamicScopeAndVocabularies() throws {
        let resources = try [
            "https://example.com/tree.json": Self.json(##"""
            {"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/tree.json", "$recursiveAnchor": true,
             "type": "object", "properties": {"children": {"type": "array", "items": {"$recursiveRef": "#"}}}}
            """##),
            "https://example.com/meta.json": Self.json(##"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/meta.json",
             "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true, "https://json-schema.org/draft/2020-12/vocab/applicator": true}}
            """##),
        ]
        // The extension's own rules reach the children: the tree's `$recursiveRef` comes back to the extension.
        let named = try JSONSchema(Self.json(##"""
        {"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "https://example.com/named.json", "$recursiveAnchor": true,
         "$ref": "tree.json", "required": ["name"]}
        """##), resources: resources)
        #expect(named.validates(try Self.json(#"{"name": "a", "children": [{"name": "b"}]}"#)))
        #expect(named.violations(of: try Self.json(#"{"name": "a", "children": [{"children": []}]}"#)).map { "\($0.instancePath) \($0.keyword)" }
            == ["/children/0 required"])
        let annotations = try JSONSchema(Self.json(#"{"$schema": "https://example.com/meta.json", "minimum": 10, "properties": {"a": false}}"#),
                                         resources: resources)
        #expect(annotations.draft == .draft2020_12)
        #expect(annotations.validates(.int(1)))
        #expect(!annotations.validates(try Self.json(#"{"a": 1}"#)))
        // A dynamic reference back to the same place in the value is stopped, as a `$ref` is.
        let endless = try JSONSchema(Self.json(##"{"$dynamicAnchor": "a", "$dynamicRef": "#a"}"##), draft: .draft2020_12)
        #expect(endless.violations(of: .int(1)).contains { $0.message.contains("the schema refers to itself without end") })
    }

    @Test("an invalid schema is refused with what, where and how to fix it", arguments: [
        (#"{"properties": {"age": {"minimum": "5"}}}"#,
         #"JSON schema at /properties/age/minimum: "minimum" must be a number, not a string ("5"); write it without quotes (5)"#),
        (#"{"type": "int"}"#, #"did you mean "integer"?"#),
        (#"{"items": {"pattern": "[a-"}}"#, "JSON schema at /items/pattern: \"pattern\" is not a valid regular expression"),
        (#"{"patternProperties": {"(": true}}"#, "JSON schema at /patternProperties/(: this \"patternProperties\" name is not a valid"),
        (##"{"properties": {"a": {"$ref": "#/definitions/adress"}}, "definitions": {"address": true}}"##,
         ##"JSON schema at /properties/a/$ref: "$ref": "#/definitions/adress" does not resolve: there is no "adress" at /definitions (it has "address")"##),
        (##"{"$ref": "#nowhere"}"##, #"no subschema declares "$anchor": "nowhere""#),
        (#"{"$ref": "other.json#/a"}"#, #"refers to another document, "other.json", which is not among the schemas given (`resources`, by URI)"#),
        (#"{"$id": "https://example.com/a.json", "$ref": "https://example.com/b.json"}"#,
         #"JSON schema at /$ref: "$ref": "https://example.com/b.json" refers to another document, "https://example.com/b.json""#),
        (#"{"$defs": {"x": {"$anchor": "a"}, "y": {"$anchor": "a"}}}"#, #"the anchor "a" is declared twice in one schema resource"#),
        (#"{"items": 5}"#, "JSON schema at /items: expected a schema (an object, true or false), not a number (5)"),
        (#"{"anyOf": []}"#, #"JSON schema at /anyOf: "anyOf" must be a non-empty array of schemas, not an empty array"#),
        (#"{"required": "id"}"#, #"JSON schema at /required: "required" must list property names in an array"#),
        (#"{"maxLength": -1}"#, #""maxLength" must be a whole number from 0, not a number (-1)"#),
        (#"{"multipleOf": 0}"#, #""multipleOf" must be greater than 0, not 0"#),
        (#"{"minimum": 0, "exclusiveMinimum": true}"#, "draft 4's boolean form is not supported"),
        (#"{"$schema": "http://json-schema.org/draft-03/schema#"}"#, "JSON schema at /$schema: \"$schema\" names \"http://json-schema.org/draft-03/schema#\", a draft this validator does not read"),
        (#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "items": [true]}"#, #"JSON schema at /items: "items" must be one schema in draft 2020-12, not an array; write the array as "prefixItems""#),
        (##"{"$recursiveRef": "#/$defs/a"}"##, ##""$recursiveRef" must be "#""##),
        (##"{"$ref": "#/a~2b"}"##, "\"~\" must be followed by 0"),
        (#"{"enum": 3}"#, "\"enum\" must be an array"),
    ])
    func invalidSchema(_ text: String, _ expected: String) throws {
        let document = try Self.json(text)
        let error = #expect(throws: JSONSchemaError.self) { try JSONSchema(document) }
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test("a schema compiled once is shared across tasks")
    func concurrent() async throws {
        let schema = try JSONSchema(Self.json(Self.order))
        let instance = try Self.json(#"{"id": 1, "name": "n", "tags": ["a", 2]}"#)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { schema.violations(of: instance).count } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 1, count: 8))
    }

    static func json(_ text: String) throws -> JSONValue {
        try #require(JSONValue.parse(Data(text.utf8)), "not JSON: \(text)")
    }
}

/// What a thread of the test found, read after it signalled.
private final class ThreadResult: @unchecked Sendable {  // reason: every access to `messages` goes through the lock
    private let lock = NSLock()
    private var messages: [String] = []

    func set(_ messages: [String]) {
        lock.withLock { self.messages = messages }
    }

    func get() -> [String] {
        lock.withLock { messages }
    }
}
