#if Server
import Foundation
import HTTPMock

/// Journal entries in the JSON shapes of WireMock's admin API: a "serve event" (`id`, `request`,
/// `responseDefinition`, `response`, `wasMatched`), a "logged request" and a "near miss". What WireMock's shape has
/// no field for (the resolution, the near-miss report) goes in an extra `httpmock` object.
enum ServeEventJSON {
    /// A serve event's `id`: a UUID made from the journal entry's number, so that the entry can be found again.
    static func id(of entry: JournalEntry) -> String {
        "00000000-0000-4000-8000-" + String(String(entry.id, radix: 16).suffix(12)).leftPadded(to: 12)
    }

    /// The journal entry number in an `id` made by ``id(of:)``.
    static func journalID(from id: String) -> Int? {
        let prefix = "00000000-0000-4000-8000-"
        let id = id.lowercased()
        guard id.hasPrefix(prefix), id.count == prefix.count + 12 else { return nil }
        return Int(id.dropFirst(prefix.count), radix: 16)
    }

    static func serveEvent(_ entry: JournalEntry) -> [String: Any] {
        var definition: [String: Any] = ["fromConfiguredStub": entry.resolution.isMatched]
        if let status = entry.statusCode { definition["status"] = status }
        var event: [String: Any] = [
            "id": id(of: entry),
            "request": loggedRequest(entry),
            "responseDefinition": definition,
            "wasMatched": entry.resolution.isMatched,
        ]
        if case .response(let status, let headers, let body)? = entry.outcome {
            var response: [String: Any] = ["status": status, "headers": headers]
            response["body"] = String(data: body, encoding: .utf8) ?? ""
            response["bodyAsBase64"] = body.base64EncodedString()
            event["response"] = response
        }
        event["httpmock"] = extra(entry)
        return event
    }

    /// What HTTPMock knows of a request beyond WireMock's fields.
    private static func extra(_ entry: JournalEntry) -> [String: Any] {
        var extra: [String: Any] = ["journalID": entry.id, "resolution": entry.resolution.description,
                                    "matchedAs": entry.request.url.absoluteString]
        if case .stub(let stub, let summary) = entry.resolution {
            extra["stub"] = "\(stub)"
            extra["stubSummary"] = summary
        }
        if let report = entry.report { extra["report"] = report.description }
        if let error = entry.error { extra["error"] = "\(error)" }
        if let truncation = entry.bodyTruncation { extra["bodyTruncation"] = truncation.description }
        return extra
    }

    static func loggedRequest(_ entry: JournalEntry) -> [String: Any] {
        let request = entry.request
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        var url = components?.percentEncodedPath ?? "/"
        if url.isEmpty { url = "/" }
        if let query = components?.percentEncodedQuery { url += "?" + query }
        var queryParams: [String: Any] = [:]
        for item in request.queryItems where queryParams[item.name] == nil {
            queryParams[item.name] = ["key": item.name, "values": request.queryValues(for: item.name).map { $0 ?? "" }]
        }
        let body = request.body ?? Data()
        let milliseconds = Int((entry.receivedAt.timeIntervalSince1970 * 1000).rounded())
        // As the client sent it, as WireMock logs it: a request for the server's own address (`Host: 127.0.0.1:…`),
        // matched as the origin or the mock's default domain, keeps that address here (and the URL it was matched
        // as is `httpmock.matchedAs`).
        var scheme = request.scheme, host = request.host, port = request.port
        if let sent = request.headers["Host"], !sent.isEmpty,
           let parsed = URLComponents(string: "http://" + sent), let sentHost = parsed.host,
           sentHost.caseInsensitiveCompare(request.host) != .orderedSame {
            (scheme, host, port) = ("http", sentHost, parsed.port)
        }
        let authority = port.map { "\(host.contains(":") ? "[\(host)]" : host):\($0)" } ?? (host.contains(":") ? "[\(host)]" : host)
        var logged: [String: Any] = [
            "url": url,
            "absoluteUrl": scheme + "://" + authority + url,
            "method": request.method,
            "scheme": scheme,
            "host": host,
            "headers": headers(request.headers),
            "queryParams": queryParams,
            "cookies": [String: Any](),
            "browserProxyRequest": false,
            "loggedDate": milliseconds,
            "loggedDateString": ISO8601DateFormatter().string(from: entry.receivedAt),
            "body": request.bodyText ?? "",
            "bodyAsBase64": body.base64EncodedString(),
            "protocol": "HTTP/1.1",
        ]
        if let port { logged["port"] = port }
        return logged
    }

    /// Headers as WireMock writes them: one value as a string, several as an array, under the name first seen.
    static func headers(_ fields: HeaderFields) -> [String: Any] {
        var order: [String] = []
        var values: [String: (name: String, values: [String])] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if values[key] == nil {
                order.append(key)
                values[key] = (field.name, [])
            }
            values[key]!.values.append(field.value)
        }
        var result: [String: Any] = [:]
        for key in order {
            let (name, all) = values[key]!
            result[name] = all.count == 1 ? all[0] : all
        }
        return result
    }

    /// WireMock's near misses of one unmatched request: the closest stubs, each with a distance from 0 (every
    /// field agrees) to 1, and HTTPMock's differences and report. `stubMapping` is the whole mapping (`id`,
    /// `request`, `response`…) for a stub created over the admin API, as `mapping` gives it; for a stub registered in
    /// code or loaded from files, which has no WireMock form, it is `{"name": <the stub's summary>}`.
    static func nearMisses(_ entry: JournalEntry, mapping: (StubID) -> Any?) -> [[String: Any]] {
        guard let report = entry.report else { return [] }
        let request = loggedRequest(entry)
        return report.closest.map { miss in
            [
                "request": request,
                "stubMapping": mapping(miss.stub) ?? ["name": miss.summary],
                "matchResult": ["distance": (Double(NearMiss.fieldCount) - miss.closeness) / Double(NearMiss.fieldCount)],
                "httpmock": [
                    "stub": "\(miss.stub)",
                    "differences": miss.differences.map(\.description),
                    "report": report.description,
                ] as [String: Any],
            ]
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
#endif
