import Foundation
import Testing
@testable import _HTTPMockJSON

/// JSON read straight from bytes and written back without `Codable`: the same values and text as Foundation's.
@Suite struct JSONValueTests {
    static let documents = [
        #"{"b": 1, "a": [true, false, null], "c": {"z": "x", "é": "ü", "B": -0.5}}"#,
        #"[0, -0, 12.5, 1e20, 1E-7, 2.0, 100.0, 9007199254740993, -12, 1.5e15, 123456789.123, 5e-324]"#,
        #"["a\"b\\c\/d", "\n\t\b\f\r", "\u0001\u001f", "\u00e9\u20ac", "\ud83d\ude00", "plain é €"]"#,
        #"  {"nested": [[[{}]], []], "empty": ""}  "#,
        #"9223372036854775807"#, #"-9223372036854775808"#, #""top""#,
    ]

    @Test("strict JSON parses to what JSONDecoder gives, and writes what JSONEncoder writes", arguments: documents)
    func sameAsFoundation(_ text: String) throws {
        let data = Data(text.utf8)
        let parsed = try #require(JSONValue.parse(data))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(parsed.matches(decoded))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: parsed.data, as: UTF8.self) == String(decoding: try encoder.encode(parsed), as: UTF8.self))
    }

    @Test("anything but strict JSON is left to the slow path, which explains it", arguments: [
        #"{"a": 1,}"#, #"{'a': 1}"#, #"// c"# + "\n{}", #"{"a": 1, "a": 2}"#, #"[01]"#, #"[1.]"#, #"[.5]"#, #"["\x"]"#,
        "[\"tab\there\"]", #"["\ud800"]"#, #"{"a" 1}"#, #"[1 2]"#, #"tru"#, #"{} {}"#, "", #"[1e400]"#,
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
    func refused(_ text: String) {
        #expect(JSONValue.parse(Data(text.utf8)) == nil)
    }

    @Test("a number neither Int nor Double holds is kept as written, compared and ordered by its exact value", arguments: [
        ("9223372036854775808", "9223372036854775807", "9.223372036854775808e18"),
        ("12345678901234567890123", "12345678901234567890122", "1.2345678901234567890123e22"),
        ("-12345678901234567890123", "-12345678901234567890124", "-12345678901234567890123.000"),
        ("0.10000000000000000001", "0.1", "1.0000000000000000001e-1"),
        ("0.1000000000000000055511151231257827", "0.1", "0.10000000000000000555111512312578270"),
        ("9007199254740993.0", "9007199254740992", "9007199254740993"),
    ])
    func exactNumbers(_ text: String, below: String, sameValue: String) throws {
        let value = try #require(JSONValue.parse(Data(text.utf8)))
        guard case .decimal(text) = value else { Issue.record("\(text) read as \(value)"); return }
        #expect(String(decoding: value.data, as: UTF8.self) == text)
        let lower = try #require(JSONValue.parse(Data(below.utf8)))
        #expect(!value.matches(lower) && !lower.matches(value))
        #expect(try #require(lower.exactNumber) < #require(value.exactNumber))
        let same = try #require(JSONValue.parse(Data(sameValue.utf8)))
        #expect(value.matches(same) && same.matches(value))
        #expect(JSONValue.parse(Data("[\(text)]".utf8)) == .array([value]))
    }

    @Test("a number a double holds to its last digit stays a double", arguments: [
        "0.1", "1.5e300", "123456789.123", "0.30000000000000004", "1e2", "2.000000000000000000000",
    ])
    func doublesStayDoubles(_ text: String) throws {
        let value = try #require(JSONValue.parse(Data(text.utf8)))
        guard case .double(let number) = value else { Issue.record("\(text) read as \(value)"); return }
        #expect(number == Double(text))
    }

    @Test("bytes that are not UTF-8 are refused")
    func invalidUTF8() {
        #expect(JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])) == nil)
        #expect(JSONValue.parse(Data([0x22, 0x5C, 0x6E, 0xFF, 0x22])) == nil)
    }
}

/// `JSONValue(data:)` reads strict JSON straight from its bytes and the rest through `JSONSerialization`: generated
/// documents must give the value the `JSONSerialization` route alone gives, integers and other numbers apart.
@Suite struct JSONValueFastPathTests {
    /// SplitMix64: the same numbers from the same state, on every platform.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func next(_ bound: Int) -> Int {
            Int(next() % UInt64(bound))
        }

        mutating func document(depth: Int) -> String {
            let scalars = ["0", "-0", "1", "-12", "1e2", "1E-3", "2.0", "-0.0", "9223372036854775807", "9223372036854775808",
                           "18446744073709551616", "0.1", "true", "false", "null", #""""#, #""a\"b""#, #""\u00e9\ud83d\ude00""#,
                           #""\/\n""#, #""é€""#]
            switch depth > 3 ? 0 : next(4) {
            case 0, 1: return scalars[next(scalars.count)]
            case 2: return "[" + (0..<next(4)).map { _ in document(depth: depth + 1) }.joined(separator: ", ") + "]"
            default:
                let keys = ["a", "b", "é", "", "k\\\"q"]
                var used = Set<Int>()
                let members = (0..<next(4)).compactMap { _ -> String? in
                    let key = next(keys.count)
                    guard used.insert(key).inserted else { return nil }
                    return "\"\(keys[key])\": " + document(depth: depth + 1)
                }
                return "{" + members.joined(separator: ",") + "}"
            }
        }
    }

    @Test("generated documents read alike straight from bytes and through JSONSerialization")
    func sameAsSerialization() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: seed)
        for _ in 0..<500 {
            let text = generator.document(depth: 0)
            let data = Data(text.utf8)
            let slow = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            let expected = try #require(JSONValue(object: slow), "seed \(seed): \(text)")
            #expect(JSONValue(data: data) == expected, "seed \(seed): \(text)")
        }
    }

    @Test("the compact text at a path reads back as the value there; a key twice at any depth leaves it to Foundation")
    func compactTextAndKeysTwice() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: seed)
        for _ in 0..<500 {
            let inner = generator.document(depth: 1)
            let text = #"{"z": [1, {"q": 2}], "response": {"x": {"y": 3}, "jsonBody": "# + inner + #", "after": {"w": []}}}"#
            let data = Data(text.utf8)
            let whole = try #require(JSONValue.parse(data), "seed \(seed): \(text)")
            guard case .object(let top) = whole, case .object(let response)? = top["response"] else {
                Issue.record("seed \(seed): \(text)"); continue
            }
            let compact = try #require(JSONValue.compactText(at: ["response", "jsonBody"], in: data), "seed \(seed): \(text)")
            #expect(JSONValue.parse(compact) == response["jsonBody"], "seed \(seed): \(text)")
            #expect(!compact.contains(UInt8(ascii: "\n")), "seed \(seed): \(text)")
        }
        for twice in [#"{"a": {"b": 1, "c": {"d": 1, "d": 2}}, "e": 3}"#, #"[{"a": 1}, {"b": 2, "b": 2}]"#, #"{"a": 1, "b": {}, "a": 1}"#] {
            #expect(JSONValue.parse(Data(twice.utf8)) == nil, "\(twice)")
        }
        #expect(JSONValue.parse(Data(#"{"a": {"b": 1}, "c": {"b": 1}, "b": [{"b": 1}]}"#.utf8))
                == .object(["a": .object(["b": .int(1)]), "c": .object(["b": .int(1)]), "b": .array([.object(["b": .int(1)])])]))
        #expect(JSONValue.compactText(at: ["r", "j"], in: Data(#"{"r": {"j": {"a": 1,}}}"#.utf8)) == nil)
        #expect(JSONValue.compactText(at: ["r", "j"], in: Data(#"{"r": {"j": [1, 2, {"a": [ ]} ]}}"#.utf8)) == Data(#"[1,2,{"a":[]}]"#.utf8))
    }

    @Test("a string of any bytes is taken exactly when they are UTF-8, whether or not all of them are ASCII")
    func stringBytes() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: seed)
        // ASCII letters most of the time, then bytes past ASCII that make valid and invalid sequences.
        let pool: [UInt8] = Array("abz09 ~".utf8) + [0x7F, 0x80, 0xBF, 0xC2, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xED, 0xA0, 0xF0, 0x9F, 0x98, 0x80, 0xFF]
        for _ in 0..<2_000 {
            let bytes = (0..<generator.next(7)).map { _ in pool[generator.next(pool.count)] }
            let document = Data([UInt8(ascii: "[")] + [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\""), UInt8(ascii: "]")])
            let decoded = String(decoding: bytes, as: UTF8.self)
            let expected = Array(decoded.utf8) == bytes ? decoded : nil
            let parsed = JSONValue.parse(document)
            #expect(parsed == expected.map { .array([.string($0)]) }, "seed \(seed): \(bytes)")
        }
    }

    @Test("what the fast path leaves (a key twice, UTF-16) is still read as Foundation reads it")
    func leftToFoundation() throws {
        let twice = Data(#"{"a": 1, "a": 2}"#.utf8)
        #expect(JSONValue.parse(twice) == nil)
        #expect(JSONValue(data: twice) == JSONValue(object: try JSONSerialization.jsonObject(with: twice)))
        let utf16 = try #require(#"{"a": [1]}"#.data(using: .utf16))
        #expect(JSONValue(data: utf16) == .object(["a": .array([.int(1)])]))
    }
}

