import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MappingFile {
    /// The stubs of this file, whose body files are looked up from `folder` (the file's own folder) and must stay
    /// inside the loaded folder (`files`). `name` is the file's path relative to it, for messages.
    func definitions(folder: URL, files: FolderPath, name: String) throws(HTTPMockError) -> [Engine.Definition] {
        var definitions: [Engine.Definition] = []
        definitions.reserveCapacity(mocks.count)
        // Mocks of a file mostly share a few hosts: compile each once.
        var hosts: [String: HostGlob] = [:]
        for (index, mock) in mocks.enumerated() {
            let place = "\(name) at mocks[\(index)]"
            definitions.append(try definition(mock, place: place, folder: folder, files: files, hosts: &hosts,
                                              source: mock.name.map { "\(name) \"\($0)\"" } ?? "\(name) mocks[\(index)]"))
        }
        return definitions
    }

    private func definition(_ mock: Mock, place: String, folder: URL, files: FolderPath, hosts: inout [String: HostGlob],
                            source: String) throws(HTTPMockError) -> Engine.Definition {
        let request = mock.request
        var host: HostGlob?
        if let text = request.host ?? self.host {
            if let known = hosts[text] {
                host = known
            } else {
                do { host = try HostGlob(text) } catch {
                    throw HTTPMockError(.invalidPattern, "\(place).request.host: \(error.description)")
                }
                hosts[text] = host
            }
        }
        let path = try request.path.map { (text) throws(HTTPMockError) in try NamedPath(text, place: place + ".request.path") }
        // The request spec in the one matcher vocabulary: the same words a stub uses, compiled the same way.
        var matches: [Match] = []
        if let methods = request.methods {
            if methods.isEmpty { throw HTTPMockError(.invalidDefinition, "\(place).request.method: the list of methods is empty") }
            for method in methods {
                if let problem = MethodName.problem(method) { throw HTTPMockError(.invalidDefinition, "\(place).request.method: \(problem)") }
            }
            matches.append(.method(methods.map { HTTPMethod($0) }))
        }
        if let query = request.query {
            matches.append(.query(QueryParameters(query.mapValues(\.value)), matching: request.queryMatching))
        }
        for (name, spec) in (request.headers ?? [:]).sorted(by: { $0.key < $1.key }) { matches.append(spec.match(name: name)) }
        if let body = request.body { matches.append(body.match) }
        var conditions: [Condition]
        do {
            conditions = try CompiledMatchers(matches, host: host, path: path?.pattern).conditions
        } catch {
            throw HTTPMockError(error.code, "\(place).request: \(error.message)")
        }
        conditions.append(.loaded(from: source))
        var responses: [MockResponse] = []
        for (index, spec) in mock.responses.enumerated() {
            let isLast = index == mock.responses.count - 1
            responses.append(try response(spec, isLast: isLast, pathNames: path?.names ?? [:], folder: folder, files: files,
                                          place: "\(place).responses[\(index)]"))
        }
        return Engine.Definition(host: host, path: path?.pattern, conditions: conditions, responses: responses)
    }

    private func response(_ spec: ResponseSpec, isLast: Bool, pathNames: [String: Int], folder: URL, files: FolderPath,
                          place: String) throws(HTTPMockError) -> MockResponse {
        // The last response of a mock repeats unless it says otherwise; the others are served once.
        let lifetime = spec.times?.lifetime ?? (isLast ? .eternal : .single)
        let delivery: MockResponse.Delivery = (spec.delay ?? 0) > 0 ? .delayed(spec.delay!) : .instant
        if let failure = spec.failure {
            guard let code = URLErrorName.code(named: failure) else {
                throw HTTPMockError(.invalidDefinition, "\(place).failure: \"\(failure)\" is not a URLError code name; try one of \(URLErrorName.suggestions(for: failure))")
            }
            return .failure(URLError(code), lifetime: lifetime, delivery: delivery)
        }
        var headers = spec.headers ?? [:]
        if let redirect = spec.redirect { headers["Location"] = redirect }
        if case .events = spec.body { headers = MockResponse.eventStreamHeaders(headers) }
        let status = MockResponse.Status(code: spec.status ?? (spec.redirect == nil ? 200 : 302))
        let (content, inferredType, template) = try body(spec, pathNames: pathNames, folder: folder, files: files, place: place)
        var response = MockResponse(status: status, headers: headers, content: content,
                                    contentType: spec.contentType ?? inferredType, lifetime: lifetime, delivery: delivery)
        if let template, template.isTemplated {
            let base = response
            response.render = { request in
                var served = base
                served.render = nil
                served.content = .data(template.render(request))
                return served
            }
            response.rendersInPlace = true
        }
        return response
    }

    private func body(_ spec: ResponseSpec, pathNames: [String: Int], folder: URL, files: FolderPath,
                      place: String) throws(HTTPMockError) -> (MockResponse.Content, String?, BodyTemplate?) {
        func template(_ text: String, json: Bool, at key: String) throws(HTTPMockError) -> BodyTemplate? {
            guard spec.template else { return nil }
            return try BodyTemplate(text, pathNames: pathNames, escapesForJSON: json, place: "\(place).\(key)")
        }
        switch spec.body {
        case nil:
            return (.data(Data()), nil, nil)
        case .text(let text):
            return (.data(Data(text.utf8)), "text/plain; charset=utf-8", try template(text, json: false, at: "text"))
        case .json(let value):
            let data = value.data
            return (.data(data), "application/json", try template(String(decoding: data, as: UTF8.self), json: true, at: "json"))
        case .base64(let text):
            guard let data = Base64.decode(text) else {
                throw HTTPMockError(.invalidDefinition, "\(place).base64: the text is not valid base64 (letters, digits, \"+\", \"/\", \"=\" padding to a multiple of 4); fix it, or give the body as \"text\" or \"file\"")
            }
            return (.data(data), nil, nil)
        case .file(let relative):
            let url = try files.file(relative, relativeTo: folder, place: "\(place).file")
            let type = ContentType.infer(fromExtension: url.pathExtension)
            guard spec.template else { return (.file(url), type, nil) }
            let data = try DefinitionFile.read(url, name: "\(place).file", limit: files.limits.templatedBodies, knob: "templatedBodies")
            guard let text = String(data: data, encoding: .utf8) else {
                throw HTTPMockError(.invalidDefinition, "\(place).file: \"\(relative)\" is not UTF-8 text, so it cannot be a template")
            }
            return (.data(data), type, try template(text, json: type.contains("json"), at: "file"))
        case .parts(let specs):
            var parts: [StreamPart] = []
            for (index, spec) in specs.enumerated() {
                guard let data = spec.text.map({ Data($0.utf8) }) ?? spec.base64.flatMap(Base64.decode) else {
                    throw HTTPMockError(.invalidDefinition, "\(place).parts[\(index)].base64: the text is not valid base64; fix it, or give the part as \"text\"")
                }
                parts.append(StreamPart(data, after: spec.after))
            }
            return (.stream(StreamSource(.script(parts, fault: try fault(spec.streamFault, place: place)))), "application/octet-stream", nil)
        case .events(let events):
            let parts = events.map { StreamPart.event($0.serverSentEvent, after: $0.after) }
            return (.stream(StreamSource(.script(parts, fault: try fault(spec.streamFault, place: place)))), "text/event-stream", nil)
        }
    }

    /// The stream fault a `streamFault` names.
    private func fault(_ spec: ResponseSpec.FaultSpec?, place: String) throws(HTTPMockError) -> StreamFault? {
        guard let spec else { return nil }
        switch spec.kind {
        case .drop: return .drop(afterParts: spec.afterParts)
        case .stall: return .stall(afterParts: spec.afterParts)
        case .fail:
            let name = spec.error ?? "networkConnectionLost"
            guard let code = URLErrorName.code(named: name) else {
                throw HTTPMockError(.invalidDefinition, "\(place).streamFault.error: \"\(name)\" is not a URLError code name; try one of \(URLErrorName.suggestions(for: name))")
            }
            return .fail(URLError(code), afterParts: spec.afterParts)
        }
    }
}
