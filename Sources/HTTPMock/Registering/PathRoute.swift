/// The path of `addResponses(forPath:)` and `Path(…)`: a glob pattern, or a URI template when it has `{…}`.
///
/// `Path("/users/{id}")` matches `/users/42` and hands `id` to ``MockResponse/dynamic(lifetime:delivery:_:)``.
/// The template is indexed by its literal prefix (`/users/*`) and tested as a condition.
enum PathRoute {
    static func compile(_ path: String) throws(HTTPMockError) -> (pattern: PathGlob, conditions: [Condition]) {
        guard path.contains("{") || path.contains("}") else {
            return (try HTTPMock.compilePath(path), [])
        }
        if path.contains("*") {
            throw HTTPMockError(.invalidPattern, "invalid path \"\(path)\": it mixes glob wildcards (*) with a URI template ({…}); use one or the other")
        }
        // Normalised as paths are (`users/{id}/` is `/users/{id}`), so that both spellings share one queue.
        let normalized = "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        let template: URITemplate
        do {
            template = try URITemplate(normalized)
        } catch {
            // Name the path as written.
            throw HTTPMockError(.invalidPattern, error.message.replacingOccurrences(of: "\"\(normalized)\"", with: "\"\(path)\""))
        }
        let anyPath = try HTTPMock.compilePath("/**")
        return (template.pathHint ?? anyPath, [.uriTemplate(template)])
    }
}

extension HTTPMock {
    static func compilePath(_ path: String) throws(HTTPMockError) -> PathGlob {
        try compile { () throws(GlobError) in try PathGlob(path) }
    }
}
