/// Why no stub answered a request: the closest stubs, each with how it differs, field by field.
///
/// It is the body of the `404` that ``UnmockedPolicy/notFound`` sends, the reason kept in the journal
/// (``JournalEntry/report``), and what `HTTPMockTesting` reports as a test issue:
///
/// ```text
/// HTTPMock: no stub answered POST https://api.example.com/users?page=2
/// Closest stubs:
/// 1. #0 api.example.com/users [method GET] (5 of 6 fields agree)
///    - method: expected GET, got POST
/// ```
public struct UnmatchedReport: Sendable, Equatable, CustomStringConvertible {
    /// The request's method.
    public let method: String
    /// The request's URL.
    public let url: String
    /// The closest stubs, closest first (at most ``limit``).
    public let closest: [NearMiss]
    /// Other facts that explain the miss: no stub at all, refused registrations.
    public internal(set) var notes: [String]

    /// How many stubs a report lists at most.
    public static let limit = 3

    /// A report; made by the mock, public for tests of code that formats reports.
    public init(method: String, url: String, closest: [NearMiss], notes: [String]) {
        self.method = method
        self.url = url
        self.closest = closest
        self.notes = notes
    }

    public var description: String {
        // One string of about its final size, appended in place: every miss answered by a policy builds it.
        var text = ""
        text.reserveCapacity(256 + closest.count * 160)
        text += "HTTPMock: no stub answered "
        text += method
        text += " "
        text += url
        if !closest.isEmpty {
            text += closest.count == 1 ? "\nClosest stub:" : "\nClosest stubs:"
            for (index, miss) in closest.enumerated() {
                text += "\n"
                text += String(index + 1)
                text += ". "
                text += miss.stub.description
                text += " "
                text += miss.summary
                text += " ("
                text += String(miss.agreeing)
                text += " of "
                text += String(NearMiss.fieldCount)
                text += " fields agree"
                switch miss.otherDifferences {
                case 0: break
                case 1: text += ", and 1 other difference"
                case let other: text += ", and \(other) other differences"
                }
                text += ")"
                for difference in miss.differences {
                    text += "\n   - "
                    text += difference.field.rawValue
                    text += ": expected "
                    text += difference.expected
                    text += ", got "
                    text += difference.actual
                }
            }
        }
        for note in notes {
            text += "\n- "
            text += note
        }
        return text
    }
}

/// A stub that did not answer a request, and how it differs from it.
public struct NearMiss: Sendable, Equatable {
    /// The fields a report compares: method, host, path, query, headers, body.
    public static let fieldCount = 6

    /// The stub compared.
    public let stub: StubID
    /// The stub as registered (`api.example.com/users/* [method GET]`).
    public let summary: String
    /// How many of the six fields agree (a field the stub does not constrain agrees).
    public let agreeing: Int
    /// What differs; empty only for a stub that matched but had used up all its responses.
    public let differences: [FieldDifference]
    /// How close the stub came, from 0 to ``fieldCount``: each agreeing field counts, the path most and then the
    /// host (a stub on the request's path with another method is closer than one on another path), and a host or
    /// path that differs counts how alike it is (`/userz` is close to `/users`, far from `/orders`), never as much as
    /// agreeing. Reports rank by it.
    public let closeness: Double

    /// A near miss; made by the mock. `closeness` defaults to `agreeing`.
    public init(stub: StubID, summary: String, agreeing: Int, differences: [FieldDifference], closeness: Double? = nil) {
        self.stub = stub
        self.summary = summary
        self.agreeing = agreeing
        self.differences = differences
        self.closeness = closeness ?? Double(agreeing)
    }

    /// The differences outside the six fields: a custom condition, a scenario state, responses used up.
    var otherDifferences: Int {
        differences.count { [.condition, .scenario, .responses].contains($0.field) }
    }
}

/// One way a stub and a request differ.
public struct FieldDifference: Sendable, Equatable, CustomStringConvertible {
    /// What part of the request differs.
    public enum Field: String, Sendable, Equatable {
        case method, host, path, query, headers, body
        /// The whole URL: a regular expression, a URI template or an equality that the request did not meet.
        case url
        /// A custom condition (a closure) that the request did not meet.
        case condition
        /// The stub requires a scenario state (``Match/scenario(_:state:)``) the scenario was not in.
        case scenario
        /// Everything matched, but the stub had no response left to serve.
        case responses
    }

    /// The field that differs.
    public let field: Field
    /// What the stub wants.
    public let expected: String
    /// What the request has.
    public let actual: String

    /// A difference; made by the mock.
    public init(field: Field, expected: String, actual: String) {
        self.field = field
        self.expected = expected
        self.actual = actual
    }

    public var description: String { "\(field.rawValue): expected \(expected), got \(actual)" }
}
