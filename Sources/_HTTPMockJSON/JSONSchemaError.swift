
/// Why a schema cannot be compiled, with the place of the keyword in the document: `JSON schema at /properties/id:
/// "minimum" must be a number`.
package struct JSONSchemaError: Error, CustomStringConvertible, Sendable {
    /// The whole message, place first.
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
