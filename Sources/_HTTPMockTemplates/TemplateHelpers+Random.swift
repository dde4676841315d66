import Foundation

/// The alphabets of `randomValue`.
package enum TemplateRandom {
    static let maximumLength = 10_000
    static let types = ["ALPHANUMERIC", "ALPHABETIC", "NUMERIC", "HEXADECIMAL", "ALPHANUMERIC_AND_SYMBOLS", "UUID"]

    /// The characters of `type` (empty for `UUID`), or `nil` for an unknown type: lower case, as WireMock draws them
    /// (`uppercase=true` turns the letters to upper case). The symbols are the printable ASCII from `!` to `}`.
    static func alphabet(_ type: String) -> [Character]? {
        let letters = "abcdefghijklmnopqrstuvwxyz", digits = "0123456789"
        switch type {
        case "ALPHANUMERIC": return Array(letters + digits)
        case "ALPHABETIC": return Array(letters)
        case "NUMERIC": return Array(digits)
        case "HEXADECIMAL": return Array(digits + "abcdef")
        case "ALPHANUMERIC_AND_SYMBOLS":
            return (UInt8(ascii: "!")...UInt8(ascii: "}")).filter { !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }.map { Character(Unicode.Scalar($0)) }
        case "UUID": return []
        default: return nil
        }
    }

    /// `length` characters drawn from `alphabet` (ASCII), eight from each 64 random bits: one call to the system's
    /// generator per eight characters, not one per character.
    static func text(_ length: Int, from alphabet: [Character]) -> String {
        let letters = alphabet.compactMap(\.asciiValue)
        var generator = SystemRandomNumberGenerator()
        let count = UInt64(letters.count)
        // Drawing a byte below the largest multiple of the alphabet's size keeps every letter equally likely.
        let below = UInt64(256 - 256 % letters.count)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var written = 0
            while written < length {
                var bits = generator.next()
                for _ in 0..<8 where written < length {
                    let byte = bits & 0xFF
                    bits >>= 8
                    guard byte < below else { continue }
                    buffer[written] = letters[Int(byte % count)]
                    written += 1
                }
            }
            return length
        }
    }
}

extension HandlebarsRenderer {
    /// The name `{{hostname}}` prints: fixed, never the machine's.
    static let hostname = "localhost"

    func random(_ helper: TemplateHelper, _ arguments: HelperArguments) throws(TemplateProblem) -> TemplateValue {
        switch helper {
        case .randomValue:
            let type = arguments.hashText("type") ?? "ALPHANUMERIC"
            guard var alphabet = TemplateRandom.alphabet(type) else {
                throw arguments.problem("the type '\(type)' is not one of \(TemplateRandom.types.joined(separator: ", "))")
            }
            if alphabet.isEmpty { return .string(arguments.hashFlag("uppercase") ? UUID().uuidString : UUID().uuidString.lowercased()) }
            let length = try arguments.hashInteger("length") ?? 36
            guard (1...TemplateRandom.maximumLength).contains(length) else {
                throw arguments.problem("randomValue needs length=N, from 1 to \(TemplateRandom.maximumLength)")
            }
            // A character costs a step: a template of many long random values is bounded by steps, not by its
            // output alone (16 MiB of them took 20 s of one core).
            try step(arguments.call.position, count: length)
            if arguments.hashFlag("uppercase") { alphabet = Set(alphabet.map { Character($0.uppercased()) }).sorted() }
            return .string(TemplateRandom.text(length, from: alphabet))
        case .randomInt:
            let lower = try arguments.hashInteger("lower") ?? Int(Int32.min)
            let upper = try arguments.hashInteger("upper") ?? Int(Int32.max)
            guard lower <= upper else { throw arguments.problem("lower=\(lower) is above upper=\(upper)") }
            return .int(Int.random(in: lower...upper))
        case .randomDecimal:
            func bound(_ key: String, _ fallback: Double) throws(TemplateProblem) -> Double {
                guard let value = arguments.hash[key] else { return fallback }
                guard let number = value.number?.double else { throw arguments.problem("\(key) must be a number, not '\(value.single.text)'") }
                return number
            }
            let lower = try bound("lower", Double(Int32.min)), upper = try bound("upper", Double(Int32.max))
            guard lower <= upper, (upper - lower).isFinite else { throw arguments.problem("lower=\(lower) and upper=\(upper) are not a range") }
            return .double(lower == upper ? lower : Double.random(in: lower...upper))
        case .pickRandom:
            let first = arguments.param(0)
            let choices: [TemplateValue]
            if arguments.params.count == 1, let items = first.items, !{ if case .object = first { true } else { false } }() {
                choices = items
            } else {
                choices = arguments.params
            }
            guard let count = try arguments.hashInteger("count") else { return choices.randomElement() ?? .null }
            guard count >= 0 else { throw arguments.problem("count must not be negative") }
            return .list(Array(choices.shuffled().prefix(count)))
        case .hostname:
            return .string(Self.hostname)
        case .systemValue:
            guard template.environmentAccess else { throw arguments.problem("systemValue is disabled") }
            let key = arguments.hashText("key") ?? ""
            let type = (arguments.hashText("type") ?? "ENVIRONMENT").uppercased()
            let found = type == "ENVIRONMENT" ? ProcessInfo.processInfo.environment[key] : nil
            return found.map(TemplateValue.string) ?? arguments.hash["default"] ?? .null
        default:
            throw arguments.problem("\(helper.rawValue) is not a random or system helper")
        }
    }
}
