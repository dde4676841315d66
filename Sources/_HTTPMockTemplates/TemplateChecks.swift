import Foundation
import _HTTPMockRegex
import _HTTPMockJSON

/// What a template is checked for when it is read, before any request: each helper's arguments (how many, which
/// names), the literal arguments that can be checked early, and the `request.…` attributes it names.
package struct TemplateChecks: Sendable {
    /// The variables of the mapping's `urlPathTemplate`, with their segment positions.
    let pathNames: [String: Int]
    /// Whether `systemValue` may read the process environment.
    let environmentAccess: Bool

    /// The attributes of `request`.
    static let requestAttributes = ["url", "path", "pathSegments", "query", "headers", "cookies", "method", "host", "port",
                                    "scheme", "baseUrl", "body", "bodyAsBase64", "clientIp", "id", "multipart", "requestLine"]

    func check(_ call: HandlebarsCall, asBlock: Bool) throws(TemplateProblem) {
        for expression in call.params + call.hash.map(\.value) { try check(expression) }
        if let target = call.target { try check(target) }
        guard let helper = call.helper else { return }
        let spec = helper.spec
        func fail(_ message: String) -> TemplateProblem {
            TemplateProblem("{{\(call.source)}}: \(message); write \(spec.usage)", at: call.position)
        }
        var range = spec.params
        switch spec.block {
        case .blockOnly where !asBlock:
            throw fail("\(helper.rawValue) is a block helper")
        case .content where asBlock:
            range = max(0, range.lowerBound - 1)...range.upperBound
        default: break
        }
        if !range.contains(call.params.count) {
            let wanted = range.lowerBound == range.upperBound ? "\(range.lowerBound)"
                : range.upperBound == TemplateHelper.many ? "at least \(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw fail("\(helper.rawValue) takes \(wanted) argument\(wanted == "1" ? "" : "s"), not \(call.params.count)")
        }
        for (key, _) in call.hash where !spec.hash.contains(key) {
            let known = spec.hash.sorted().joined(separator: ", ")
            throw fail("\(helper.rawValue) has no named argument \"\(key)\"\(known.isEmpty ? "" : " (it has \(known))")")
        }
        try checkLiterals(helper, call, fail: fail)
    }

    private func check(_ expression: HandlebarsExpression) throws(TemplateProblem) {
        switch expression {
        case .literal: return
        case .call(let call): try check(call, asBlock: false)
        case .path(let path): try check(path)
        }
    }

    /// `request.…`: a known attribute, a path segment that exists.
    private func check(_ path: HandlebarsPath) throws(TemplateProblem) {
        guard !path.isData, !path.isThis, path.depth == 0, path.parts.first == "request", path.parts.count > 1 else { return }
        let attribute = path.parts[1]
        guard Self.requestAttributes.contains(attribute) else {
            if attribute == "parts" {
                throw TemplateProblem("{{\(path.source)}}: the parts of multipart requests are not supported; read request.body", at: path.position)
            }
            throw TemplateProblem("{{\(path.source)}}: the request has no \"\(attribute)\"; use request.\(Self.requestAttributes.joined(separator: ", request."))", at: path.position)
        }
        guard attribute == "path" || attribute == "pathSegments", path.parts.count > 2 else { return }
        let key = path.parts[2]
        if Int(key) != nil || key == "first" || key == "last" { return }
        if attribute == "path", pathNames[key] != nil { return }
        let names = pathNames.keys.sorted()
        let hint = attribute == "path" && !names.isEmpty ? "; the variables of the urlPathTemplate are \(names.joined(separator: ", "))" : ""
        throw TemplateProblem("{{\(path.source)}}: \"\(key)\" is not a position or a variable of the urlPathTemplate; write request.\(attribute).[0]\(hint)", at: path.position)
    }

    private func literal(_ expression: HandlebarsExpression?) -> String? {
        if case .literal(.string(let text))? = expression { return text }
        return nil
    }

    private func checkLiterals(_ helper: TemplateHelper, _ call: HandlebarsCall, fail: (String) -> TemplateProblem) throws(TemplateProblem) {
        let second = call.params.count > 1 ? call.params[1] : nil
        switch helper {
        case .jsonPath:
            if let text = literal(second) {
                do { _ = try JSONPath(text) } catch { throw fail("the JSONPath '\(text)' does not compile (\(error.message))") }
            }
        case .jsonRemove:
            if let text = literal(second) {
                let path: JSONPath
                do { path = try JSONPath(text) } catch { throw fail("the JSONPath '\(text)' does not compile (\(error.message))") }
                if let problem = HandlebarsRenderer.removalProblem(path) { throw fail(problem) }
            }
        case .matches, .regexExtract:
            if let text = literal(second), (try? NSRegularExpression(pattern: JavaRegex.icu(text))) == nil {
                throw fail("the regular expression '\(text)' does not compile")
            }
        case .math:
            if let text = literal(second), TemplateMath.Operator(rawValue: text) == nil {
                throw fail("'\(text)' is not an operator")
            }
        case .now, .date:
            if let text = literal(call.hashValue("offset")), TemplateDates.offset(text) == nil {
                throw fail("'\(text)' is not an offset; write offset='3 days' or offset='-24 seconds' (seconds, minutes, hours, days, weeks, months or years)")
            }
            if let text = literal(call.hashValue("timezone")), TemplateDates.timeZone(text) == nil {
                throw fail("'\(text)' is not a time zone; write timezone='Australia/Sydney' or timezone='UTC'")
            }
        case .truncateDate:
            if let text = literal(second), TemplateDates.Truncation(name: text) == nil {
                throw fail("'\(text)' is not a truncation; use one of: \(TemplateDates.Truncation.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        case .randomValue:
            if let text = literal(call.hashValue("type")), TemplateRandom.alphabet(text) == nil {
                throw fail("the type '\(text)' is not one of \(TemplateRandom.types.joined(separator: ", "))")
            }
            if case .literal(let value)? = call.hashValue("length") {
                guard case .int(let length)? = value.number, (1...TemplateRandom.maximumLength).contains(length) else {
                    throw fail("randomValue needs length=N, from 1 to \(TemplateRandom.maximumLength)")
                }
            }
        case .numberFormat:
            if let text = literal(second), !["integer", "percent", "currency"].contains(text) {
                do { _ = try TemplateNumberFormat(style: text, locale: nil) } catch { throw fail("the number pattern '\(text.prefix(200))' can never work: \(error.message)") }
            }
            if call.params.count > 2, let text = literal(call.params[2]) {
                do { _ = try TemplateNumberFormat.locale(text) } catch { throw fail(error.message) }
            }
            if let text = literal(call.hashValue("roundingMode")), TemplateDecimal.Rounding(rawValue: text.uppercased()) == nil {
                throw fail("'\(text)' is not a rounding mode; use one of \(TemplateDecimal.Rounding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            for key in ["maximumFractionDigits", "minimumFractionDigits", "maximumIntegerDigits", "minimumIntegerDigits"] {
                if case .literal(let value)? = call.hashValue(key), case .int = value {} else if case .literal? = call.hashValue(key) {
                    throw fail("\(key) must be a whole number written without quotes")
                }
            }
            for key in ["groupingUsed", "parseIntegerOnly"] {
                if case .literal(let value)? = call.hashValue(key), case .bool = value {} else if case .literal? = call.hashValue(key) {
                    throw fail("\(key) must be true or false")
                }
            }
        case .wordWrap:
            if case .literal(let value)? = second, case .int = value {} else if case .literal? = second {
                throw fail("the width must be a whole number written without quotes")
            }
        case .formatJson:
            if let text = literal(call.hashValue("format")), text != "pretty", text != "compact" {
                throw fail("the format '\(text)' is not 'pretty' or 'compact'")
            }
        case .systemValue:
            guard environmentAccess else {
                throw TemplateProblem("{{\(call.source)}}: systemValue is disabled: a template may not read the environment of the process unless the mock is loaded with environment access", at: call.position)
            }
            if call.hashValue("key") == nil { throw fail("systemValue needs key='NAME'") }
        case .xPath, .soapXPath:
            if let text = literal(second) {
                _ = try HandlebarsRenderer.xPath(text, soap: helper == .soapXPath) { (message) throws(TemplateProblem) in throw fail(message) }
            }
        default: break
        }
    }
}
