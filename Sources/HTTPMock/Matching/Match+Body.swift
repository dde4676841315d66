import Foundation
import _HTTPMockRegex
import _HTTPMockJSON

extension Match {
    /// The request's body is exactly these bytes.
    public static func body(_ data: Data) -> Match {
        Match(condition: Condition(key: "body:" + data.base64EncodedString(), weight: 2, summary: "body (\(data.count) bytes)") {
            ($0.body ?? Data()) == data
        })
    }

    /// The request's body is exactly this text, encoded as UTF-8.
    public static func body(_ text: String) -> Match {
        body(Data(text.utf8))
    }

    /// The request's body is text (UTF-8) that contains a match of the regular expression `pattern`.
    /// An invalid expression is refused at registration.
    ///
    /// ```swift
    /// .body(matching: #""action"\s*:\s*"login""#)
    /// ```
    public static func body(matching pattern: String) -> Match {
        Match("body ~ /\(pattern)/") { () throws(HTTPMockError) -> Compiled in
            let regex = try compileRegex(pattern, role: "regular expression for the body")
            return Compiled(condition: Condition(key: "body~\(pattern)", weight: 2, summary: "body ~ /\(pattern.clipped(to: 60))/",
                                                 isUserCode: true) { request in
                guard let text = request.bodyText else { return false }
                return regex.containsMatch(in: text)
            }.inBudget())
        }
    }

    /// The request's body contains `text` literally: ``body(matching:)`` with the text escaped, named as
    /// written (mapping files' `contains`).
    static func body(containing text: String) -> Match {
        let escaped = NSRegularExpression.escapedPattern(for: text)
        let match = body(matching: escaped)
        return Match("body contains \(text.clipped(to: 40))", make: match.make)
    }

    /// The request's body is JSON equal to `value` (mapping files), where a string equal to `wildcard` in
    /// `value` matches any value (recordings write one for redacted fields).
    static func json(_ value: JSONValue, wildcard: String?) -> Match {
        jsonMatcher(value, containing: false, wildcard: wildcard)
    }

    /// The request's body is JSON equal to `value` encoded: key order, whitespace and number spelling do not
    /// matter.
    ///
    /// ```swift
    /// .json(User(id: 34, name: "Mark"))
    /// ```
    public static func json<T: Encodable>(_ value: T, encoder: JSONEncoder = JSONEncoder()) -> Match {
        jsonMatcher(encoding: value, encoder: encoder, containing: false)
    }

    /// The request's body is JSON equal to `object` (dictionaries, arrays, strings, numbers, booleans, `NSNull`).
    ///
    /// ```swift
    /// .json(object: ["id": 34, "tags": ["a", "b"]])
    /// ```
    public static func json(object: Any) -> Match {
        jsonMatcher(object: object, containing: false)
    }

    /// The request's body is JSON that contains `value` encoded: objects may have more keys, at any depth;
    /// arrays must have the same length, element by element.
    ///
    /// ```swift
    /// .jsonContaining(["action": "login"])   // {"action":"login","user":"ann"} matches
    /// ```
    public static func jsonContaining<T: Encodable>(_ value: T, encoder: JSONEncoder = JSONEncoder()) -> Match {
        jsonMatcher(encoding: value, encoder: encoder, containing: true)
    }

    /// The request's body is JSON that contains `object` (see ``jsonContaining(_:encoder:)``).
    public static func jsonContaining(object: Any) -> Match {
        jsonMatcher(object: object, containing: true)
    }

    /// The request's body is `application/x-www-form-urlencoded` with these fields (`+` and `%XX` decoded),
    /// compared as `matching` says (default: exactly these fields).
    ///
    /// ```swift
    /// .form(["user": "ann", "remember": .any], matching: .contains)
    /// ```
    public static func form(_ fields: QueryParameters, matching: QueryMatching = .exact) -> Match {
        let items = fields.items
        let mode = matching == .exact ? "exact" : "contains"
        return Match(condition: Condition(key: "form:\(mode):\(fields)", weight: 1 + items.values.reduce(0) { $0 + $1.weight },
                                          summary: "form \(fields) (\(mode))") { request in
            let found = QueryItem.parse(rawQuery: request.bodyText)
            for (name, value) in items where !value.matches(found.filter { $0.name == name }.map(\.value), matching) { return false }
            return matching == .contains || found.allSatisfy { items[$0.name] != nil }
        })
    }

    private static func jsonMatcher<T: Encodable>(encoding value: T, encoder: JSONEncoder, containing: Bool) -> Match {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            return invalid("json", HTTPMockError(.invalidPattern, "a \(T.self) value for a JSON body matcher could not be encoded: \(error)"))
        }
        guard let expected = JSONValue(data: data) else {
            return invalid("json", HTTPMockError(.invalidPattern, "a \(T.self) value for a JSON body matcher did not encode to JSON"))
        }
        return jsonMatcher(expected, containing: containing)
    }

    private static func jsonMatcher(object: Any, containing: Bool) -> Match {
        guard JSONSerialization.isValidJSONObject([object]),
              let data = try? JSONSerialization.data(withJSONObject: [object]),
              case .array(let values)? = JSONValue(data: data), let expected = values.first else {
            return invalid("json", HTTPMockError(.invalidPattern, "\(object) is not a JSON value; use dictionaries, arrays, strings, numbers, booleans and NSNull"))
        }
        return jsonMatcher(expected, containing: containing)
    }

    private static func jsonMatcher(_ expected: JSONValue, containing: Bool, wildcard: String? = nil) -> Match {
        let kind = containing ? "json containing" : "json"
        let key = "\(kind):\(expected)" + (wildcard.map { " wildcard:" + $0 } ?? "")
        return Match(condition: Condition(key: key, weight: 2, summary: "\(kind) \(expected)") { request in
            guard let body = request.body, let actual = JSONValue(data: body) else { return false }
            return containing ? expected.isContained(in: actual) : expected.matches(actual, wildcard: wildcard)
        })
    }
}
