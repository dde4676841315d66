#if OpenAPI
import HTTPMock

/// One way a request or a response breaks an OpenAPI document: where (``place`` and ``pointer``), which rule, and
/// what is wrong.
///
/// ```swift
/// for violation in mock.checkStubs(against: document) {
///     print(violation)   // stub #3 GET /pets/{petId} 200 response body at /id: "7" is a string, not an integer (type)
/// }
/// ```
public struct ContractViolation: Sendable, Hashable, CustomStringConvertible {
    /// The operation it concerns (`GET /pets/{petId}`); `nil` when the request matches none.
    public let operation: String?
    /// What part of the exchange breaks the rule: `path`, `method`, `query parameter limit`, `header X-Request-ID`,
    /// `request body`, `200 response body`, `response status`, `response header Location`.
    public let place: String
    /// Where in that part's value, as a JSON pointer (`/items/0/price`); empty for the value itself.
    public let pointer: String
    /// The rule broken: a JSON Schema keyword (`required`, `type`, `maximum`…), or `path`, `method`,
    /// `media type`, `status`.
    public let rule: String
    /// What is wrong, in plain English.
    public let message: String
    /// The stub whose response breaks the contract (`#3 api.example.com/pets/* [method GET]`), for stub checks.
    public let stub: String?

    public init(operation: String?, place: String, pointer: String = "", rule: String, message: String, stub: String? = nil) {
        self.operation = operation
        self.place = place
        self.pointer = pointer
        self.rule = rule
        self.message = message
        self.stub = stub
    }

    /// `stub #3 …: GET /pets/{petId} 200 response body at /id: 7 is not a string (type)`.
    public var description: String {
        var text = ""
        if let stub { text += "stub \(stub): " }
        if let operation { text += operation + " " }
        text += place
        if !pointer.isEmpty { text += " at \(pointer)" }
        return text + ": \(message) (\(rule))"
    }

    /// The same violation, naming `stub`.
    func naming(_ stub: String) -> ContractViolation {
        ContractViolation(operation: operation, place: place, pointer: pointer, rule: rule, message: message, stub: stub)
    }
}
#endif