@Suite("Request JSON is read strictly (RFC 8259)")
struct StrictJSONBodyTests {
    @Test("a trailing comma and a UTF-8 byte order mark make bytes no JSON; so do comments, single quotes and text after the value")
    func notJSON() {
        for text in [#"{"a":1,}"#, "[1,2,]", "\u{FEFF}{\"a\":1}", #"{"a":1 /* c */}"#, "{'a':1}", #"{"a":1} more"#, #"{"a":1}{"b":2}"#, "{a:1}"] {
            #expect(JSONValue(data: Data(text.utf8)) == nil, "\(text.debugDescription)")
        }
        // What the permissive reading for JSONPath takes: a comma before a closing bracket or brace, not two commas,
        // not a byte order mark.
        #expect(JSONValue.permissive(Data(#"{"a":[1, 2 , ] , }"#.utf8)) == .object(["a": .array([.int(1), .int(2)])]))
        #expect(JSONValue.permissive(Data("[,]".utf8)) == nil)
        #expect(JSONValue.permissive(Data("[1,,]".utf8)) == nil)
        #expect(JSONValue.permissive(Data("\u{FEFF}{\"a\":1}".utf8)) == nil)
    }

    @Test("a key written twice keeps its last value; JSON in UTF-16 is still read")
    func duplicatesAndWideEncodings() throws {
        #expect(JSONValue(data: Data(#"{"a":1,"b":{"c":1,"c":[2]},"a":3}"#.utf8)) == .object(["a": .int(3), "b": .object(["c": .array([.int(2)])])]))
        #expect(JSONValue.parse(Data(#"{"a":1,"a":3}"#.utf8)) == nil)  // definition files name the key instead
        let utf16 = try #require(#"{"a":"é"}"#.data(using: .utf16))
        #expect(JSONValue(data: utf16) == .object(["a": .string("é")]))
    }
}

