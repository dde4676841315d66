#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

extension OpenAPIDocument {
    /// Every way a response to `request` breaks the document: a status its operation does not list, a
    /// `Content-Type` it does not give, a JSON body that does not match the schema, a required header missing.
    /// Empty when it keeps the contract, or when the request matches no operation (see ``violations(of:)``).
    ///
    /// For tools that check traffic (a proxy, a journal, recorded files) against a document.
    public func violations(ofResponse status: Int, headers: [String: String], body: Data?,
                           to request: CapturedRequest) -> [ContractViolation] {
        guard case .operation(let contract, _) = route(request) else { return [] }
        return contract.violations(ofResponse: status, headers: headers, body: body)
    }
}

extension OperationContract {
    func violations(ofResponse status: Int, headers: [String: String], body: Data?) -> [ContractViolation] {
        let name = operation.description
        var violations: [ContractViolation] = []
        func add(_ place: String, _ rule: String, _ message: String, pointer: String = "") {
            violations.append(ContractViolation(operation: name, place: place, pointer: pointer, rule: rule, message: message))
        }
        guard let response = response(for: status) else {
            add("response status", "status", "the document lists no \(status) response for this operation; it lists \(responses.map(\.status).joined(separator: ", "))")
            return violations
        }
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        for required in response.requiredHeaders where header(required.name) == nil {
            add("response header \(required.name)", "required", "the \(status) response must carry the header \(required.name)")
        }
        let bytes = body ?? Data()
        let place = "\(status) response body"
        guard !response.content.isEmpty else { return violations }
        guard !bytes.isEmpty else { return violations }
        let contentType = header("Content-Type") ?? ""
        guard let media = response.content.first(where: { $0.accepts(contentType) }) else {
            add(place, "media type", contentType.isEmpty
                ? "the response has no Content-Type; the document gives \(response.content.map(\.name).joined(separator: ", "))"
                : "\"\(contentType)\" is not a media type the document gives for \(status); it gives \(response.content.map(\.name).joined(separator: ", "))")
            return violations
        }
        guard MediaContract.isJSON(contentType.isEmpty ? media.name : contentType), let schema = media.schema else { return violations }
        guard let value = JSONValue.parse(bytes) else {
            add(place, "json", "the body is not JSON")
            return violations
        }
        for violation in schema.violations(of: value, limit: 50) {
            add(place, violation.keyword, violation.message, pointer: violation.instancePath)
        }
        return violations
    }
}
#endif
