#if OpenAPI
import Foundation
import HTTPMock

extension HTTPMock {
    /// Every way the responses of this mock's stubs break `document`: each queued response of a stub (registered
    /// in code, or loaded from WireMock files, a HAR or a recording) whose route and method fall on one of the
    /// document's operations is checked against that operation's responses, naming the stub, the field (a JSON
    /// pointer) and the rule.
    ///
    /// ```swift
    /// let violations = mock.checkStubs(against: try OpenAPIDocument(contentsOf: specURL))
    /// #expect(violations.isEmpty, "\(violations)")
    /// ```
    ///
    /// Checked: a status the operation does not list, a `Content-Type` it does not give, a JSON body that does not
    /// match the schema, a required header missing. Responses made when a request arrives (`.dynamic`), read from a
    /// file when served, streamed or failing are not checked here: ``checkServedResponses(against:)`` checks what
    /// was served. Stubs whose route matches no operation are left out; the document's own stubs too.
    public func checkStubs(against document: OpenAPIDocument) -> [ContractViolation] {
        let ownSource = "from \(document.source.lastPathComponent)"
        var violations: [ContractViolation] = []
        for stub in stubContents where !stub.conditions.contains(ownSource) {
            guard let contract = document.contract(for: stub) else { continue }
            for response in stub.responses {
                guard let body = response.body else { continue }
                violations += contract.violations(ofResponse: response.status.code, headers: response.headers, body: body)
                    .map { $0.naming("\(stub.id) \(stub.summary)") }
            }
        }
        return violations
    }

    /// Every way the responses this mock served (its journal) break `document`: for each answered request the
    /// document has an operation for, the status, `Content-Type`, JSON body and required headers of what it got.
    /// The document's own refusals (a request that broke the contract) are left out.
    public func checkServedResponses(against document: OpenAPIDocument) -> [ContractViolation] {
        var violations: [ContractViolation] = []
        for entry in journal where entry.contractViolation == nil {
            guard case .stub(let id, let summary) = entry.resolution,
                  case .response(let status, let headers, let body)? = entry.outcome else { continue }
            violations += document.violations(ofResponse: status, headers: headers, body: body, to: entry.request)
                .map { $0.naming("\(id) \(summary), request #\(entry.id)") }
        }
        return violations
    }
}

extension OpenAPIDocument {
    /// The operation a stub answers: the one whose method it takes and whose path (under one of the servers) its
    /// route covers, the most literal one when several do. `nil` when its route is not known or covers none.
    func contract(for stub: StubContents) -> OperationContract? {
        guard let path = stub.path else { return nil }
        let stubSegments = PathTemplate.segments(path)
        var best: (OperationContract, Int)?
        for base in bases(options: OpenAPIMockOptions()) {
            let url = URL(string: base)
            if let host = url?.host, !host.isEmpty, let stubHost = stub.host,
               !stubHost.contains("*"), stubHost.lowercased().split(separator: ":").first.map(String.init) != host.lowercased() {
                continue
            }
            let basePath = url?.host.map { $0.isEmpty ? base : (url?.path ?? "") } ?? base
            let baseSegments = PathTemplate.segments(basePath)
            for contract in contracts {
                if let methods = stub.methods, !methods.contains(contract.operation.method) { continue }
                let template = baseSegments + PathTemplate.segments(contract.operation.path)
                guard Self.covers(stubSegments, template) else { continue }
                let literals = template.filter { !$0.contains("{") }.count
                if best == nil || literals > best!.1 { best = (contract, literals) }
            }
        }
        return best?.0
    }

    /// Whether a stub's path glob (`/pets/*`, `/pets/7`, `/files/**`) falls on a path template's segments.
    private static func covers(_ glob: [String], _ template: [String]) -> Bool {
        if glob.last == "**" {
            return glob.count - 1 <= template.count && covers(Array(glob.dropLast()), Array(template.prefix(glob.count - 1)))
        }
        guard glob.count == template.count else { return false }
        for (pattern, part) in zip(glob, template) {
            if pattern.contains("*") || part.contains("{") { continue }
            if pattern != part && pattern.removingPercentEncoding != part { return false }
        }
        return true
    }
}
#endif
