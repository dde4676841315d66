import Foundation
import HTTPMockOpenAPI
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

/// One table of cases, each run twice on a new mock: through `URLSessionTransport` over the mock's `urlSession`
/// (the route users took before HTTPMockOpenAPI), and through ``HTTPMockTransport``. Both must give the same
/// answers (status, headers, body, or the same error) and leave the same journal (method, URL, resolution,
/// outcome).
@Suite struct SameAnswersTests {
    /// One request of a case: method, path (with query), headers, body.
    struct Call: Sendable {
        var method: HTTPRequest.Method = .get
        var path: String
        var headers: [(String, String)] = []
        var body: String?
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var stubs: @Sendable (HTTPMock) throws -> Void
        var calls: [Call]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "200 text", stubs: { try $0.stub(.path("/hello"), responses: [.plaintext("hi")]) },
             calls: [Call(path: "/hello")]),
        Case(name: "JSON body echoed", stubs: { try $0.stub(.method(.post), .path("/echo"), responses: [.echo(status: .created)]) },
             calls: [Call(method: .post, path: "/echo", headers: [("Content-Type", "application/json")], body: #"{"a":1}"#)]),
        Case(name: "query and path template",
             stubs: {
                 try $0.stub(.uriTemplate("/users/{id}"), .query(["expand": "true"]), responses: [
                     .dynamic { _, captures in .plaintext("user \(captures["id"] ?? "?")") },
                 ])
             },
             calls: [Call(path: "/users/12?expand=true")]),
        Case(name: "repeated request header joined",
             stubs: { try $0.stub(.path("/tags"), .header("X-Tag", "a, b"), responses: [.plaintext("both")]) },
             calls: [Call(path: "/tags", headers: [("X-Tag", "a"), ("X-Tag", "b")])]),
        Case(name: "response headers", stubs: {
                 try $0.stub(.path("/h"), responses: [.plaintext("h", headers: ["X-Request-Id": "r1", "Cache-Control": "no-store", "X-List": "a, b"])])
             },
             calls: [Call(path: "/h")]),
        Case(name: "unmatched: 404 with the report", stubs: { try $0.stub(.path("/other"), responses: [.plaintext("x")]) },
             calls: [Call(path: "/missing")]),
        Case(name: "policy .mock", stubs: { $0.unmockedPolicy = .mock(.plaintext("maintenance", status: .other(503))) },
             calls: [Call(path: "/anything")]),
        Case(name: "policy .fail", stubs: { $0.unmockedPolicy = .fail(URLError(.notConnectedToInternet)) },
             calls: [Call(path: "/anything")]),
        Case(name: "policy .optOut", stubs: { $0.unmockedPolicy = .optOut }, calls: [Call(path: "/anything")]),
        Case(name: "queue: second request gets the second response",
             stubs: { try $0.stub(.path("/q"), responses: [.plaintext("first"), .empty(status: .notFound)]) },
             calls: [Call(path: "/q"), Call(path: "/q"), Call(path: "/q")]),
        Case(name: "redirect followed",
             stubs: {
                 try $0.stub(.path("/old"), responses: [.redirect(to: "/new")])
                 try $0.stub(.path("/new"), responses: [.plaintext("moved here")])
             },
             calls: [Call(path: "/old")]),
        Case(name: "303 after POST continues as GET",
             stubs: {
                 try $0.stub(.method(.post), .path("/form"), responses: [.redirect(to: "https://api.example.com/done", status: .other(303))])
                 try $0.stub(.method(.get), .path("/done"), responses: [.plaintext("done")])
             },
             calls: [Call(method: .post, path: "/form", body: "x=1")]),
        Case(name: "redirect not followed",
             stubs: { try $0.stub(.path("/old"), responses: [.redirect(to: "/new", follow: false)]) },
             calls: [Call(path: "/old")]),
        Case(name: "redirect loop", stubs: {
                 $0.maximumRedirects = 3
                 try $0.stub(.path("/loop"), responses: [.redirect(to: "/loop", lifetime: .eternal)])
             },
             calls: [Call(path: "/loop")]),
        Case(name: "cookies set, then sent",
             stubs: {
                 try $0.stub(.path("/login"), responses: [.empty(headers: ["Set-Cookie": "session=abc; Path=/"])])
                 try $0.stub(.path("/me"), .header("Cookie", "session=abc"), responses: [.plaintext("signed in")])
             },
             calls: [Call(path: "/login"), Call(path: "/me")]),
        Case(name: "fault: offline", stubs: { try $0.stub(.path("/f"), responses: [.fault(.offline)]) }, calls: [Call(path: "/f")]),
        Case(name: "fault: timeout", stubs: { try $0.stub(.path("/f"), responses: [.fault(.timeout)]) }, calls: [Call(path: "/f")]),
        Case(name: "fault: truncated body",
             stubs: { try $0.stub(.path("/f"), responses: [.fault(.truncatedBody(.plaintext(String(repeating: "x", count: 100)), after: 10))]) },
             calls: [Call(path: "/f")]),
        Case(name: "failure response", stubs: { try $0.stub(.path("/f"), responses: [.failure(URLError(.badServerResponse))]) },
             calls: [Call(path: "/f")]),
        Case(name: "short delay", stubs: { try $0.stub(.path("/slow"), responses: [.plaintext("late", delivery: .delayed(0.05))]) },
             calls: [Call(path: "/slow")]),
        Case(name: "HEAD has no body", stubs: { try $0.stub(.method(.head), .path("/h"), responses: [.plaintext("not sent")]) },
             calls: [Call(method: .head, path: "/h")]),
        Case(name: "PUT with a body", stubs: {
                 try $0.stub(.method(.put), .path("/items/1"), .body("new"), responses: [.empty(status: .noContent)])
             },
             calls: [Call(method: .put, path: "/items/1", body: "new")]),
    ]

    /// What a caller got, in a form both transports can be compared in.
    enum Answer: Equatable, CustomStringConvertible {
        case response(status: Int, headers: [String], body: String)
        case failure(String)

        var description: String {
            switch self {
            case .response(let status, let headers, let body): "\(status) \(headers) \(body.debugDescription)"
            case .failure(let error): "failure \(error)"
            }
        }
    }

    /// What the journal kept of a request.
    struct Kept: Equatable {
        var method: String
        var url: String
        var resolution: String
        var outcome: String
    }

    static func run(_ testCase: Case, through make: (HTTPMock) -> any ClientTransport) async throws -> ([Answer], [Kept]) {
        let mock = HTTPMock()
        try testCase.stubs(mock)
        let transport = make(mock)
        var answers: [Answer] = []
        for call in testCase.calls {
            var fields = HTTPFields()
            for (name, value) in call.headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
            let request = HTTPRequest(method: call.method, scheme: nil, authority: nil, path: call.path, headerFields: fields)
            do {
                let (response, body) = try await transport.send(request, body: call.body.map { HTTPBody($0) },
                                                                baseURL: URL(string: "https://api.example.com")!, operationID: "op")
                let text: String = if let body { try await String(collecting: body, upTo: .max) } else { "" }
                let headers = response.headerFields.map { "\($0.name.canonicalName): \($0.value)" }.sorted()
                answers.append(.response(status: response.status.code, headers: headers, body: text))
            } catch {
                answers.append(.failure(describe(error)))
            }
        }
        let kept = mock.journal.map { entry in
            Kept(method: entry.request.method, url: entry.request.url.absoluteString,
                 resolution: describe(entry.resolution), outcome: describe(entry.outcome))
        }
        return (answers, kept)
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as URLError: "URLError \(error.code.rawValue)"
        case let error as HTTPMockError: "HTTPMockError \(error.code)"
        default: "\(type(of: error))"
        }
    }

    static func describe(_ resolution: JournalEntry.Resolution) -> String {
        switch resolution {
        case .stub(_, let summary): "stub \(summary)"
        case .unmatched(let reason): "unmatched \(reason)"
        case .passedThrough: "passed through"
        }
    }

    static func describe(_ outcome: JournalEntry.Outcome?) -> String {
        switch outcome {
        case nil: "in flight"
        case .response(let status, let headers, let body)?:
            "\(status) \(headers.map { "\($0.key.lowercased()): \($0.value)" }.sorted()) \(String(decoding: body, as: UTF8.self))"
        case .failure(let error)?: describe(error)
        }
    }

    @Test(arguments: cases) func bothTransportsAnswerAlike(_ testCase: Case) async throws {
        let (sessionAnswers, sessionJournal) = try await Self.run(testCase) {
            URLSessionTransport(configuration: .init(session: $0.urlSession))
        }
        let (directAnswers, directJournal) = try await Self.run(testCase) { $0.openAPITransport() }
        #expect(directAnswers == sessionAnswers)
        #expect(directJournal == sessionJournal)
        #expect(directJournal.count >= testCase.calls.count)
    }
}
