#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

/// Makes a value that a schema allows, for responses the document gives no example of: the same schema, place and
/// variant give the same value, in every run and on every machine.
///
/// In order: `const`, `default`, the schema's own `example` (3.0) or first of `examples` (3.1), the first of `enum`;
/// else a value of its `type` within its bounds (`minimum`…`maximum`, `minLength`, `minItems`…), a string of its
/// `format` (`date-time`, `date`, `uuid`, `email`, `uri`, `hostname`, `ipv4`, `ipv6`, `byte`), every property of
/// an object (beyond a few levels of nesting, only the required ones), the first alternative of `oneOf`/`anyOf`,
/// and the members of every `allOf` part. A `nullable` schema gets a value, not `null`.
struct ValueGenerator {
    let root: JSONValue
    private var random: StableRandom
    /// Schemas entered at most, so that a large or recursive schema makes a bounded value.
    private var budget = 10_000

    init(root: JSONValue, place: String, variant: Int) {
        self.root = root
        random = StableRandom(place: place, variant: variant)
    }

    mutating func value(for schema: JSONValue, ignoringExamples: Bool = false) -> JSONValue {
        self.ignoresExamples = ignoringExamples
        return make(schema, depth: 0)
    }

    /// Whether `default`, `example` and `examples` are passed over and an `enum`'s member drawn at random (a
    /// dynamic body, `Prefer: dynamic=true`).
    private var ignoresExamples = false

    private func resolved(_ schema: JSONValue) -> JSONValue {
        var current = schema
        var hops = 0
        while case .string(let reference)? = current["$ref"], hops < DocumentReader.referenceLimit,
              let pointer = JSONPointer.fromReference(reference), let target = JSONPointer.value(at: pointer, in: root) {
            // 2019-09 reads the keywords beside a `$ref` too: keep them over the target's.
            if var own = current.members, own.count > 1, var merged = target.members {
                own["$ref"] = nil
                merged.merge(own) { $1 }
                current = .object(merged)
            } else {
                current = target
            }
            hops += 1
        }
        return current
    }

    private mutating func make(_ given: JSONValue, depth: Int) -> JSONValue {
        budget -= 1
        guard budget > 0, depth < 24 else { return .null }
        let schema = resolved(given)
        guard let members = schema.members else { return schema == .bool(false) ? .null : .string("value") }
        if let value = members["const"] { return value }
        if !ignoresExamples {
            if let value = members["default"] { return value }
            if let value = members["example"] { return value }
            if let value = members["examples"]?.elements?.first { return value }
        }
        if let choices = members["enum"]?.elements, !choices.isEmpty {
            let usable = choices.contains { $0 != .null } ? choices.filter { $0 != .null } : choices
            return ignoresExamples ? usable[Int(random.next() % UInt64(usable.count))] : usable[0]
        }
        if let parts = members["allOf"]?.elements, !parts.isEmpty {
            return makeAll(parts, beside: members, depth: depth)
        }
        if let first = (members["oneOf"] ?? members["anyOf"])?.elements?.first(where: { resolved($0)["type"] != .string("null") }) {
            return make(first, depth: depth + 1)
        }
        switch type(of: members) {
        case "object": return makeObject(members, depth: depth)
        case "array": return makeArray(members, depth: depth)
        case "integer": return .int(makeInteger(members))
        case "number": return makeNumber(members)
        case "boolean": return .bool(random.next() % 2 == 0)
        case "null": return .null
        default: return .string(makeString(members))
        }
    }

    /// The schema's type: the first of a list that is not `null`, else what its keywords imply.
    private func type(of members: [String: JSONValue]) -> String {
        if let type = members["type"]?.text { return type }
        if let types = members["type"]?.elements?.compactMap(\.text) {
            return types.first { $0 != "null" } ?? "null"
        }
        if members["properties"] != nil || members["additionalProperties"] != nil || members["required"] != nil { return "object" }
        if members["items"] != nil || members["prefixItems"] != nil { return "array" }
        if members["minimum"] != nil || members["maximum"] != nil { return "number" }
        return "string"
    }

