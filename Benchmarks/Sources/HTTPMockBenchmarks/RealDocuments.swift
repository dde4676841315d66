import Foundation
import BenchmarkFixtures
import HTTPMockOpenAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPMockBenchmarks --documents PATH...`: OpenAPI descriptions of real APIs (read into a scratch folder, never kept
/// in the repository). For each: the time to read it and to read and register it, the peak memory of a process
/// serving it, and one request to every operation (path variables filled with `1`, a `{}` JSON body where the
/// method has one): how many were answered from the document and how many refused, and for what, as a mock made
/// from the document answers an app that sends what it sends.
func checkRealDocuments(_ paths: [URL]) async throws {
    for path in paths {
        let size = (try? FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int) ?? 0
        print("\n## \(path.lastPathComponent) (\(size / 1024) KiB)")
        let document: OpenAPIDocument
        do {
            var times: [Double] = []
            var read: OpenAPIDocument?
            for _ in 0..<3 { times.append(try seconds { read = try OpenAPIDocument(contentsOf: path) }) }
            document = read!
            print("read: \(document.version), \(document.operations.count) operations, median \(String(format: "%.0f ms", median(times) * 1e3))")
        } catch {
            print("refused when read: \(error)")
            continue
        }
        var registers: [Double] = []
        for _ in 0..<3 { registers.append(try seconds { _ = try HTTPMock().loadOpenAPIDocument(from: path) }) }
        print("read and register: median \(String(format: "%.0f ms", median(registers) * 1e3))")
        let baseline = try runDocumentChild("baseline", path)
        let served = try runDocumentChild("document", path)
        print(String(format: "peak memory of a process serving it: %.1f MB (%+.1f MB over a mock without it)", served, served - baseline))

        let mock = HTTPMock()
        try mock.loadOpenAPIDocument(document, options: OpenAPIMockOptions(serverURL: URL(string: "https://api.example.com")!))
        var statuses: [Int: Int] = [:]
        var rules: [String: Int] = [:]
        var failures: [String] = []
        let start = DispatchTime.now().uptimeNanoseconds
        for operation in document.operations {
            let path = operation.path.replacingOccurrences(of: #"\{[^}/]+\}"#, with: "1", options: .regularExpression)
            guard let url = URL(string: "https://api.example.com" + path) else { failures.append("\(operation): no URL"); continue }
            var request = URLRequest(url: url)
            request.httpMethod = operation.method
            if ["POST", "PUT", "PATCH"].contains(operation.method) {
                request.httpBody = Data("{}".utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            do {
                let (data, response) = try await mock.urlSession.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                statuses[status, default: 0] += 1
                if status == 400 || status == 422,
                   let problem = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                   let violations = problem["violations"] as? [[String: Any]] {
                    for rule in Set(violations.compactMap { violation in
                        (violation["place"] as? String).map { place in
                            "\(place.split(separator: " ").first.map(String.init) ?? place) \(violation["rule"] as? String ?? "?")"
                        }
                    }) { rules[rule, default: 0] += 1 }
                }
            } catch {
                failures.append("\(operation): \(error.localizedDescription)")
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let answered = statuses.filter { (200..<400).contains($0.key) }.values.reduce(0, +)
        let refused = (statuses[400] ?? 0) + (statuses[422] ?? 0)
        print("one request to each of \(document.operations.count) operations: \(answered) answered from the document, "
              + "\(refused) refused for breaking it, \(failures.count) failed; "
              + String(format: "%.0f µs a request", elapsed / Double(max(1, document.operations.count)) * 1e6))
        print("statuses: " + statuses.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "))
        if !rules.isEmpty {
            print("refused for (operations): " + rules.sorted { $0.value > $1.value }.prefix(8).map { "\($0.key) × \($0.value)" }.joined(separator: ", "))
        }
        for failure in failures.prefix(5) { print("failed: \(failure)") }
    }
}
