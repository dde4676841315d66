import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPMock

/// Simulated network faults reach the caller as the URLError a real session gives.
@Suite struct NetworkFaultTests {
    static let cases: [(String, URLError.Code)] = [
        ("timeout", .timedOut), ("connectionLost", .networkConnectionLost), ("dnsFailure", .cannotFindHost),
        ("connectionRefused", .cannotConnectToHost), ("offline", .notConnectedToInternet),
        ("tlsFailure", .secureConnectionFailed), ("untrustedCertificate", .serverCertificateUntrusted),
    ]

    private static func fault(named name: String) -> NetworkFault {
        switch name {
        case "timeout": .timeout
        case "connectionLost": .connectionLost
        case "dnsFailure": .dnsFailure
        case "connectionRefused": .connectionRefused
        case "offline": .offline
        case "tlsFailure": .tlsFailure
        default: .untrustedCertificate
        }
    }

    @Test(arguments: cases)
    func faultReachesTheCallerAsItsURLError(name: String, code: URLError.Code) async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/f", host: "fault.test", responses: [.fault(Self.fault(named: name))])
        await #expect {
            _ = try await mock.urlSession.fetch("https://fault.test/f")
        } throws: { error in
            (error as? URLError)?.code == code
        }
    }

    @Test func truncatedBodyDeliversHeadersThenDrops() async throws {
        let mock = HTTPMock()
        let long = String(repeating: "x", count: 1_000)
        mock.addResponses(forPath: "/t", host: "fault.test", responses: [
            .fault(.truncatedBody(.plaintext(long), after: 100)),
            .plaintext("complete"),
        ])
        await #expect {
            _ = try await mock.urlSession.fetch("https://fault.test/t")
        } throws: { error in
            (error as? URLError)?.code == .networkConnectionLost
        }
        // A retry gets the next response in the queue.
        #expect(try await mock.urlSession.fetch("https://fault.test/t").text == "complete")
        if case .failure(let error)? = mock.journal.first?.outcome {
            #expect((error as? URLError)?.code == .networkConnectionLost)
        } else {
            Issue.record("the journal should record the dropped connection")
        }
    }
}
