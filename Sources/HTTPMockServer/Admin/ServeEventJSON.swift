#if Server
import Foundation
import HTTPMock

/// Journal entries in the JSON shapes of WireMock's admin API: a "serve event" (`id`, `request`, `response`,
/// `responseDefinition`, `stubMapping`, `timing`, `wasMatched`), a "logged request" and a "near miss". What WireMock's shape has
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

    /// The `id` of the `stubMapping` WireMock gives a request no mapping answered (its own stand-in, which asks for
    /// any method and answers 404): the same for every such request.
    static let unmatchedMappingID = "c0ffee00-0404-4000-8000-000000000404"

    /// A serve event, written into `json` (keys sorted, as the admin API's other replies). `mappings` knows the
    /// mapping that answered, if one did: `stubMapping` is that mapping as `GET /__admin/mappings` lists it, and
    /// `responseDefinition` its `response` as written. A request no stub answered gets WireMock's stand-in mapping
    /// and `{"fromConfiguredStub": false, "status"}`; one a stub registered in code answered (or a mapping removed
    /// or edited since), `{"name": <the stub's summary>}` and its status.
    static func writeServeEvent(_ entry: JournalEntry, mappings: AnsweringMappings, into json: inout JSONBytes) {
        let mapping = mappings.parts(answering: entry)
        json.object { json in
            json.key("httpmock")
            writeExtra(entry, into: &json)
            json.member("id", id(of: entry))
            json.key("request")
            writeLoggedRequest(entry, into: &json)
            if case .response(let status, let headers, let body)? = entry.outcome {
                json.key("response")
                json.object { json in
                    json.member("body", String(data: body, encoding: .utf8) ?? "")
                    json.member("bodyAsBase64", body.base64EncodedString())
                    // As WireMock: no `headers` for a response without any.
                    if !headers.isEmpty {
                        json.key("headers")
                        json.object { json in
                            for name in headers.keys.sorted() { json.member(name, headers[name] ?? "") }
                        }
                    }
                    json.member("status", status)
                }
            }
            json.key("responseDefinition")
            if let mapping {
                json.raw(mapping.response)
            } else {
                writeUnconfiguredResponse(entry, into: &json)
            }
            json.key("stubMapping")
            if let mapping {
                json.raw(mapping.json)
            } else if case .stub(_, let summary) = entry.resolution {
                json.object { json in json.member("name", summary) }
            } else {
                json.object { json in
                    json.member("id", unmatchedMappingID)
                    json.key("request")
                    json.object { json in json.member("method", "ANY") }
                    json.key("response")
                    writeUnconfiguredResponse(entry, into: &json)
                    json.member("uuid", unmatchedMappingID)
                }
            }
            if let completedAt = entry.completedAt {
                json.key("timing")
                writeTiming(from: entry.receivedAt, to: completedAt, addedDelay: mapping?.addedDelay ?? 0, into: &json)
            }
            json.member("wasMatched", entry.resolution.isMatched)
        }
    }

    /// The `responseDefinition` of a request no mapping answered: its status, and whether a stub did.
    private static func writeUnconfiguredResponse(_ entry: JournalEntry, into json: inout JSONBytes) {
        json.object { json in
            json.member("fromConfiguredStub", entry.resolution.isMatched)
            if let status = entry.statusCode { json.member("status", status) }
        }
    }

    /// What HTTPMock knows of a request beyond WireMock's fields.
    private static func writeExtra(_ entry: JournalEntry, into json: inout JSONBytes) {
        json.object { json in
            if let truncation = entry.bodyTruncation { json.member("bodyTruncation", truncation.description) }
            if let report = entry.report {
                json.key("closest")
                writeClosest(report, into: &json)
            }
            if let error = entry.error { json.member("error", "\(error)") }
            json.member("journalID", entry.id)
            json.member("matchedAs", entry.request.url.absoluteString)
            if let report = entry.report { json.member("report", report.description) }
            json.member("resolution", entry.resolution.description)
            if case .stub(let stub, let summary) = entry.resolution {
                json.member("stub", "\(stub)")
                json.member("stubSummary", summary)
            }
        }
    }

    /// A logged request, as a JSON value (for the replies still built as dictionaries).
    static func loggedRequest(_ entry: JournalEntry) -> Any {
        var json = JSONBytes()
        writeLoggedRequest(entry, into: &json)
        return (try? JSONSerialization.jsonObject(with: json.data)) ?? [String: Any]()
    }

    /// A logged request, written into `json`.
    static func writeLoggedRequest(_ entry: JournalEntry, into json: inout JSONBytes) {
        let request = entry.request
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        var url = components?.percentEncodedPath ?? "/"
        if url.isEmpty { url = "/" }
        if let query = components?.percentEncodedQuery { url += "?" + query }
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
        json.object { json in
            json.member("absoluteUrl", scheme + "://" + authority + url)
            json.member("body", request.wireMockBodyText ?? "")
            json.member("bodyAsBase64", body.base64EncodedString())
            json.member("browserProxyRequest", false)
            json.member("clientIp", request.clientIP)
            json.key("cookies")
            json.object { json in
                // Each cookie's first value, by name, as WireMock's journal gives them.
                for (name, value) in Cookies.all(in: request).sorted(by: { $0.name < $1.name }) { json.member(name, value) }
            }
            json.key("headers")
            writeHeaders(request.headers, into: &json)
            json.member("host", host)
            json.member("loggedDate", milliseconds)
            json.member("loggedDateString", entry.receivedAt.iso8601)
            json.member("method", request.method)
            if let port { json.member("port", port) }
            json.member("protocol", "HTTP/1.1")
            json.key("queryParams")
            json.object { json in
                var seen = Set<String>()
                let names = request.queryItems.map(\.name).filter { seen.insert($0).inserted }
                for name in names.sorted() {
                    json.key(name)
                    json.object { json in
                        json.member("key", name)
                        json.key("values")
                        json.array { json in
                            for value in request.queryValues(for: name) { json.string(value ?? "") }
                        }
                    }
                }
            }
            json.member("scheme", scheme)
            json.member("url", url)
        }
    }

    /// Headers as WireMock writes them: one value as a string, several as an array, under the name first seen.
    static func writeHeaders(_ fields: HeaderFields, into json: inout JSONBytes) {
        var values: [String: (name: String, values: [String])] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if values[key] == nil { values[key] = (field.name, []) }
            values[key]!.values.append(field.value)
        }
        json.object { json in
            for (name, all) in values.values.sorted(by: { $0.name < $1.name }) {
                json.key(name)
                if all.count == 1 {
                    json.string(all[0])
                } else {
                    json.array { json in for value in all { json.string(value) } }
                }
            }
        }
    }

    /// WireMock's near misses of one unmatched request, written as items of an array: the closest stubs, each with
    /// a distance from 0 (every field agrees) to 1, and HTTPMock's differences and report. `stubMapping` is the
    /// whole mapping (`id`, `request`, `response`…) for a stub created over the admin API or loaded from the served
    /// WireMock folder, as `mapping` gives it from the stub and its summary (its JSON as kept); for a stub registered
    /// in code or loaded from other files, which has no WireMock form, it is `{"name": <the stub's summary>}`.
    static func writeNearMisses(_ entry: JournalEntry, into json: inout JSONBytes, mapping: (StubID, String) -> Data?) {
        guard let report = entry.report else { return }
        var request = JSONBytes()
        writeLoggedRequest(entry, into: &request)
        let description = report.description
        for miss in report.closest {
            json.object { json in
                json.key("httpmock")
                json.object { json in
                    json.key("differences")
                    json.array { json in for difference in miss.differences { json.string(difference.description) } }
                    json.member("report", description)
                    json.member("stub", "\(miss.stub)")
                }
                json.key("matchResult")
                json.object { json in
                    json.key("distance")
                    json.double((Double(NearMiss.fieldCount) - miss.closeness) / Double(NearMiss.fieldCount))
                }
                json.key("request")
                json.raw(request.data)
                json.key("stubMapping")
                if let kept = mapping(miss.stub, miss.summary) {
                    json.raw(kept)
                } else {
                    json.object { json in json.member("name", miss.summary) }
                }
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
#endif
