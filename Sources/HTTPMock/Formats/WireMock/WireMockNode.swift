import Foundation
import _HTTPMockJSON

/// A value of a WireMock mapping with where it is (`request.headers.Accept`), so every problem names the file,
/// the mapping and the key.
struct WireMockNode {
    let value: JSONValue
    /// The file and mapping (`mappings/users.json, mapping "Get user"`).
    let place: String
    /// The path of the object or list this value is in, and the key or position it is at there: the path itself is
    /// joined only when asked (for a message), not for each of the thousands of values a folder translates.
    private let parent: String
    private let key: String
    private let position: Int?

    /// The key path inside the mapping, as ``KeyPath`` writes it.
    var path: String {
        if let position { return parent + "[\(position)]" }
        return parent.isEmpty ? key : parent + "." + key
    }

    init(value: JSONValue, path: String, place: String) {
        self.init(value: value, place: place, parent: "", key: path, position: nil)
    }

    private init(value: JSONValue, place: String, parent: String, key: String, position: Int?) {
        self.value = value
        self.place = place
        self.parent = parent
        self.key = key
        self.position = position
    }

    func error(_ message: String) -> HTTPMockError {
        HTTPMockError(.invalidDefinition, "\(place) at \(path.isEmpty ? "the top level" : path): \(message)")
    }

    /// The value under `key` (an object's member).
    func child(_ key: String, of object: [String: JSONValue]) -> WireMockNode? {
        // The objects of a mapping mostly hold a few members, and a translation asks each for every key it knows:
        // comparing a few short keys costs less than hashing the one asked for.
        let value = object.count <= 6 ? object.first(where: { $0.key == key })?.value : object[key]
        return value.map { WireMockNode(value: $0, place: place, parent: path, key: key, position: nil) }
    }

    /// The members of an object whose keys are all in `known`; an unknown key is an error naming it.
    ///
    /// A known key given `null` is left out, as if it were not there: WireMock reads `"priority": null` or
    /// `"headers": null` as no priority and no headers. Where a key is required, its absence is the error then; a
    /// `null` operand of a value pattern is refused before (see ``WireMockValuePattern/decode(_:body:)``).
    func object(known: [String]) throws(HTTPMockError) -> [String: JSONValue] {
        guard case .object(var object) = value else { throw error("expected an object, not \(kind)") }
        // Sorted only when a key is unknown: the first of them, in order, is named.
        if object.keys.contains(where: { !known.contains($0) }) {
            for key in object.keys.sorted() where !known.contains(key) {
                let suggestion = Self.closest(to: key, in: known).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw error("unknown key \"\(key)\"\(suggestion); the keys here are: \(known.joined(separator: ", "))")
            }
        }
        if object.values.contains(.null) { object = object.filter { $0.value != .null } }
        return object
    }

    /// The known key `key` was most likely meant as: the same in another case, or one or two letters off.
    static func closest(to key: String, in known: [String]) -> String? {
        if let cased = known.first(where: { $0.lowercased() == key.lowercased() }) { return cased }
        let ranked = known.map { (name: $0, alike: NearMissFinder.similarity(key.lowercased(), $0.lowercased())) }
            .filter { $0.alike >= 0.8 }.max { $0.alike < $1.alike }
        return ranked?.name
    }

    /// The members of an object with any keys (headers, query parameters).
    func members() throws(HTTPMockError) -> [(key: String, node: WireMockNode)] {
        guard case .object(let object) = value else { throw error("expected an object, not \(kind)") }
        return object.keys.sorted().map { ($0, child($0, of: object)!) }
    }

    func elements() throws(HTTPMockError) -> [WireMockNode] {
        guard case .array(let array) = value else { throw error("expected an array, not \(kind)") }
        let path = path
        return array.enumerated().map { WireMockNode(value: $1, place: place, parent: path, key: "", position: $0) }
    }

    func string() throws(HTTPMockError) -> String {
        guard case .string(let text) = value else { throw error("expected a string, not \(kind)") }
        return text
    }

    func bool() throws(HTTPMockError) -> Bool {
        guard case .bool(let flag) = value else { throw error("expected true or false, not \(kind)") }
        return flag
    }

    /// A whole number in `range`.
    func integer(in range: ClosedRange<Int>) throws(HTTPMockError) -> Int {
        let number: Int
        switch value {
        case .int(let whole): number = whole
        case .double(let double) where double.rounded() == double && abs(double) < 1e15: number = Int(double)
        // A number written in quotes (`"status": "200"`), which WireMock's JSON reader takes as the number.
        case .string(let text) where Int(text.trimmingCharacters(in: .whitespaces)) != nil:
            number = Int(text.trimmingCharacters(in: .whitespaces))!
        default: throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), not \(kind)")
        }
        guard range.contains(number) else {
            throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), not \(number)")
        }
        return number
    }

    /// A number from 0 (a fraction allowed).
    func milliseconds() throws(HTTPMockError) -> Double {
        var number = value.number
        if case .string(let text) = value { number = Double(text.trimmingCharacters(in: .whitespaces)) }
        guard let number, number.isFinite, number >= 0, number <= 86_400_000 else {
            throw error("expected a number of milliseconds from 0 to 86400000, not \(kind)")
        }
        return number
    }

    /// How the value is shown in a message: `a string ("x")`, `a number (3)`, `an object`.
    var kind: String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .int, .double, .decimal: "a number (\(value))"
        case .string(let text): "a string (\"\(text.clipped(to: 40))\")"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
