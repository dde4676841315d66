import _HTTPMockJSON
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension WireMockResponse {
    /// Where body files are read from.
    enum Files {
        /// Only check the response (a mapping read on its own): body files are not looked up.
        case unchecked
        /// No `__files` folder: a `bodyFileName` is an error.
        case none
        case folder(FolderPath)
    }

    /// The response to serve, every time (WireMock's stubs never run out). With templating (the mapping's
    /// `transformers`, or `globalTemplating`), the body and header values are filled from each request; a random
    /// delay is drawn for each request.
    ///
    /// A proxied response (`proxyBaseUrl`) goes to loopback, or to a host of `proxyHosts` (`nil`: not checked, for a
    /// mapping read on its own). A `proxyBaseUrl` template is rendered for each request, as WireMock renders it when
    /// the response is templated, and the engine checks its host then; so is each value of
    /// `additionalProxyRequestHeaders` with `{{…}}` (see ``templatedProxy(_:templating:pathNames:headers:proxyHosts:)``).
    func served(files: Files, globalTemplating: Bool, pathTemplate: String?, proxyHosts: Set<String>?) throws(HTTPMockError) -> MockResponse {
        let templating = templated || globalTemplating
        let pathNames = pathTemplate.map(WireMockRequest.segmentPositions) ?? [:]
        if let proxy {
            let headers = try proxyHeaderTemplates(proxy, templating: templating, pathNames: pathNames)
            if proxyBaseTemplate != nil || !headers.isEmpty {
                return try templatedProxy(proxy, templating: templating, pathNames: pathNames, headers: headers, proxyHosts: proxyHosts)
            }
            let host = proxy.base.host ?? ""
            if let proxyHosts, !Loopback.allows(host, among: proxyHosts) {
                throw node.error("\"proxyBaseUrl\" sends requests to \(host), beyond this machine: \(Loopback.howToAllow(host))")
            }
            return MockResponse(status: .ok, headers: [:], content: .forward(proxy), contentType: nil, lifetime: .eternal, delivery: .instant)
        }
        func template(_ text: String, at key: String) throws(HTTPMockError) -> BodyTemplate? {
            guard templating, text.contains("{{") else { return nil }
            let template = try BodyTemplate(wireMock: text, pathNames: pathNames, place: "\(node.place) at \(node.path).\(key)",
                                            parameters: parameters)
            return template.isTemplated ? template : nil
        }
        var content = MockResponse.Content.data(Data())
        var bodyTemplate: BodyTemplate?
        /// A `bodyFileName` that is a template, or names a file not there when loaded: which file is read is worked
        /// out for each request.
        var fileName: (template: BodyTemplate, folder: URL, limits: FileSizeLimits, place: String)?
        var size = 0
        switch body {
        case .none: break
        case .text(let text):
            bodyTemplate = try template(text, at: "body")
            // In the charset the headers declare (`charset=GB2312`), as WireMock sends it; a template renders UTF-8.
            let contentType = headers.first { $0.key.lowercased() == "content-type" }?.value
            if bodyTemplate == nil, let encoding = contentType.flatMap(Charset.encoding(ofContentType:)),
               let encoded = text.data(using: encoding, allowLossyConversion: true) {
                content = .data(encoded)
            } else {
                content = .data(Data(text.utf8))
            }
        case .json(let value):
            // As the file wrote it: keys in its order; numbers with a fraction or an exponent in full without
            // trailing zeros, as WireMock sends them (`1.0` → `1`, `1e2` → `100`).
            let data = JSONValue.plainNumbers(in: jsonBodyText ?? value.data)
            content = .data(data)
            bodyTemplate = try template(String(decoding: data, as: UTF8.self), at: "jsonBody")
        case .bytes(let data):
            content = .data(data)
        case .file(let name, let node) where templating && name.contains("{{"):
            // `responses/{{request.path.id}}.json`: the name is filled from each request, and the file found then,
            // inside `__files` only (checked when it is read, on the real path).
            guard let nameTemplate = try template(name, at: "bodyFileName") else { break }
            switch files {
            case .unchecked: break
            case .none: throw node.error("there is no __files folder beside the mappings to read \"\(name)\" from")
            case .folder(let folder):
                fileName = (nameTemplate, folder.root, folder.limits, "\(node.place) at \(node.path)")
            }
        case .file(let name, let node):
            switch files {
            case .unchecked: break
            case .none: throw node.error("there is no __files folder beside the mappings to read \"\(name)\" from")
            case .folder(let folder):
                let url: URL
                do throws(HTTPMockError) {
                    url = try folder.file(name, place: "\(node.place) at \(node.path) (in \(folder.root.path))")
                } catch {
                    // WireMock reads a body file when it answers: one not there (yet) loads, and each request
                    // answers 500 naming it until it is there. Any other problem with the name is refused here.
                    let path = folder.root.appendingPathComponent(name).path
                    guard error.code == .missingFile, streamParts == nil, LocalFile.realPath(path) == nil,
                          !LocalFile.isSymbolicLink(path) else { throw error }
                    fileName = (BodyTemplate(parts: [.literal(name)], escapesForJSON: false), folder.root, folder.limits,
                                "\(node.place) at \(node.path)")
                    break
                }
                if templating && fileTemplating {
                    let data = try DefinitionFile.read(url, name: "\(node.place) at \(node.path)", limit: folder.limits.templatedBodies, knob: "templatedBodies")
                    content = .data(data)
                    // A file that is not UTF-8 text (an image, a PDF) holds no template: served unchanged, as
                    // WireMock serves it.
                    if let text = String(data: data, encoding: .utf8) { bodyTemplate = try template(text, at: "bodyFileName") }
                } else if streamParts != nil {
                    // Cut into the stream's parts when loaded.
                    content = .data(try DefinitionFile.read(url, name: "\(node.place) at \(node.path)", limit: folder.limits.templatedBodies, knob: "templatedBodies"))
                } else {
                    content = .file(url)
                    if case .regular(let bytes) = LocalFile.kind(at: url.path) { size = bytes }
                }
            }
        }
        if case .data(let data) = content { size = data.count }
        var headerTemplates: [(String, BodyTemplate)] = []
        // A header sent a line per value: each value its own template (`nil`: sent as written).
        var lineTemplates: [(name: String, lines: [String], templates: [BodyTemplate?])] = []
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let lines = headerLines[name] {
                var templates: [BodyTemplate?] = []
                for (index, line) in lines.enumerated() {
                    templates.append(try template(line, at: lines.count > 1 ? "headers.\(name)[\(index)]" : "headers.\(name)"))
                }
                if templates.contains(where: { $0 != nil }) { lineTemplates.append((name, lines, templates)) }
            } else if let template = try template(value, at: "headers.\(name)") {
                headerTemplates.append((name, template))
            }
        }
        var response = MockResponse(status: MockResponse.Status(code: status), headers: headers, content: content, contentType: nil,
                                    lifetime: .eternal, delivery: Self.delivery(fixed: fixedDelay, dribble: dribble, bodyBytes: size))
        response.reasonPhrase = statusMessage
        response.headerLines = headerLines
        if case .data(let data) = content, bodyTemplate == nil, fileName == nil, fault == nil,
           let parts = try streamParts(of: data) {
            // A stream: its parts, each after its delay, once the headers went out (after `fixedDelayMilliseconds`).
            response = MockResponse(status: response.status, headers: headers, content: .stream(StreamSource(.script(parts, fault: nil))),
                                    contentType: nil, lifetime: .eternal, delivery: fixedDelay > 0 ? .delayed(fixedDelay / 1000) : .instant)
            response.reasonPhrase = statusMessage
            response.headerLines = headerLines
        }
        switch fault {
        // As WireMock 2.35.1 puts them on the socket (HTTPMockServer reads the WireFault): the mapping's status and
        // headers never go out.
        case "MALFORMED_RESPONSE_CHUNK"?:
            response = .failure(WireFault.malformedChunk.error(.networkConnectionLost), lifetime: .eternal, delivery: response.delivery)
        case "EMPTY_RESPONSE"?:
            response = .failure(WireFault.emptyResponse.error(.networkConnectionLost), lifetime: .eternal, delivery: response.delivery)
        case "CONNECTION_RESET_BY_PEER"?: response = .fault(.connectionLost, lifetime: .eternal, delivery: response.delivery)
        case "RANDOM_DATA_THEN_CLOSE"?:
            response = .failure(WireFault.randomData.error(.cannotParseResponse), lifetime: .eternal, delivery: response.delivery)
        default: break
        }
        guard bodyTemplate != nil || fileName != nil || !headerTemplates.isEmpty || !lineTemplates.isEmpty || distribution != nil
        else { return response }
        let base = response
        let (fixed, dribble, distribution) = (fixedDelay, self.dribble, self.distribution)
        let (bodyBytes, body, headerTexts, lineTexts) = (size, bodyTemplate, headerTemplates, lineTemplates)
        let bodyFile = fileName
        let rendersFile = templating && fileTemplating
        let names = pathNames
        let transformerParameters = parameters
        response.render = { request in
            var served = base
            served.render = nil
            var bytes = bodyBytes
            if let body {
                let data = body.render(request)
                bytes = data.count
                served.content = .data(data)
            }
            if let bodyFile {
                let name = bodyFile.template.text(request)
                do throws(HTTPMockError) {
                    // A new guard each time: which files are there may have changed since the last request.
                    let url = try FolderPath(root: bodyFile.folder, limits: bodyFile.limits).file(name, place: "\(bodyFile.place) (\"\(name)\")")
                    var data = try DefinitionFile.read(url, name: bodyFile.place, limit: bodyFile.limits.templatedBodies, knob: "templatedBodies")
                    if rendersFile, let text = String(data: data, encoding: .utf8), text.contains("{{"),
                       let template = try? BodyTemplate(wireMock: text, pathNames: names, place: bodyFile.place, parameters: transformerParameters) {
                        data = template.render(request)
                    }
                    bytes = data.count
                    served.content = .data(data)
                } catch {
                    // Not this request's fault, nor an answer to give: the server's error, naming the file.
                    served = .plaintext("HTTPMock: \(error.message)\n", status: .other(500), lifetime: .eternal)
                    return served
                }
            }
            for (name, template) in headerTexts { served.headers[name] = template.text(request) }
            for (name, lines, templates) in lineTexts {
                let rendered = zip(lines, templates).map { line, template in template?.text(request) ?? line }
                served.headers[name] = rendered.joined(separator: ", ")
                served.headerLines[name] = rendered
            }
            let extra = distribution.map(Self.sample) ?? 0
            served.delivery = Self.delivery(fixed: fixed + extra, dribble: dribble, bodyBytes: bytes)
            return served
        }
        // A body file is read from disk at each request: never on a server's event loop.
        response.rendersInPlace = bodyFile == nil
        return response
    }

    /// The longest rendered `proxyBaseUrl` an error answer quotes.
    static let quotedTargetLimit = 200

    /// The values of `additionalProxyRequestHeaders` that are templates, when the response is templated (WireMock
    /// renders them then, as it renders `proxyBaseUrl`, and sends them as written otherwise): which of ``proxy``'s
    /// added headers each fills, and where it was given.
    private func proxyHeaderTemplates(_ proxy: Forwarding, templating: Bool,
                                      pathNames: [String: Int]) throws(HTTPMockError) -> [(index: Int, template: BodyTemplate, place: String)] {
        guard templating else { return [] }
        var templates: [(index: Int, template: BodyTemplate, place: String)] = []
        for (index, header) in proxy.addedHeaders.enumerated() where header.value.contains("{{") {
            let given = proxyHeaderNodes[index]
            let place = "\(given.place) at \(given.path)"
            let template = try BodyTemplate(wireMock: header.value, pathNames: pathNames, place: place, parameters: parameters)
            if template.isTemplated { templates.append((index, template, place)) }
        }
        return templates
    }

    /// A proxied response rendered for each request with the response templates' model: its `proxyBaseUrl` when that
    /// is a template (the base is then a URL such as `http://127.0.0.1:8081`, or the answer is `500` saying what it
    /// rendered to and why that is no base URL), and the `additionalProxyRequestHeaders` values in `headers` (a value
    /// that renders with a line break or another control character, or whose template fails, is `500` saying so, and
    /// nothing is sent). Without templating (`transformers`, `globalTemplating`), a `proxyBaseUrl` stays as it is, as
    /// WireMock leaves it, and the answer says to turn templating on. A rendered host is checked when the engine
    /// answers (``Forwarding/renderedFrom``): the allowed hosts may change after loading; a fixed one here.
    private func templatedProxy(_ proxy: Forwarding, templating: Bool, pathNames: [String: Int],
                                headers: [(index: Int, template: BodyTemplate, place: String)],
                                proxyHosts: Set<String>?) throws(HTTPMockError) -> MockResponse {
        var given: (template: BodyTemplate, place: String)?
        if let (text, baseNode) = proxyBaseTemplate {
            let place = "\(baseNode.place) at \(baseNode.path)"
            given = (templating
                ? try BodyTemplate(wireMock: text, pathNames: pathNames, place: place, parameters: parameters)
                : BodyTemplate(parts: [.literal(text)], escapesForJSON: false), place)
        } else if let proxyHosts, !Loopback.allows(proxy.base.host ?? "", among: proxyHosts) {
            let host = proxy.base.host ?? ""
            throw node.error("\"proxyBaseUrl\" sends requests to \(host), beyond this machine: \(Loopback.howToAllow(host))")
        }
        let baseTemplate = given
        @Sendable func quoted(_ text: String) -> String {
            String(reflecting: text.count > Self.quotedTargetLimit ? String(text.prefix(Self.quotedTargetLimit)) + "…" : text)
        }
        // Served only if a face skipped rendering, which none does: never a request to an unchecked target.
        var response = MockResponse.plaintext("HTTPMock: \(node.place) at \(node.path): the proxied request was not rendered for this request\n",
                                              status: .internalServerError, lifetime: .eternal)
        response.render = { request in
            var forwarding = proxy
            if let (template, place) = baseTemplate {
                let rendered = template.text(request)
                guard let base = Forwarding.base(rendered) else {
                    let hint = templating
                        ? "the template must give a base URL such as \"http://127.0.0.1:8081\" (http or https, a host, a port from 1 to 65535, no query, fragment or user)"
                        : "its {{…}} are filled only when the response is templated: add \"transformers\": [\"response-template\"] to the response"
                    return .plaintext("HTTPMock: \(place): \"proxyBaseUrl\" rendered to \(quoted(rendered)) for this request, which is not a base URL to proxy to; \(hint)\n",
                                      status: .internalServerError, lifetime: .eternal)
                }
                forwarding = forwarding.rebased(on: base, renderedFrom: place)
            }
            if !headers.isEmpty {
                var values = proxy.addedHeaders.map(\.value)
                for header in headers {
                    switch header.template.result(request) {
                    case .failure(let problem):
                        return .plaintext("HTTPMock: \(header.place): the additionalProxyRequestHeaders template could not be rendered for this request (\(problem)); nothing was sent\n",
                                          status: .internalServerError, lifetime: .eternal)
                    case .success(let value):
                        guard Forwarding.isHeaderValue(value) else {
                            return .plaintext("HTTPMock: \(header.place): rendered to \(quoted(value)) for this request, which holds a line break or another control character that no header value may; nothing was sent\n",
                                              status: .internalServerError, lifetime: .eternal)
                        }
                        values[header.index] = value
                    }
                }
                forwarding = forwarding.adding(values: values)
            }
            return MockResponse(status: .ok, headers: [:], content: .forward(forwarding), contentType: nil,
                                lifetime: .eternal, delivery: .instant)
        }
        return response
    }

    /// The parts `body` goes out in: the recorded stream's (``WireMockStreamParts``), or WireMock's
    /// `chunkedDribbleDelay`: `numberOfChunks` chunks of the same size (the last takes the rest), the first at once and
    /// each next one `totalDuration / numberOfChunks` milliseconds after, as WireMock sends them. `nil`: one body.
    private func streamParts(of body: Data) throws(HTTPMockError) -> [StreamPart]? {
        if let streamParts { return try streamParts.parts.stream(of: body, at: streamParts.node) }
        guard let dribble, dribble > 0, dribbleChunks > 1, body.count > 1 else { return nil }
        let count = min(dribbleChunks, body.count)
        let size = body.count / count
        let interval = dribble / 1000 / Double(dribbleChunks)
        return (0..<count).map { index in
            let start = body.startIndex + index * size
            let end = index == count - 1 ? body.endIndex : start + size
            return StreamPart(body[start..<end], after: index == 0 ? 0 : interval)
        }
    }

    /// Headers after `fixed` milliseconds; the body spread over `dribble` milliseconds (as
    /// ``MockResponse/Delivery/throttled(bytesPerSecond:headersAfter:)``), or that much later when it is empty.
    static func delivery(fixed: Double, dribble: Double?, bodyBytes: Int) -> MockResponse.Delivery {
        let headers = fixed / 1000
        if let dribble, dribble > 0, bodyBytes > 0 {
            return .throttled(bytesPerSecond: max(1, Int((Double(bodyBytes) / (dribble / 1000)).rounded(.up))), headersAfter: headers)
        }
        let total = headers + (dribble ?? 0) / 1000
        return total > 0 ? .delayed(total) : .instant
    }

    /// A delay drawn from `distribution`, in milliseconds.
    static func sample(_ distribution: Distribution) -> Double {
        switch distribution {
        case .uniform(let lower, let upper):
            return lower == upper ? lower : Double.random(in: lower...upper)
        case .lognormal(let median, let sigma, let maximum):
            // A standard normal value (Box-Muller), then median · e^(σ·z).
            let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1), u2 = Double.random(in: 0..<1)
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            let value = median * exp(sigma * normal)
            return min(value, maximum ?? 86_400_000)
        }
    }
}
