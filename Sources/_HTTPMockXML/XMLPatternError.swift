
/// Why an expected XML document or an XPath expression cannot be used, naming the place: `matchesXPath: "]" is
/// not expected here, at position 7 of "/a/b]"`.
package struct XMLPatternError: Error, CustomStringConvertible, Sendable {
    /// The whole message.
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
