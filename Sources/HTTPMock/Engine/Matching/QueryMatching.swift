/// How a stub's query parameters are compared with a request's.
public enum QueryMatching: Sendable, Hashable {
    /// The request has exactly these parameters, no others, and each with exactly the values given (a repeated
    /// key's values in any order).
    case exact
    /// The request has at least these parameters, each with at least the values given; other parameters, and
    /// other values of a repeated key, are ignored.
    case contains
}

/// The value a query parameter must have.
///
/// Write a string for one value, an array for a repeated key, ``flag`` for an item without `=`, or ``any``:
///
/// ```swift
/// Path("/search", query: ["q": "swift", "tag": ["a", "b"], "debug": .flag, "page": .any], matching: .exact) { … }
/// // matches /search?q=swift&tag=a&tag=b&debug&page=3
/// ```
public enum QueryValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The key appears with exactly these values (as a multiset: order does not matter).
    case values([String])
    /// The key appears once, written without `=` (`?debug`).
    case flag
    /// The key appears, with any value or none.
    case any

    public init(stringLiteral value: String) { self = .values([value]) }
    public init(arrayLiteral elements: String...) { self = .values(elements) }

    /// Whether the values a request has for the key (`nil` for an item without `=`) satisfy this value:
    /// exactly (`.exact`: the same values, in any order) or at least (`.contains`: these among others).
    func matches(_ found: [String?], _ matching: QueryMatching) -> Bool {
        switch self {
        case .any: return !found.isEmpty
        case .flag: return matching == .exact ? found.count == 1 && found[0] == nil : found.contains { $0 == nil }
        case .values(let expected):
            if matching == .exact {
                return found.count == expected.count && found.map { $0 ?? "" }.sorted() == expected.sorted()
            }
            var remaining = found.compactMap { $0 }
            for value in expected {
                guard let index = remaining.firstIndex(of: value) else { return false }
                remaining.remove(at: index)
            }
            return true
        }
    }

    /// What the value adds to a stub's specificity: a precise value beats `.any`.
    var weight: Int {
        if case .any = self { return 1 }
        return 2
    }

    public var description: String {
        switch self {
        case .values(let values) where values.count == 1: values[0]
        case .values(let values): "[" + values.joined(separator: ", ") + "]"
        case .flag: "(flag)"
        case .any: "(any)"
        }
    }
}

/// Query parameters a stub requires, written as a dictionary literal.
public struct QueryParameters: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The required parameters, by name.
    public let items: [String: QueryValue]

    /// Parameters with rich values (lists, `.flag`, `.any`).
    public init(_ items: [String: QueryValue]) { self.items = items }
    /// Parameters with one value each.
    public init(_ items: [String: String]) { self.items = items.mapValues { .values([$0]) } }
    public init(dictionaryLiteral elements: (String, QueryValue)...) {
        self.items = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    public var description: String {
        items.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }
}

extension Condition {
    /// The request's query meets `parameters` as `matching` says.
    static func query(_ parameters: QueryParameters, matching: QueryMatching) -> Condition {
        let items = parameters.items
        let mode = matching == .exact ? "exact" : "contains"
        return Condition(key: "query:\(mode):\(parameters)", weight: 1 + items.values.reduce(0) { $0 + $1.weight },
                         summary: "query \(parameters.description.isEmpty ? "(none)" : parameters.description) (\(mode))") { request in
            for (name, value) in items where !value.matches(request.queryValues(for: name), matching) { return false }
            if matching == .exact {
                return request.queryItems.allSatisfy { items[$0.name] != nil }
            }
            return true
        }
    }
}
