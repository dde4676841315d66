import Foundation

/// HTTP header fields: ordered, repeatable, with case-insensitive names.
///
/// ```swift
/// var headers: HeaderFields = ["Accept": "application/json"]
/// headers.add("X-Tag", "a")
/// headers.add("x-tag", "b")
/// headers.values(for: "X-TAG")   // ["a", "b"]
/// headers["accept"]             // "application/json"
/// ```
public struct HeaderFields: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    /// One header line.
    public struct Field: Sendable, Hashable {
        /// The name as written; compared without regard to case.
        public var name: String
        /// The value.
        public var value: String
        /// A header line.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    /// Header lines in this order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// One line per entry, sorted by name.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, or `nil`. Setting replaces every value of `name`.
    public subscript(name: String) -> String? {
        get { fields.first { ASCIICase.equalIgnoringCase($0.name, name) }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { ASCIICase.equalIgnoringCase($0.name, name) }.map(\.value)
    }

    /// Appends a value, keeping earlier values of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Sets each entry of `other`, replacing values of the same names.
    public mutating func merge(_ other: HeaderFields) {
        for name in Set(other.fields.map { $0.name.lowercased() }) {
            fields.removeAll { $0.name.lowercased() == name }
        }
        fields.append(contentsOf: other.fields)
    }

    /// Whether there is no header at all.
    public var isEmpty: Bool { fields.isEmpty }

    /// One value per name (repeated names joined with ", "), as `HTTPURLResponse` wants them.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        var canonical: [String: String] = [:]
        for field in fields {
            let key = canonical[field.name.lowercased(), default: field.name]
            canonical[field.name.lowercased()] = key
            result[key] = result[key].map { "\($0), \(field.value)" } ?? field.value
        }
        return result
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
