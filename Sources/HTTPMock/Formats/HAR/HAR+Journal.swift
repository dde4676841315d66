import Foundation

extension HAR {
    /// A HAR of the requests in `journal` that were answered (requests still in flight are left out), with secrets
    /// redacted as `redaction` says.
    ///
    /// ```swift
    /// let har = HAR(journal: mock.journal)
    /// ```
    public init(journal: [JournalEntry], redaction: Redaction = .default) {
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        self.init(log: Log(entries: journal.compactMap { Self.entry($0, redaction: redaction, dates: dates) }))
    }

    private static func entry(_ journal: JournalEntry, redaction: Redaction, dates: ISO8601DateFormatter) -> Entry? {
        guard let outcome = journal.outcome else { return nil }
        let milliseconds = max(0, (journal.completedAt ?? journal.receivedAt).timeIntervalSince(journal.receivedAt) * 1000)
        return Entry(
            startedDateTime: dates.string(from: journal.receivedAt),
            time: milliseconds,
            request: request(journal.request, redaction: redaction),
            response: response(outcome, stream: journal.stream, redaction: redaction),
            timings: Timings(wait: milliseconds)
        )
    }

    static func request(_ request: CapturedRequest, redaction: Redaction) -> Request {
        let url = redaction.url(request.url)
        let headers = request.headers.fields.map { Pair(name: $0.name, value: redaction.header($0.name, $0.value)) }
        let query = QueryItem.parse(rawQuery: URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQuery)
        let cookies = request.headers.values(for: "Cookie").flatMap { cookiePairs($0, redacted: redaction.redactsHeader("Cookie") ? redaction.placeholder : nil) }
        var postData: PostData?
        if let body = request.body, !body.isEmpty {
            let type = request.headers["Content-Type"]
            postData = PostData(mimeType: type ?? "application/octet-stream", body: redaction.body(body, contentType: type))
        }
        return Request(
            method: request.method, url: url.absoluteString, headers: headers,
            queryString: query.map { Pair(name: $0.name, value: $0.value ?? "") },
            cookies: cookies, bodySize: request.body?.count ?? 0, postData: postData
        )
    }

    static func response(_ outcome: JournalEntry.Outcome, stream: StreamRecord? = nil, redaction: Redaction) -> Response {
        if let stream { return streamedResponse(stream, outcome: outcome, redaction: redaction) }
        switch outcome {
        case .failure(let error):
            return Response(status: 0, statusText: "", content: Content(size: 0, mimeType: ""), bodySize: 0,
                            error: URLErrorName.describe(error))
        case .response(let status, let headerValues, let body):
            let sorted = headerValues.sorted { $0.key.lowercased() < $1.key.lowercased() }
            func value(_ name: String) -> String? { sorted.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value }
            let type = value("Content-Type")
            let setCookie = redaction.redactsHeader("Set-Cookie") ? redaction.placeholder : nil
            return Response(
                status: status, statusText: ReasonPhrase.text(for: status),
                headers: sorted.map { Pair(name: $0.key, value: redaction.header($0.key, $0.value)) },
                cookies: value("Set-Cookie").map { setCookiePairs($0, redacted: setCookie) } ?? [],
                content: Content(mimeType: type ?? "", body: redaction.body(body, contentType: type)),
                redirectURL: value("Location") ?? "",
                bodySize: body.count
            )
        }
    }

    /// A streamed response: its head, each part with its offset (`_parts`), the whole body in `content`, and the
    /// error when the stream failed part of the way. Each part is redacted as a body of its type is (the `data:`
    /// lines of server-sent events as JSON).
    private static func streamedResponse(_ stream: StreamRecord, outcome: JournalEntry.Outcome, redaction: Redaction) -> Response {
        var body = Data()
        var parts: [Part] = []
        for part in stream.parts {
            let redacted = redaction.streamedPart(part.data, contentType: stream.headers.first { $0.key.lowercased() == "content-type" }?.value)
            body.append(redacted)
            parts.append(Part(offset: (part.offset * 1_000_000).rounded() / 1_000_000, data: redacted))
        }
        var headerValues = stream.headers
        var error: String?
        if case .failure(let failure) = outcome { error = URLErrorName.describe(failure) }
        headerValues = headerValues.filter { $0.key.lowercased() != "content-length" }
        var response = Self.response(.response(status: stream.status, headers: headerValues, body: Data()), redaction: redaction)
        let type = stream.headers.first { $0.key.lowercased() == "content-type" }?.value
        response.content = Content(mimeType: type ?? "", body: body)
        response.bodySize = body.count
        response.error = error
        response.parts = parts
        response.partsTruncated = stream.isWhole ? nil : true
        return response
    }

    /// `a=1; b=2` as pairs.
    private static func cookiePairs(_ header: String, redacted: String?) -> [Pair] {
        header.split(separator: ";").compactMap { part in
            let piece = part.trimmingCharacters(in: .whitespaces)
            guard let eq = piece.firstIndex(of: "=") else { return nil }
            return Pair(name: String(piece[..<eq]), value: redacted ?? String(piece[piece.index(after: eq)...]))
        }
    }

    /// The name and value of each cookie in a `Set-Cookie` value (several may be joined with `, `).
    private static func setCookiePairs(_ header: String, redacted: String?) -> [Pair] {
        header.components(separatedBy: ", ").compactMap { cookie in
            guard let first = cookie.split(separator: ";").first, let eq = first.firstIndex(of: "="),
                  !first[..<eq].contains(" ") else { return nil }
            return Pair(name: String(first[..<eq]), value: redacted ?? String(first[first.index(after: eq)...]))
        }
    }
}

/// The reason phrase HAR writes beside a status code.
enum ReasonPhrase {
    static func text(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 415: "Unsupported Media Type"
        case 418: "I'm a teapot"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