@Suite("Indented JSON for files reads back as the same values of the same kinds")
struct PrettyJSONTests {
    private static func value(depth: Int, using random: inout JSONValueFastPathTests.Generator) -> JSONValue {
        let kind = Int.random(in: 0..<(depth > 3 ? 7 : 9), using: &random)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int([0, -1, 100, Int.max, Int.min, Int.random(in: -1_000_000...1_000_000, using: &random)].randomElement(using: &random)!)
        case 3: return .double([100.0, -0.5, 0.1, 1e20, 1.5e-7, .leastNonzeroMagnitude, -0.0, Double.random(in: -1e6...1e6, using: &random)].randomElement(using: &random)!)
        case 4: return .decimal(["123456789012345678901234567890", "0.1000000000000000000000000001", "-98765432109876543210.5", "1e-400"].randomElement(using: &random)!)
        case 5, 6: return .string(["", "a/b", "\u{1}\t\n\"\\", "é€🙂", "\u{2028}"].randomElement(using: &random)!)
        case 7: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth + 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...3, using: &random) { members["k\(index)"] = value(depth: depth + 1, using: &random) }
            return .object(members)
        }
    }

    @Test("generated values: prettyData parses back to the value, written the same with kinds kept (HTTPMOCK_PRETTY_JSON_START replays a run)")
    func roundTrip() throws {
        let start = ProcessInfo.processInfo.environment["HTTPMOCK_PRETTY_JSON_START"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = JSONValueFastPathTests.Generator(state: start)
        for _ in 0..<500 {
            let original = Self.value(depth: 0, using: &random)
            let pretty = original.prettyData
            let back = try #require(JSONValue.parse(pretty), "\(String(decoding: pretty, as: UTF8.self)), HTTPMOCK_PRETTY_JSON_START=\(start)")
            #expect(back.dataKeepingKinds == original.dataKeepingKinds, "HTTPMOCK_PRETTY_JSON_START=\(start)")
        }
        #expect(String(decoding: JSONValue.object(["a": .array([]), "b": .object(["c": .double(100)])]).prettyData, as: UTF8.self)
            == "{\n  \"a\" : [],\n  \"b\" : {\n    \"c\" : 100.0\n  }\n}")
    }
}


