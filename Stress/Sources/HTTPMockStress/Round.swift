import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

/// One stress round: many mocks, thousands of concurrent requests with delays, passthrough and cancel storms,
/// and journal readers running throughout. Every request must end exactly once with its own mock's answer, or
/// with `.cancelled` if it was cancelled in time.
struct Round {
    var mocks = 8
    var requests = 4_000

    struct Result {
        var right = 0, cancelled = 0, wrong: [String] = [], lost = 0, journalReads = 0
    }

    func run() -> Result {
        let upstream = HTTPMock()
        upstream.unmockedPolicy = .mock(.plaintext("upstream", lifetime: .eternal, delivery: .delayed(0.01)))
        let mocks = (0..<mocks).map { index -> HTTPMock in
            let mock = HTTPMock(passthroughSession: upstream.urlSession)
            mock.unmockedPolicy = .passthrough
            mock.addResponses(forPath: "/instant/*", host: "stress.test", responses: [.plaintext("m\(index)", lifetime: .eternal)])
            mock.addResponses(forPath: "/delayed/*", host: "stress.test",
                              responses: [.plaintext("m\(index)-late", lifetime: .eternal, delivery: .delayed(0.02))])
            mock.addResponses(forPath: "/queue", host: "stress.test",
                              responses: (0..<10_000).map { .plaintext("q\($0)") })
            return mock
        }
        let result = Locked(Result())
        let group = DispatchGroup()
        var tasks: [URLSessionDataTask] = []
        for number in 0..<requests {
            let index = number % mocks.count
            let kind = number % 4
            let path = ["/instant/\(number)", "/delayed/\(number)", "/elsewhere/\(number)", "/queue"][kind]
            let url = URL(string: "https://stress.test\(path)")!
            group.enter()
            let task = mocks[index].urlSession.dataTask(with: url) { data, response, error in
                defer { group.leave() }
                let text = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
                let ok: Bool
                switch kind {
                case 0: ok = text == "m\(index)"
                case 1: ok = text == "m\(index)-late"
                case 2: ok = text == "upstream"
                default: ok = text.hasPrefix("q")
                }
                result.withLock { result in
                    if (error as? URLError)?.code == .cancelled {
                        result.cancelled += 1
                    } else if ok, (response as? HTTPURLResponse)?.statusCode == 200 {
                        result.right += 1
                    } else {
                        result.wrong.append("\(url) -> \(error.map { "\($0)" } ?? text)")
                    }
                }
            }
            tasks.append(task)
            task.resume()
        }
        let readers = DispatchGroup()
        let stop = Locked(false)
        for mock in mocks.prefix(2) {
            DispatchQueue.global().async(group: readers) {
                while !stop.current {
                    _ = mock.journal.count
                    usleep(500)
                    result.withLock { $0.journalReads += 1 }
                }
            }
        }
        let started = tasks
        DispatchQueue.concurrentPerform(iterations: 4) { slice in
            for (position, task) in started.enumerated() where position % 5 == 0 && position % 4 == slice { task.cancel() }
        }
        if group.wait(timeout: .now() + 120) == .timedOut {
            result.withLock { $0.lost = requests - ($0.right + $0.cancelled + $0.wrong.count) }
        }
        stop.withLock { $0 = true }
        readers.wait()
        // Queue answers must be unique per mock: FIFO never serves one entry twice.
        for mock in mocks {
            let served = mock.journal.compactMap { entry -> String? in
                guard entry.request.url.path == "/queue", case .response(_, _, let body)? = entry.outcome else { return nil }
                return String(decoding: body, as: UTF8.self)
            }
            if Set(served).count != served.count {
                result.withLock { $0.wrong.append("a queued response was served twice") }
            }
        }
        return result.current
    }
}

/// A value behind a lock (the library's own is internal).
final class Locked<Value>: @unchecked Sendable {  // reason: every access goes through `lock`
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&value) }
    var current: Value { withLock { $0 } }
}
