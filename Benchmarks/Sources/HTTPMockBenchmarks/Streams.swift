import BenchmarkFixtures
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

/// (6): events per second of one streamed response read by a delegate-based task: the floor (a bare `URLProtocol`
/// delivering the same parts in one pass), HTTPMock's scripted events, and a producer's events. Interleaved rounds;
/// each round's ratio is to its own floor.
func benchmarkStreams(_ options: Options) async throws {
    let events = options.scaled(20_000)
    StreamFloorProtocol.events = events
    let floorConfiguration = URLSessionConfiguration.ephemeral
    floorConfiguration.protocolClasses = [StreamFloorProtocol.self]
    floorConfiguration.urlCache = nil
    let scripted = streamingMock(events: events)
    let produced = producingMock(events: events)
    let rows: [(String, URLSessionConfiguration)] = [
        ("floor: bare URLProtocol, \(events) parts", floorConfiguration),
        ("MockResponse.events, \(events) events", configuration(of: scripted)),
        ("MockResponse.stream(producer:), \(events) events", configuration(of: produced)),
    ]
    var rates: [[Double]] = Array(repeating: [], count: rows.count)
    let rounds = max(3, options.rounds / 3)
    for _ in 0..<rounds {
        for (index, row) in rows.enumerated() {
            let client = StreamCounter(configuration: row.1)
            let start = DispatchTime.now().uptimeNanoseconds
            let (parts, _) = try await client.fetch(streamURL)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            client.close()
            guard parts == events else {
                throw BenchmarkFailure(description: "\(row.0): \(parts) parts arrived, \(events) expected")
            }
            rates[index].append(Double(events) / seconds)
        }
        scripted.clearJournal()
        produced.clearJournal()
    }
    reportStreamRates("Streams: events per second, one streamed response to a delegate-based task (\(rounds) interleaved rounds)",
                      names: rows.map(\.0), rates: rates)
}

/// Prints a table of events per second, the first row being the floor: each row's median rate and the median and
/// range of its ratio to the floor of its own round, against the goal of 0.8.
func reportStreamRates(_ title: String, names: [String], rates: [[Double]]) {
    print("\n## " + title)
    print(pad("stream", 52) + pad("events/s (median)", 20) + pad("x floor, median (range)", 24) + "target")
    for (index, name) in names.enumerated() {
        let ratios = zip(rates[index], rates[0]).map { $0 / $1 }.sorted()
        let range = String(format: "%.2f (%.2f–%.2f)", median(ratios), ratios.first ?? 0, ratios.last ?? 0)
        let target = index == 0 ? "" : (median(ratios) >= 0.8 ? "≥ 0.80  met" : "≥ 0.80  MISSED")
        print(pad(name, 52) + pad(String(format: "%.0f", median(rates[index])), 20) + pad(index == 0 ? "1" : range, 24) + target)
    }
}

private func configuration(of mock: HTTPMock) -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    mock.install(into: configuration)
    return configuration
}