@Suite("equalToJson in any order finds an element for each expected one, as JsonUnit does")
struct AnyOrderComparisonTests {
    private func json(_ text: String) throws -> JSONValue { try #require(JSONValue(data: Data(text.utf8))) }

    @Test("a first choice that takes what another expected element needs does not decide")
    func lookPastFirstChoices() throws {
        var comparison = JSONComparison()
        comparison.ignoresArrayOrder = true
        comparison.ignoresExtraElements = true
        #expect(comparison.matches(try json(#"[{}, {"c": null}]"#), try json(#"[{"c": null, "a": 15}, {}]"#)))
        #expect(comparison.matches(try json(#"[[1], [1, 2]]"#), try json(#"[[1, 2, 3], [1]]"#)))
        #expect(!comparison.matches(try json(#"[{"c": 1}, {"c": 1}]"#), try json(#"[{"c": 1, "a": 1}, {}]"#)))
        comparison.ignoresExtraElements = false
        #expect(!comparison.matches(try json(#"[{}, {"c": null}]"#), try json(#"[{"c": null, "a": 15}, {}]"#)))
        #expect(comparison.matches(try json("[1, 2, 2, 3]"), try json("[2, 3, 2, 1]")))
        #expect(!comparison.matches(try json("[1, 2, 2, 3]"), try json("[2, 3, 3, 1]")))
    }

    @Test("generated lists: a match exactly when some order of the actual list matches element by element (HTTPMOCK_ANY_ORDER_START replays a run)")
    func agreesWithPermutations() {
        let start = ProcessInfo.processInfo.environment["HTTPMOCK_ANY_ORDER_START"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = JSONValueFastPathTests.Generator(state: start)
        let pool: [JSONValue] = [.object([:]), .object(["c": .null]), .object(["c": .int(1)]), .object(["c": .null, "a": .int(15)]),
                                 .array([]), .array([.int(1)]), .array([.int(1), .int(2)]), .int(1), .int(2)]
        var comparison = JSONComparison()
        comparison.ignoresArrayOrder = true
        for _ in 0..<400 {
            comparison.ignoresExtraElements = Bool.random(using: &random)
            let mine = (0..<Int.random(in: 0...4, using: &random)).map { _ in pool.randomElement(using: &random)! }
            let theirs = (0..<Int.random(in: 0...4, using: &random)).map { _ in pool.randomElement(using: &random)! }
            // The reference: every order of theirs, each element compared in place (extra ones after).
            var ordered = comparison
            ordered.ignoresArrayOrder = false
            func permutations(_ items: [JSONValue]) -> [[JSONValue]] {
                items.isEmpty ? [[]] : items.indices.flatMap { index in
                    var rest = items
                    let item = rest.remove(at: index)
                    return permutations(rest).map { [item] + $0 }
                }
            }
            let expected = permutations(theirs).contains { ordered.matches(.array(mine), .array($0)) }
            #expect(comparison.matches(.array(mine), .array(theirs)) == expected,
                    "\(JSONValue.array(mine)) in \(JSONValue.array(theirs)), extra \(comparison.ignoresExtraElements), HTTPMOCK_ANY_ORDER_START=\(start)")
        }
    }
}
