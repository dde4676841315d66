import Foundation
import Testing
@testable import _HTTPMockJSON

/// OpenAPI's numeric formats (`int32`, `int64`, `float`, `double`) bound numbers when formats are checked, and are
/// annotations otherwise, as JSON Schema says of formats it does not define.
@Suite struct NumericFormatTests {
    @Test("each format's edges: inside passes, one past fails, naming the format", arguments: [
        ("int32", "2147483647", true), ("int32", "-2147483648", true), ("int32", "2147483648", false), ("int32", "-2147483649", false),
        ("int32", "1.5", false), ("int32", "2.0", true),
        ("int64", "9223372036854775807", true), ("int64", "-9223372036854775808", true), ("int64", "1e19", false),
        ("float", "3.4e38", true), ("float", "-3.4e38", true), ("float", "3.5e38", false), ("float", "1e-50", true),
        ("double", "1.7976931348623157e308", true),
    ])
    func edges(_ format: String, _ number: String, _ valid: Bool) throws {
        let schema = try JSONSchema(.object(["format": .string(format)]), validatesFormats: true)
        let value = try #require(JSONValue.parse(Data(number.utf8)))
        let violations = schema.violations(of: value)
        #expect(violations.isEmpty == valid, "\(format) \(number): \(violations)")
        if !valid { #expect(violations.first?.keyword == "format") }
        // Without format checks, an annotation only.
        #expect(try JSONSchema(.object(["format": .string(format)])).violations(of: value).isEmpty)
    }
}
