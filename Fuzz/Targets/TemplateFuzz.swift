// Fuzz target "template": feeds the URI template compiler (`Match.uriTemplate`), URL regular expressions
// (`Match.urlRegex`), exact URLs (`Match.url`) and mapping body templates (`{{query.q}}`), then matches a URL.
// Input: line 1 the template / expression, line 2 a URL to match (first 256 characters: a user's own regular
// expression may backtrack for ever on a long URL, which is not a bug of ours).
import Foundation

@Sendable func fuzzTemplates(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let source = lines.first ?? ""
    let urlText = lines.count > 1 ? String(lines[1].prefix(256)) : "https://api.example.com/users/42?page=2"
    let request = URL(string: urlText).map { CapturedRequest(url: $0) }
        ?? CapturedRequest(url: URL(string: "https://api.example.com/users/42?page=2")!)

    if let template = try? URITemplate(source) {
        _ = template.captures(in: request)
        _ = template.hostHint
        _ = template.pathHint
    }
    for match in [Match.uriTemplate(source), .url(source)] {
        guard let compiled = try? CompiledMatchers([match]) else { continue }
        for condition in compiled.conditions { _ = condition.test(request) }
        _ = compiled.host?.matches(host: request.host.split(separator: ".").map(String.init), port: request.port)
        _ = compiled.path?.matches(request.pathSegments)
    }
    // Compile only: matching a user's expression is ICU's work, and may legitimately take exponential time.
    _ = try? compileRegex(source, role: "URL regular expression")
    for json in [false, true] {
        if let body = try? BodyTemplate(source, pathNames: ["id": 1], escapesForJSON: json, place: "fuzz") {
            _ = body.render(request)
        }
    }
}
