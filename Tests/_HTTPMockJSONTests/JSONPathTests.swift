import Foundation
import Testing
@testable import _HTTPMockJSON

/// JSONPath as Jayway's JsonPath reads it (WireMock's `matchesJsonPath`, the `jsonPath` template helper): filters
/// with regular expressions and list operators, and functions of what a path selects.
@Suite struct JSONPathTests {
    static let order = JSONValue(data: Data(#"""
        {"customer": {"name": "Ann Lee", "tags": ["vip", "eu"]},
         "items": [{"sku": "A-1", "price": 10, "qty": 2}, {"sku": "b-2", "price": 2.5, "qty": 1}, {"sku": "C-3", "price": 7.5, "qty": 4}],
         "notes": []}
        """#.utf8))!

    private func select(_ path: String) throws -> [JSONValue] {
        try JSONPath(path).select(in: Self.order)
    }

    private func skus(_ path: String) throws -> [String] {
        try select(path).compactMap { if case .object(let item) = $0, case .string(let sku)? = item["sku"] { sku } else { nil } }
    }

    @Test("=~ matches a regular expression, with i for any case")
    func regexFilters() throws {
        #expect(try skus("$.items[?(@.sku =~ /[A-Z]-\\d/)]") == ["A-1", "C-3"])
        #expect(try skus("$.items[?(@.sku =~ /b-.*/i)]") == ["b-2"])
        #expect(try skus("$.items[?(@.price =~ /10/)]") == ["A-1"])   // a number is read as its text
        #expect(try JSONPath("$.items[?(@.sku =~ /A/)]").usesRegex)
    }

    @Test("a text in the document equals a number literal it spells as Java's BigDecimal prints the literal as written",
          arguments: [("1.10", "1.10"), ("1e2", "1E+2"), ("100", "100"), ("0.00001", "0.00001"), ("0.0000001", "1E-7"),
                      ("-2.50", "-2.50"), ("1.0E-5", "0.000010"), ("0.000", "0.000"), ("12E-1", "1.2"), ("+7", "7")])
    func literalText(_ literal: String, _ java: String) throws {
        #expect(JSONValue.bigDecimalText(literal) == java)
        #expect(try holds("@.a == \(literal)", #"{"a": "\#(java)"}"#), "\(literal) against the text \(java)")
    }

    @Test("a number literal and a text that reads as another spelling of it, alone and in a list: equal only as WireMock 2.35.1 answered")
    func literalSpelling() throws {
        #expect(try holds("@.a == 1.10", #"{"a": "1.10"}"#))
        #expect(try !holds("@.a == 1.10", #"{"a": "1.1"}"#))
        #expect(try holds("@.a == 1.10", #"{"a": 1.1}"#))
        // A list's numbers are read as JSON: spelled as Java prints the double.
        #expect(try holds("@.a in [0.00001, 7]", #"{"a": "0.000010"}"#))
        #expect(try !holds("@.a in [0.00001, 7]", #"{"a": "0.00001"}"#))
        #expect(JSONValue.bigDecimalText("1.2.3") == nil)
        #expect(JSONValue.bigDecimalText("1e-9223372036854775808") == nil, "an exponent past Int's range is no crash")
        #expect(try !holds("@.n == 1e-9223372036854775808", #"{"n": "1"}"#))
        #expect(JSONValue.bigDecimalText("-0") == "0")
        #expect(JSONValue.bigDecimalText("-0.0") == "0.0")
        #expect(JSONValue.bigDecimalText("e5") == nil)
    }

    @Test("=~ reads its expression as Jayway's Java does: \\d and \\w in ASCII, i for ASCII letters")
    func regexFiltersInJavasDialect() throws {
        #expect(try holds("@.c =~ /\\d+/", #"{"c": "42"}"#))
        #expect(try !holds("@.c =~ /\\d+/", #"{"c": "٤٢"}"#))
        #expect(try !holds("@.c =~ /\\w+/", #"{"c": "José"}"#))
        #expect(try holds("@.c =~ /jos./i", #"{"c": "JOSÉ"}"#))
        #expect(try !holds("@.c =~ /josé/i", #"{"c": "JOSÉ"}"#))
        #expect(try holds("@.c =~ /josé/i", #"{"c": "JOSé"}"#))
    }

    /// Whether `filter` (`$[?(…)]`) holds for the object written `json`.
    private func holds(_ filter: String, _ json: String) throws -> Bool {
        try !JSONPath("$[?(\(filter))]").select(in: JSONValue(data: Data(json.utf8))!).isEmpty
    }

    @Test("=~ matches the whole text; a number as Java's BigDecimal writes it, a truth value as its word, the rest as empty text, as WireMock 2.35.1 answered")
    func regexFiltersMatchTheWholeValue() throws {
        #expect(try !holds("@.s =~ /x/", #"{"s": "ax"}"#))
        #expect(try holds("@.s =~ /a.*/", #"{"s": "ax"}"#))
        #expect(try holds("@.s =~ /a|ax/", #"{"s": "ax"}"#))
        #expect(try holds("@.n =~ /5/", #"{"n": 5}"#))
        #expect(try holds("@.n =~ /10.0/", #"{"n": 10.0}"#))
        #expect(try holds("@.n =~ /0.000010/", #"{"n": 0.00001}"#))
        #expect(try holds("@.n =~ /1.0E\\+10/", #"{"n": 1e10}"#))
        #expect(try holds("@.n =~ /1.5E-7/", #"{"n": 1.5e-7}"#))
        #expect(try holds("@.n =~ /-123.25/", #"{"n": -123.25}"#))
        // Past 10^7 Java writes an exponent, which BigDecimal writes plainly when its scale allows.
        #expect(try holds("@.n =~ /12345678\\.9/", #"{"n": 12345678.9}"#))
        #expect(try holds("@.n =~ /123456789/", #"{"n": 123456789.0}"#))
        #expect(try holds("@.n =~ /1.5E\\+7/", #"{"n": 1.5e7}"#))
        #expect(try holds("@.b =~ /true/", #"{"b": true}"#))
        #expect(try holds("@.x =~ /.*/", #"{"s": 1}"#))
        #expect(try holds("@.t =~ /.*/", #"{"t": [1]}"#))
        #expect(try !holds("@.t =~ /1/", #"{"t": [1]}"#))
        #expect(try holds("@.z =~ /.*/", #"{"z": null}"#))
    }

    @Test("numbers and texts compare as Jayway's filters compare them, truth values only with truth values, as WireMock 2.35.1 answered")
    func filtersCoerceNumbersAndTexts() throws {
        #expect(try holds("@.n == '5'", #"{"n": 5}"#))
        #expect(try holds("@.n == '5'", #"{"n": 5.0}"#))
        #expect(try holds("@.n == '5.00'", #"{"n": 5}"#))
        #expect(try !holds("@.n == 'five'", #"{"n": 5}"#))
        #expect(try !holds("@.n == '0x5'", #"{"n": 5}"#))
        #expect(try holds("@.s == 5", #"{"s": "5"}"#))
        #expect(try !holds("@.s == 5", #"{"s": "5.0"}"#))
        #expect(try holds("@.s == 5.0", #"{"s": "5.0"}"#))
        #expect(try holds("@.s in [5]", #"{"s": "5"}"#))
        #expect(try holds("@.n in ['5']", #"{"n": 5}"#))
        #expect(try !holds("@.n != '5'", #"{"n": 5}"#))
        #expect(try !holds("@.n nin ['5']", #"{"n": 5}"#))
        #expect(try holds("@.a anyof [5]", #"{"a": ["5"]}"#))
        #expect(try holds("@.a subsetof ['5']", #"{"a": [5]}"#))
        #expect(try !holds("@.a noneof ['5']", #"{"a": [5]}"#))
        #expect(try !holds("@.b == 'true'", #"{"b": true}"#))
        #expect(try !holds("@.s == true", #"{"s": "true"}"#))
        // An order only between two numbers or two texts (by UTF-16 units, as Java's).
        #expect(try !holds("@.s < 5", #"{"s": "3"}"#))
        #expect(try !holds("@.n < '5'", #"{"n": 3}"#))
        #expect(try holds("@.s > 'B'", #"{"s": "a"}"#))
        #expect(try holds("@.s < '\u{FFFD}'", #"{"s": "\ud83d\ude00"}"#))
    }

    @Test("size counts a text's UTF-16 units and gives an object -1, as WireMock 2.35.1 answered")
    func sizeAsJayway() throws {
        #expect(try !holds("@.o size 1", #"{"o": {"a": 1}}"#))
        #expect(try holds("@.o size -1", #"{"o": {"a": 1}}"#))
        #expect(try holds("@.s size 2", #"{"s": "\ud83d\ude00"}"#))
        #expect(try holds("@.s size 1.9", #"{"s": "a"}"#))
        #expect(try !holds("@.n size 1", #"{"n": 5}"#))
    }

    @Test("in, nin, anyof, noneof, subsetof, size and empty")
    func listOperators() throws {
        #expect(try skus("$.items[?(@.sku in ['A-1', 'C-3'])]") == ["A-1", "C-3"])
        #expect(try skus("$.items[?(@.qty nin [1, 2])]") == ["C-3"])
        // A filter on an object tests the object itself, as Jayway's does.
        #expect(try select("$[?(@.customer.tags anyof ['eu', 'us'])]").count == 1)
        #expect(try select("$[?(@.tags anyof ['eu', 'us'])]").isEmpty)
        #expect(try select("$.customer[?(@.tags anyof ['us'])]").isEmpty)
        #expect(try JSONPath("$[?(@.customer.tags subsetof ['vip', 'eu', 'us'])]").select(in: .array([Self.order])).count == 1)
        #expect(try JSONPath("$[?(@.customer.tags noneof ['us'])]").select(in: .array([Self.order])).count == 1)
        #expect(try JSONPath("$[?(@.customer.tags size 2)]").select(in: .array([Self.order])).count == 1)
        #expect(try JSONPath("$[?(@.notes empty true && @.items empty false)]").select(in: .array([Self.order])).count == 1)
        // `empty` holds for a text or a list only: an object, even {}, is neither (WireMock 2.35.1 answered so).
        #expect(try holds("@.a empty true", #"{"a": ""}"#))
        #expect(try !holds("@.a empty true", #"{"a": {}}"#))
        #expect(try !holds("@.a empty false", #"{"a": {"k": 1}}"#))
    }

    @Test("a filter on an object tests the object itself, and a scan tests each object once, as WireMock 2.35.1 answered")
    func filtersOnObjects() throws {
        let document = JSONValue(data: Data(#"{"customer": {"name": "ann", "tags": ["eu"], "x": {"tags": 1, "name": "inner"}}, "n": 1}"#.utf8))!
        func names(_ path: String) throws -> [String] {
            try JSONPath(path).select(in: document).map { value in
                if case .string(let text) = value { return text }
                if case .object(let object) = value { return object.keys.sorted().joined(separator: ",") }
                return "\(value)"
            }
        }
        #expect(try names("$[?(@.customer)]") == ["customer,n"])
        #expect(try names("$.customer[?(@.tags)]") == ["name,tags,x"])
        #expect(try names("$[?(@.tags)]").isEmpty)
        #expect(try names("$.customer[?(@.tags)].name") == ["ann"])
        #expect(try names("$..[?(@.tags)].name") == ["ann", "inner"])
        let lists = JSONValue(data: Data(#"{"a": [{"k": 1}, {"j": 0}], "b": {"k": 2}, "c": [[{"k": 3}]]}"#.utf8))!
        #expect(try JSONPath("$..[?(@.k)].k").select(in: lists) == [.int(1), .int(2), .int(3)])
        #expect(try JSONPath("$.a[?(@.k)]").select(in: lists).count == 1)
        // `.` before a bracket is read as the bracket alone, as in Jayway: `$.[?(…)]` is `$[?(…)]`.
        #expect(try JSONPath("$.a.[?(@.k)].k").select(in: lists) == [.int(1)])
        #expect(try JSONPath("$.c.[0].[0].k").select(in: lists) == [.int(3)])
    }

    @Test("filters as Jayway's (WireMock 2.35.1 answered each): a member not there differs from every value; anyof, noneof and subsetof hold only for a list")
    func missingMembersAndLists() throws {
        let items = JSONValue(data: Data(#"[{"k": "x", "j": 1}, {"k": "yy"}, {"j": 3, "k": [1, 2]}, {"j": 4}, 1, 2, "zz", null]"#.utf8))!
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func selected(_ path: String) throws -> String {
            try JSONPath(path).select(in: .object(["a": items])).map { String(decoding: try encoder.encode($0), as: UTF8.self) }
                .joined(separator: ",")
        }
        let allButX = #"{"k":"yy"},{"j":3,"k":[1,2]},{"j":4},1,2,"zz",null"#
        #expect(try selected("$.a[?(@.k != 'x')]") == allButX)
        #expect(try selected("$.a[?(@.k nin ['x'])]") == allButX)
        #expect(try selected("$.a[?(@.k in ['x'])]") == #"{"j":1,"k":"x"}"#)
        #expect(try selected("$.a[?(@.k anyof ['x'])]") == "")
        #expect(try selected("$.a[?(@.k noneof ['x'])]") == #"{"j":3,"k":[1,2]}"#)
        #expect(try selected("$.a[?(@.k subsetof ['x'])]") == "")
        #expect(try selected("$.a[?(@.k < 5)]") == "")
    }

    @Test("filter tests as Jayway's (WireMock 2.35.1 answered each): ! negates, parentheses group, && binds before ||")
    func negationAndGroups() throws {
        let items = JSONValue(data: Data(#"[{"k": "x", "j": 1}, {"k": "yy"}, {"j": 3, "k": [1, 2]}, {"j": 4}, 1, null]"#.utf8))!
        func count(_ path: String) throws -> Int { try JSONPath(path).select(in: .object(["a": items])).count }
        #expect(try count("$.a[?(!(@.k == 'x'))]") == 5)
        #expect(try count("$.a[?(!@.k)]") == 3)
        #expect(try count("$.a[?(!(@.k == 'x') && @.j)]") == 2)
        #expect(try count("$.a[?(!(@.k == 'x' || @.k == 'yy'))]") == 4)
        // && first: j || (yy && x) is every item with j; (j || yy) && x would be one.
        #expect(try count("$.a[?(@.j || @.k == 'yy' && @.k == 'x')]") == 3)
        #expect(try count("$.a[?((@.j || @.k == 'yy') && @.k == 'x')]") == 1)
        #expect(try count("$.a[?(!!@.k)]") == 3)
        #expect(throws: JSONPathError.self) { try JSONPath("$.a[?((@.j)]") }
        #expect(throws: JSONPathError.self) { try JSONPath("$.a[?(!)]") }
    }

    @Test("unions as Jayway's (WireMock 2.35.1 answered each): indices in their order, names at the end one object of those there")
    func unions() throws {
        let document = JSONValue(data: Data(#"{"a": [{"k": "x", "j": 1}, {"k": "yy"}, {"j": 3}], "b": 5, "o": {"x": {"z": 1}, "y": [1]}}"#.utf8))!
        func selected(_ path: String) throws -> [JSONValue] { try JSONPath(path).select(in: document) }
        #expect(try selected("$.a[2,0]").map { $0.objectMember("j") } == [.int(3), .int(1)])
        #expect(try selected("$.a[-1, 0, 9]").count == 2)
        #expect(try selected("$['b','o']") == [.object(["b": .int(5), "o": document.objectMember("o")!])])
        #expect(try selected("$.o['x','missing']") == [.object(["x": .object(["z": .int(1)])])])
        #expect(try selected("$.o['missing','other']") == [.object([:])])
        #expect(try selected("$['o','b'].x") == [.object(["z": .int(1)])])
        #expect(try selected("$.a[*]['k','j']").count == 3)
        #expect(try JSONPath("$.o['x','y']").isDefinite && !JSONPath("$['o','b'].x").isDefinite && !JSONPath("$.a[0,1]").isDefinite)
        #expect(throws: JSONPathError.self) { try JSONPath("$.a[0,]") }
        #expect(throws: JSONPathError.self) { try JSONPath("$['a',]") }
    }

    @Test("functions of what a path selects, at its end or in a filter's operand")
    func functions() throws {
        #expect(try select("$.items.length()") == [.int(3)])
        #expect(try select("$.customer.name.length()") == [.int(7)])
        #expect(try select("$.items[*].price.min()") == [.double(2.5)])
        #expect(try select("$.items[*].price.max()") == [.double(10)])
        #expect(try select("$.items[*].qty.sum()") == [.double(7)])
        #expect(try select("$.items[*].price.avg()") == [.double(20.0 / 3)])
        #expect(try select("$.customer.tags.first()") == [.string("vip")])
        #expect(try select("$.customer.keys()") == [.array([.string("name"), .string("tags")])])
        #expect(try JSONPath("$[?(@.items.length() > 2)]").select(in: .array([Self.order])).count == 1)
        #expect(try select("$.notes.min()").isEmpty)
    }

    @Test("what is not read is refused, naming it")
    func refusals() {
        #expect { try JSONPath("$.items.concat()") } throws: { ($0 as? JSONPathError)?.message.contains("concat() is not a function this library reads") == true }
        #expect { try JSONPath("$.items[?(@.sku =~ /[/)]") } throws: { ($0 as? JSONPathError)?.message.contains("is not a regular expression") == true }
        #expect { try JSONPath("$.items[?(@.sku in 'A')]") } throws: { ($0 as? JSONPathError)?.message.contains("in compares with a list") == true }
        #expect { try JSONPath("$.items[?(@.sku size 'x')]") } throws: { ($0 as? JSONPathError)?.message.contains("size compares with a number") == true }
    }
}

private extension JSONValue {
    func objectMember(_ name: String) -> JSONValue? {
        if case .object(let members) = self { members[name] } else { nil }
    }
}
