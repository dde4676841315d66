import Foundation
import _HTTPMockRegex

extension Match {
    /// The request has a header `name` (compared case-insensitively), with any value.
    public static func header(_ name: String) -> Match {
        if let problem = invalidName(name) { return problem }
        return Match(condition: Condition(key: "header:\(name.lowercased())", summary: "header \(name)") {
            !$0.headers.values(for: name).isEmpty
        })
    }

    /// The request has a header `name` (case-insensitive) with the value `value`.
    ///
    /// Every value counts: a repeated header, and each item of a comma-separated value (`Accept: a, b`), since
    /// URLSession joins repeated request headers with commas.
    ///
    /// ```swift
    /// .header("Authorization", "Bearer t0k3n")
    /// ```
    public static func header(_ name: String, _ value: String) -> Match {
        if let problem = invalidName(name) { return problem }
        return Match(condition: Condition(key: "header:\(name.lowercased())=\(value)", weight: 2, summary: "header \(name): \(value)") {
            headerValues(name, in: $0).contains(value)
        })
    }

    /// The request has a header `name` (case-insensitive) with a value that contains a match of the regular
    /// expression `pattern`. Every value counts, as for ``header(_:_:)``. An invalid expression is refused at
    /// registration.
    ///
    /// ```swift
    /// .header("User-Agent", matching: "^MyApp/[0-9]+")
    /// ```
    public static func header(_ name: String, matching pattern: String) -> Match {
        if let problem = invalidName(name) { return problem }
        return Match("header \(name) ~ /\(pattern)/") { () throws(HTTPMockError) -> Compiled in
            let regex = try compileRegex(pattern, role: "regular expression for header \"\(name)\"")
            return Compiled(condition: Condition(key: "header:\(name.lowercased())~\(pattern)", weight: 2,
                                                 summary: "header \(name) ~ /\(pattern)/", isUserCode: true) { request in
                headerValues(name, in: request).contains { value in
                    regex.containsMatch(in: value)
                }
            }.inBudget())
        }
    }

    /// A matcher that refuses to register, when `name` cannot be a header name.
    static func invalidName(_ name: String) -> Match? {
        // Visible ASCII without a colon (nearly every name) is told by its bytes; anything else by its characters.
        if !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) { return nil }
        guard name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == ":" }) else { return nil }
        return invalid("header", HTTPMockError(.invalidPattern, "\"\(name)\" is not a header name; give a name such as \"Authorization\" (no spaces or colons)"))
    }

    /// Each value of `name`, then each comma-separated item of values that have several.
    private static func headerValues(_ name: String, in request: CapturedRequest) -> [String] {
        let values = request.headers.values(for: name)
        var result = values
        for value in values where value.contains(",") {
            result += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return result
    }
}
