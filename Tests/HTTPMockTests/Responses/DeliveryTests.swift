import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPMock

/// Delays, timeouts and cancellation through a real URLSession.
@Suite struct DeliveryTests {
    @Test func delayedResponseArrivesIntact() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow", host: "d.test", responses: [.plaintext("late", delivery: .delayed(0.2))])
        let reply = try await mock.urlSession.fetch("https://d.test/slow")
        #expect(reply.status == 200)
        #expect(reply.text == "late")
    }

    @Test func instantResponseOvertakesADelayedOne() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow", host: "d.test", responses: [.plaintext("slow", delivery: .delayed(1.5))])
        mock.addResponses(forPath: "/fast", host: "d.test", responses: [.plaintext("fast")])
        let order = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for path in ["/slow", "/fast"] {
                group.addTask {
                    let text = (try? await mock.urlSession.fetch("https://d.test\(path)").text) ?? "error"
                    order.withLock { $0.append(text) }
                }
            }
        }
        #expect(order.current == ["fast", "slow"])
    }

    @Test func delayPastTheTimeoutFailsWithTimedOut() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/hang", host: "d.test", responses: [.plaintext("too late", delivery: .delayed(30))])
        await #expect {
            _ = try await mock.urlSession.fetch("https://d.test/hang", timeout: 0.3)
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
        #expect(mock.journal.first?.outcome.map { if case .failure = $0 { true } else { false } } == true)
    }

    @Test func theConfigurationsRequestTimeoutApplies() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/hang", host: "d.test", responses: [.plaintext("too late", delivery: .delayed(30))])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.3
        // A generated client builds its own URLRequest, with the default timeout of 60 seconds.
        let session = mock.makeSession(configuration: configuration)
        await #expect {
            _ = try await session.data(for: URLRequest(url: URL(string: "https://d.test/hang")!))
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
    }

    @Test func theConfigurationsResourceTimeoutApplies() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/hang", host: "d.test", responses: [.plaintext("too late", delivery: .delayed(30))])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = 0.3
        mock.install(into: configuration)
        let session = URLSession(configuration: configuration)
        await #expect {
            _ = try await session.data(for: URLRequest(url: URL(string: "https://d.test/hang")!))
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
    }

    @Test func theSmallerOfTheRequestsAndTheConfigurationsTimeoutWins() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow", host: "d.test", responses: [.plaintext("in time", delivery: .delayed(0.2))])
        mock.addResponses(forPath: "/hang", host: "d.test", responses: [.plaintext("too late", delivery: .delayed(30))])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.3
        let session = mock.makeSession(configuration: configuration)
        // A longer timeout on the request does not lift the configuration's.
        var request = URLRequest(url: URL(string: "https://d.test/hang")!)
        request.timeoutInterval = 120
        await #expect {
            _ = try await session.data(for: request)
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
        #expect(try await session.fetch("https://d.test/slow", timeout: 120).text == "in time")
    }

    @Test func throttledResponseArrivesWhole() async throws {
        let mock = HTTPMock()
        let text = String(repeating: "0123456789", count: 200)
        let body = Data(text.utf8)
        mock.addResponses(forPath: "/slow-link", host: "d.test", responses: [
            MockResponse(body: body, delivery: .throttled(bytesPerSecond: 20_000, headersAfter: 0.05)),
        ])
        let reply = try await mock.urlSession.fetch("https://d.test/slow-link")
        #expect(reply.status == 200)
        #expect(reply.text == text)
    }

    @Test func throttledBodyLongerThanTheResourceTimeoutTimesOut() async throws {
        let mock = HTTPMock()
        // 10,000 bytes at 100 bytes/s: 100 s of body, though the headers come at once.
        mock.addResponses(forPath: "/big", host: "d.test", responses: [
            MockResponse(body: Data(count: 10_000), delivery: .throttled(bytesPerSecond: 100)),
        ])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = 0.3
        let session = mock.makeSession(configuration: configuration)
        await #expect {
            _ = try await session.fetch("https://d.test/big")
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
    }

    @Test func throttledHeadersLaterThanTheRequestTimeoutTimeOut() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/late-headers", host: "d.test", responses: [
            MockResponse(body: Data(count: 10), delivery: .throttled(bytesPerSecond: 1_000_000, headersAfter: 30)),
        ])
        await #expect {
            _ = try await mock.urlSession.fetch("https://d.test/late-headers", timeout: 0.3)
        } throws: { error in
            (error as? URLError)?.code == .timedOut
        }
    }

    @Test func aThrottledSpeedOfZeroIsRefused() throws {
        let mock = HTTPMock()
        #expect(throws: HTTPMockError.self) {
            try mock.stub(.path("/never"), responses: [.empty(delivery: .throttled(bytesPerSecond: 0))])
        }
    }

    @Test func cancellingADelayedRequestReportsCancelled() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/slow", host: "d.test", responses: [.plaintext("never", delivery: .delayed(5))])
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<URLError.Code?, Never>) in
            let task = mock.urlSession.dataTask(with: URL(string: "https://d.test/slow")!) { _, _, error in
                continuation.resume(returning: (error as? URLError)?.code)
            }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { task.cancel() }
        }
        #expect(outcome == .cancelled)
    }

    @Test func failureResponseReachesTheCallerUnchanged() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/offline", host: "d.test", responses: [.failure(URLError(.notConnectedToInternet))])
        await #expect {
            _ = try await mock.urlSession.fetch("https://d.test/offline")
        } throws: { error in
            (error as? URLError)?.code == .notConnectedToInternet
        }
    }

    @Test func delayedFailureArrivesAfterItsDelay() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/drop", host: "d.test",
                          responses: [.failure(URLError(.networkConnectionLost), delivery: .delayed(0.1))])
        await #expect {
            _ = try await mock.urlSession.fetch("https://d.test/drop")
        } throws: { error in
            (error as? URLError)?.code == .networkConnectionLost
        }
    }

    @Test func headRequestGetsHeadersWithoutBody() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/h", host: "d.test", responses: [.plaintext("body")])
        let reply = try await mock.urlSession.fetch("https://d.test/h", method: "HEAD")
        #expect(reply.status == 200)
        #expect(reply.text.isEmpty)
        #expect(reply.header("Content-Length") == "4")
    }

    #if canImport(FoundationNetworking)
    @Test func downloadTasksFailWithAClearErrorOnLinux() async throws {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/file", host: "d.test", responses: [.plaintext("x")])
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<URLError?, Never>) in
            mock.urlSession.downloadTask(with: URL(string: "https://d.test/file")!) { _, _, error in
                continuation.resume(returning: error as? URLError)
            }.resume()
        }
        #expect(error?.code == .unsupportedURL)
        #expect(error?.localizedDescription.contains("download tasks") == true)
    }
    #endif
}