    private mutating func makeAll(_ parts: [JSONValue], beside members: [String: JSONValue], depth: Int) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        var required: [JSONValue] = []
        var own = members
        own["allOf"] = nil
        var other: JSONValue?
        var queue = parts.map(resolved) + [.object(own)]
        var index = 0
        while index < queue.count, index < 64 {
            let part = queue[index]
            index += 1
            guard let fields = part.members else { continue }
            // A `oneOf`/`anyOf` among the parts: its first alternative is one more part (as `make` chooses it).
            if let first = (fields["oneOf"] ?? fields["anyOf"])?.elements?.first(where: { resolved($0)["type"] != .string("null") }) {
                queue.append(resolved(first))
            }
            if let nested = fields["allOf"]?.elements, case .object(let made) = makeAll(nested, beside: [:], depth: depth + 1) {
                for (key, value) in made { properties[key] = .object(["const": value]) }
            }
            properties.merge(fields["properties"]?.members ?? [:]) { _, new in new }
            required += fields["required"]?.elements ?? []
            if fields["properties"] == nil, fields["type"] != nil, fields["type"] != .string("object") { other = part }
        }
        if properties.isEmpty, let other { return make(other, depth: depth + 1) }
        return makeObject(["properties": .object(properties), "required": .array(required)], depth: depth)
    }

    private mutating func makeObject(_ members: [String: JSONValue], depth: Int) -> JSONValue {
        let properties = members["properties"]?.members ?? [:]
        let required = Set(members["required"]?.elements?.compactMap(\.text) ?? [])
        var object: [String: JSONValue] = [:]
        for name in properties.keys.sorted() where depth < 4 || required.contains(name) {
            let schema = resolved(properties[name]!)
            if schema["writeOnly"] == .bool(true), !required.contains(name) { continue }
            object[name] = make(properties[name]!, depth: depth + 1)
        }
        for name in required.sorted() where object[name] == nil {
            object[name] = .string(makeString([:]))
        }
        let minimum = members["minProperties"].flatMap(Self.integer) ?? 0
        var extra = 0
        while object.count < minimum, extra < 100 {
            extra += 1
            object["property\(extra)"] = members["additionalProperties"].map { $0 == .bool(true) ? .string("value") : make($0, depth: depth + 1) } ?? .string("value")
        }
        return .object(object)
    }

    private mutating func makeArray(_ members: [String: JSONValue], depth: Int) -> JSONValue {
        let minimum = members["minItems"].flatMap(Self.integer) ?? 0
        let maximum = members["maxItems"].flatMap(Self.integer) ?? Int.max
        var count = max(minimum, depth < 3 ? 1 : 0)
        count = min(count, maximum, 1_000)
        // 2020-12's `prefixItems` (OpenAPI 3.1), or the array form of `items` before it.
        if let tuple = members["prefixItems"]?.elements ?? members["items"]?.elements {
            return .array(tuple.prefix(max(count, tuple.count)).map { make($0, depth: depth + 1) })
        }
        let item = members["items"] ?? .object([:])
        var made: [JSONValue] = []
        for _ in 0..<count { made.append(make(item, depth: depth + 1)) }
        return .array(made)
    }

    private static func integer(_ value: JSONValue) -> Int? {
        switch value {
        case .int(let number): number
        case .double(let number) where number.rounded() == number && abs(number) < 1e15: Int(number)
        default: nil
        }
    }

    private static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .int(let number)?: Double(number)
        case .double(let number)?: number
        case .decimal(let text)?: Double(text)
        default: nil
        }
    }

    /// The bounds a number must keep, with exclusive ones (2019-09's numbers, 3.0's booleans) made inclusive by `step`.
    private func bounds(_ members: [String: JSONValue], step: Double) -> (Double, Double) {
        var low = Self.number(members["minimum"]) ?? 1
        var high = Self.number(members["maximum"]) ?? max(low + 999, 1_000)
        if let exclusive = Self.number(members["exclusiveMinimum"]) { low = max(low, exclusive + step) }
        if members["exclusiveMinimum"] == .bool(true) { low += step }
        if let exclusive = Self.number(members["exclusiveMaximum"]) { high = min(high, exclusive - step) }
        if members["exclusiveMaximum"] == .bool(true) { high -= step }
        if members["minimum"] == nil, members["exclusiveMinimum"] == nil, high < low { low = high - 999 }
        return (low, max(low, high))
    }

    private mutating func makeInteger(_ members: [String: JSONValue]) -> Int {
        let (low, high) = bounds(members, step: 1)
        let lower = Int(max(low.rounded(.up), -1e15))
        let upper = Int(min(high.rounded(.down), 1e15))
        guard upper > lower else { return lower }
        var value = lower + Int(random.next() % UInt64(min(upper - lower + 1, 1_000_000)))
        if let step = members["multipleOf"].flatMap(Self.integer), step > 0 {
            value = (value / step) * step
            if value < lower { value += step }
        }
        return value
    }

    private mutating func makeNumber(_ members: [String: JSONValue]) -> JSONValue {
        if let step = Self.number(members["multipleOf"]), step > 0 {
            let (low, high) = bounds(members, step: step)
            let steps = max(0, Int(((high - low) / step).rounded(.down)))
            let first = (low / step).rounded(.up)
            return .double((first + Double(random.next() % UInt64(min(steps, 1_000) + 1))) * step)
        }
        let (low, high) = bounds(members, step: 0.01)
        let value = low + (high - low) * Double(random.next() % 10_000) / 10_000
        return .double((value * 100).rounded(.down) / 100)
    }

    private static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]

    private mutating func makeString(_ members: [String: JSONValue]) -> String {
        let number = random.next()
        var text: String
        switch members["format"]?.text {
        case "date-time":
            text = Self.date(number, time: true)
        case "date":
            text = Self.date(number, time: false)
        case "time":
            text = String(format: "%02d:%02d:%02dZ", Int(number % 24), Int(number / 24 % 60), Int(number / 1440 % 60))
        case "uuid":
            let hex = String(format: "%016llx%016llx", number, random.next())
            let characters = Array(hex)
            text = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
            text = String(text.prefix(14)) + "4" + String(text.dropFirst(15))
        case "email":
            text = "\(Self.words[Int(number % 10)])@example.com"
        case "uri", "url", "uri-reference", "iri":
            text = "https://example.com/\(Self.words[Int(number % 10)])"
        case "hostname", "idn-hostname":
            text = "\(Self.words[Int(number % 10)]).example.com"
        case "ipv4":
            text = "192.0.2.\(number % 254 + 1)"
        case "ipv6":
            text = "2001:db8::\(String(number % 65_535 + 1, radix: 16))"
        case "byte":
            text = Data(Self.words[Int(number % 10)].utf8).base64EncodedString()
        default:
            text = Self.words[Int(number % 10)]
        }
        let minimum = members["minLength"].flatMap(Self.integer) ?? 0
        let maximum = members["maxLength"].flatMap(Self.integer) ?? Int.max
        while text.count < min(minimum, 10_000) { text += Self.words[text.count % 10] }
        if text.count > maximum { text = String(text.prefix(maximum)) }
        return text
    }

    private static func date(_ number: UInt64, time: Bool) -> String {
        // Within 2020 to 2029, at a whole second, without a date formatter, which costs more to make than the whole
        // rest of a body.
        let seconds = 1_577_836_800 + Int(number % 315_360_000)
        let (year, month, day) = CivilDate.from(daysSince1970: seconds / 86_400)
        var text = String(format: "%04d-%02d-%02d", year, month, day)
        if time {
            let second = seconds % 86_400
            text += String(format: "T%02d:%02d:%02dZ", second / 3_600, second / 60 % 60, second % 60)
        }
        return text
    }
}

/// A random number sequence fixed by a place in a document and a variant number: SplitMix64, started from the
/// FNV-1a hash of the place (not Swift's `Hasher`, which changes with every run).
struct StableRandom {
    private var state: UInt64

    init(place: String, variant: Int) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in place.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        state = hash ^ UInt64(bitPattern: Int64(variant))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
#endif
