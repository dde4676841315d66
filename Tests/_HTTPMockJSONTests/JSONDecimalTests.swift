import Foundation
import Testing
@testable import _HTTPMockJSON

/// Exact decimal values of JSON numbers: every spelling of a value equal, ordered as the numbers are.
@Suite struct JSONDecimalTests {
    typealias Generator = JSONValueFastPathTests.Generator

    @Test("doubles order and compare alike as doubles and as their exact decimals")
    func orderAsDoubles() {
        let start = UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: start)
        for _ in 0..<5_000 {
            let a = generator.double(), b = generator.double()
            guard a.isFinite, b.isFinite else { continue }
            guard let x = JSONDecimal(a), let y = JSONDecimal(b) else {
                Issue.record("start \(start): \(a) or \(b) has no decimal"); continue
            }
            #expect((x < y) == (a < b), "start \(start): \(a) < \(b)")
            #expect((x == y) == (a == b), "start \(start): \(a) == \(b)")
            #expect(JSONDecimal(a.description) == x, "start \(start): \(a)")
        }
    }

    @Test("every spelling of a value is the same decimal: a point moved with the exponent, zeros added before and after")
    func spellings() {
        let start = UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: start)
        for _ in 0..<2_000 {
            // Digits of up to 40 places (past any double), a point somewhere in them or none.
            let digits = String((0..<(1 + generator.next(40))).map { _ in Character(String(generator.next(10))) })
            let sign = generator.next(2) == 0 ? "" : "-"
            let point = generator.next(digits.count + 1)
            let written = sign + digits.prefix(point) + "." + digits.dropFirst(point) + "0"
            let base = JSONDecimal(sign + digits + "e-\(digits.count - point)")
            let shift = generator.next(30)
            let moved = sign + "0." + String(repeating: "0", count: shift) + digits + "e\(point + shift)"
            #expect(JSONDecimal(written) == base, "start \(start): \(written)")
            #expect(JSONDecimal(moved) == base, "start \(start): \(moved) against \(written)")
            #expect(JSONDecimal("00" + digits.dropFirst(0) + "e+0") == JSONDecimal(digits), "start \(start): \(digits)")
        }
    }

    @Test("integers of any length order as their digits do")
    func longIntegers() {
        let start = UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: start)
        func integer() -> String {
            let length = 1 + generator.next(45)
            let first = String(1 + generator.next(9))
            return (generator.next(2) == 0 ? "" : "-") + first + String((1..<length).map { _ in Character(String(generator.next(10))) })
        }
        for _ in 0..<2_000 {
            let a = integer(), b = integer()
            func key(_ text: String) -> (Bool, Int, String) {
                let negative = text.hasPrefix("-"), digits = negative ? String(text.dropFirst()) : text
                return (negative, digits.count, digits)
            }
            let (na, la, da) = key(a), (nb, lb, db) = key(b)
            let magnitudeLess = la != lb ? la < lb : da < db
            let less = na != nb ? na : (a == b ? false : (na ? !magnitudeLess : magnitudeLess))
            #expect((JSONDecimal(a)! < JSONDecimal(b)!) == less, "start \(start): \(a) < \(b)")
            #expect(JSONDecimal(a)!.isWhole)
        }
    }

    @Test("numbers with a fraction or an exponent written in full as WireMock writes a jsonBody; the rest byte for byte",
          arguments: [
        (#"{"a":1.0,"b":1e2,"c":-0.0,"d":1.5E-7,"e":100,"f":-0}"#, #"{"a":1,"b":100,"c":0,"d":0.00000015,"e":100,"f":0}"#),
        (#"["1.0e2",-12.50,0.10000000000000000001,12345678901234567890123,"\"1.0"]"#,
         #"["1.0e2",-12.5,0.10000000000000000001,12345678901234567890123,"\"1.0"]"#),
        (#"[1e300,2.5e-3,-1E+1,"é-1.0"]"#, "[" + "1" + String(repeating: "0", count: 300) + #",0.0025,-10,"é-1.0"]"#),
        (#"[1e401,true,null,{}]"#, #"[1e401,true,null,{}]"#),
        (#"{"plain":[1,2,"x"]}"#, #"{"plain":[1,2,"x"]}"#),
    ])
    func plainNumbers(_ written: String, _ sent: String) {
        #expect(String(decoding: JSONValue.plainNumbers(in: Data(written.utf8)), as: UTF8.self) == sent)
    }

    @Test("generated documents keep their values through plainNumbers, and their integers and strings byte for byte")
    func plainNumbersKeepValues() throws {
        let start = UInt64.random(in: 0...UInt64.max)
        var generator = Generator(state: start)
        let numbers = ["0", "-0", "1.0", "1e2", "-1.5E-7", "12.500", "100", "-42", "0.1e1", "123456789012345678901234567890",
                       "9.99e-5", "\"-1.0\"", "\"a\\\"1.0\""]
        for _ in 0..<1_000 {
            let items = (0..<(1 + generator.next(6))).map { _ in numbers[generator.next(numbers.count)] }
            let text = "[" + items.joined(separator: ",") + "]"
            let plain = JSONValue.plainNumbers(in: Data(text.utf8))
            let before = try #require(JSONValue.parse(Data(text.utf8)), "start \(start): \(text)")
            let after = try #require(JSONValue.parse(plain), "start \(start): \(text)")
            guard case .array(let was) = before, case .array(let now) = after else { Issue.record("start \(start)"); continue }
            for (old, new) in zip(was, now) {
                switch old {
                case .string, .int: #expect(old == new || (old == .int(0) && new == .int(0)), "start \(start): \(text)")
                default: #expect(old.matches(new), "start \(start): \(text)")
                }
            }
        }
    }

    @Test("a schema bounds, types and formats numbers past a double exactly")
    func schemaNumbers() throws {
        func valid(_ schema: String, _ instance: String, formats: Bool = false) throws -> Bool {
            try JSONSchema(#require(JSONValue.parse(Data(schema.utf8))), validatesFormats: formats)
                .validates(#require(JSONValue.parse(Data(instance.utf8))))
        }
        let maximum = #"{"maximum": 18446744073709551615}"#
        #expect(try valid(maximum, "18446744073709551615") && !valid(maximum, "18446744073709551616"))
        #expect(try valid(#"{"exclusiveMinimum": 0.10000000000000000001}"#, "0.10000000000000000002"))
        #expect(try !valid(#"{"exclusiveMinimum": 0.10000000000000000001}"#, "0.10000000000000000001"))
        #expect(try valid(#"{"type": "integer"}"#, "123456789012345678901234567890"))
        #expect(try !valid(#"{"type": "integer"}"#, "1234567890123456789.5"))
        #expect(try valid(#"{"format": "int64"}"#, "9007199254740993.0", formats: true))
        #expect(try !valid(#"{"format": "int64"}"#, "9223372036854775808", formats: true))
        #expect(try !valid(#"{"format": "int32"}"#, "12345678901234567890123", formats: true))
    }

    @Test("texts that are no number are refused", arguments: ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1e1234567890", "inf", "1_0"])
    func refused(_ text: String) {
        #expect(JSONDecimal(text) == nil)
    }

    /// Numbers sent to WireMock 2.35.1 in a body `{"a": A}` against `equalToJson` of `{"a": E}`, for each E below.
    static let tried = ["100", "1e2", "1.0e2", "100.0", "1E+2", "15", "1.5e1", "1", "1e0", "1.0", "0", "0.0", "-0", "0e0",
                        "10", "1e1", "12e1", "120", "-1e2", "-100", "1e-1", "0.1"]

    /// What WireMock answered: each E, the As of its list that matched (the rest did not).
    static let wireMockAnswers: [(expected: String, tried: [String], matched: [String])] = [
        ("100", tried, ["100"]), ("1e2", tried, ["1e2", "1.0e2", "100.0", "1E+2"]),
        ("100.0", tried, ["1e2", "1.0e2", "100.0", "1E+2"]), ("15", tried, ["15", "1.5e1"]), ("1.5e1", tried, ["15", "1.5e1"]),
        ("1", tried, ["1", "1e0", "1.0"]), ("1.0", tried, ["1", "1e0", "1.0"]), ("0", tried, ["0", "0.0", "-0", "0e0"]),
        ("0.0", tried, ["0", "0.0", "-0", "0e0"]), ("10", tried, ["10"]), ("1e1", tried, ["1e1"]), ("12e1", tried, ["12e1"]),
        ("120", tried, ["120"]), ("-1e2", tried, ["-1e2"]), ("-100", tried, ["-100"]), ("0.1", tried, ["1e-1", "0.1"]),
        ("12345678901234567890123", ["12345678901234567890123", "12345678901234567890124", "1.2345678901234567890123e22",
                                     "12345678901234567890123.0"],
         ["12345678901234567890123", "1.2345678901234567890123e22", "12345678901234567890123.0"]),
        ("9007199254740993", ["9007199254740993", "9007199254740992", "9007199254740993.0"], ["9007199254740993", "9007199254740993.0"]),
        ("0.1", ["0.10", "0.10000000000000000001", "0.1000000000000000055511151231257827"], ["0.10"]),
        ("0.10000000000000000001", ["0.1", "0.10", "1e-1", "0.10000000000000000001", "0.1000000000000000055511151231257827"],
         ["0.10000000000000000001"]),
    ]

    @Test("numbers compare as WireMock's equalToJson compares them: an integer ending in zeros equals only integers")
    func wireMockEquality() throws {
        for (expected, tried, matched) in Self.wireMockAnswers {
            let e = try #require(JSONValue.parse(Data(expected.utf8)))
            for actual in tried {
                let a = try #require(JSONValue.parse(Data(actual.utf8)))
                #expect(JSONValue.wireMockNumbersEqual(e, a) == matched.contains(actual), "\(expected) against \(actual)")
            }
        }
    }
}

extension JSONValueFastPathTests.Generator {
    /// A double of many kinds: short decimals, any bit pattern, wide magnitudes.
    mutating func double() -> Double {
        switch next(4) {
        case 0: return Double(next(2001) - 1000) / Double([1, 10, 100, 1000][next(4)])
        case 1: return Double(bitPattern: UInt64(truncatingIfNeeded: next(Int.max)) &* 2654435761).nextUp
        default: return (Double(next(1 << 20)) - Double(1 << 19)) * pow(10, Double(next(40) - 20))
        }
    }
}

/// Numbers a double would round, through the paths that read and write them.
@Suite struct JSONDecimalPathsTests {
    @Test("a number too small for a double's precision is kept, not read as 0; one a double holds stays a double")
    func underflow() throws {
        let tiny = try #require(JSONValue.parse(Data("1e-400".utf8)))
        #expect(tiny == .decimal("1e-400"))
        #expect(!tiny.matches(.int(0)) && !JSONComparison().matches(tiny, .int(0)))
        #expect(try #require(JSONValue.parse(Data("5e-324".utf8))) == .double(.leastNonzeroMagnitude))
        #expect(try #require(JSONValue.parse(Data("0.0e-400".utf8))) == .double(0))
    }

    @Test("values Codable writes: a decimal within Foundation's range as a decimal, past it as a double, never null")
    func codable() throws {
        let encoder = JSONEncoder()
        for text in ["12345678901234567890123", "1e-400", "0.10000000000000000001"] {
            let written = try encoder.encode([JSONValue.decimal(text)])
            let read = try #require(JSONValue.parse(written))
            guard case .array(let items) = read, let item = items.first else { Issue.record("\(text): \(read)"); continue }
            #expect(item != .null, "\(text)")
        }
    }

    @Test("a JsonUnit regex placeholder matches whole texts, within the regular expressions' budget")
    func regexPlaceholder() {
        let expected = JSONValue.object(["a": .string("${json-unit.regex}[a-z]+"), "b": .string("#{json-unit.regex}(a+)+$")])
        let comparison = JSONComparison().prepared(for: expected)
        #expect(comparison.matches(expected, .object(["a": .string("abc"), "b": .string("aaa")])))
        #expect(!comparison.matches(expected, .object(["a": .string("abc!"), "b": .string("aaa")])))
        // Nested quantifiers over a text that almost matches: stopped by the budget, no match, no hang.
        #expect(!comparison.matches(expected, .object(["a": .string("abc"), "b": .string(String(repeating: "a", count: 40) + "!")])))
        // Not prepared: the placeholder matches nothing rather than compiling for each request.
        #expect(!JSONComparison().matches(expected, .object(["a": .string("abc"), "b": .string("aaa")])))
    }
}
