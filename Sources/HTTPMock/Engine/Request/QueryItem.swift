import Foundation

/// One item of a URL's query, as it was written: `?a=1&a=2&flag` has three items, and `flag` has no value.
public struct QueryItem: Sendable, Hashable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// `nil` for an item written without `=` (`?flag`); `""` for `?flag=`.
    public var value: String?

    /// An item; `value` `nil` for one written without `=`.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    public var description: String { value.map { "\(name)=\($0)" } ?? name }

    /// Splits a raw (percent-encoded) query string into decoded items, keeping order, repeats and value-less items.
    static func parse(rawQuery: String?) -> [QueryItem] {
        guard let rawQuery, !rawQuery.isEmpty else { return [] }
        return rawQuery.split(separator: "&", omittingEmptySubsequences: true).map { part in
            if let eq = part.firstIndex(of: "=") {
                return QueryItem(name: decode(part[..<eq]), value: decode(part[part.index(after: eq)...]))
            }
            return QueryItem(name: decode(part), value: nil)
        }
    }

    private static func decode(_ text: Substring) -> String {
        let plusAsSpace = text.replacingOccurrences(of: "+", with: " ")
        return plusAsSpace.removingPercentEncoding ?? plusAsSpace
    }
}
