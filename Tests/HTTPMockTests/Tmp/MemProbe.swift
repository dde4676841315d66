import Testing
import Glibc
import Foundation
@testable import HTTPMock

private func heap() -> Int {
    let text = try! String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
    return Int(text.split(separator: " ")[1])! * 4096
}
private func route(_ index: Int) -> (String, String) {
    let host = "api\(index % 10000).svc\(index % 7).example.com"
    switch index % 20 {
    case 0..<14: return (host, "/v1/items/\(index)")
    case 14..<18: return (host, "/v1/users/*/orders/\(index)")
    case 18: return ("*." + host, "/assets/\(index)")
    default: return (host, "/v1/**")
    }
}
@Test func memProbe() throws {
    let n = 100_000
    let routes = (0..<n).map(route)
    var start = heap()
    let hosts = try routes.map { try HostPattern($0.0) }
    print("MEM hosts/stub", (heap() - start) / n)
    start = heap()
    let paths = try routes.map { try PathPattern($0.1) }
    print("MEM paths/stub", (heap() - start) / n)
    start = heap()
    let keys = (0..<n).map { Stub.key(host: hosts[$0], path: paths[$0], conditions: []) }
    print("MEM keys/stub", (heap() - start) / n)
    start = heap()
    let stubs = (0..<n).map { Stub(id: StubID(rawValue: $0), host: hosts[$0], path: paths[$0], conditions: []) }
    print("MEM stub summaries/stub", (heap() - start) / n)
    start = heap()
    let conditions = (0..<n).map { $0 % 4 == 0 ? [Condition.method(["GET"])] : [] }
    print("MEM conditions/stub", (heap() - start) / n)
    let response = MockResponse(body: Data(count: 1024), lifetime: .eternal)
    start = heap()
    let router = Router()
    for i in 0..<n { router.add(host: hosts[i], path: paths[i], conditions: conditions[i], responses: [response]) }
    print("MEM router.add/stub (patterns shared)", (heap() - start) / n)
    start = heap()
    let bare = Router()
    for i in 0..<n { bare.add(host: hosts[i], path: paths[i], conditions: [], responses: []) }
    print("MEM router.add no queue no conditions/stub", (heap() - start) / n)
    start = heap()
    var table = StubTable()
    for i in 0..<n { table[StubID(rawValue: i)] = stubs[i] }
    print("MEM stubtable/stub", (heap() - start) / n)
    start = heap()
    var queues = [ResponseQueue]()
    for _ in 0..<n { var q = ResponseQueue(); q.append(response); queues.append(q) }
    print("MEM queue/stub", (heap() - start) / n)
    start = heap()
    var dict = [String: Int]()
    for i in 0..<n { dict[keys[i]!] = i }
    print("MEM idsByKey/stub", (heap() - start) / n)
    _ = (keys.count, stubs.count)
}
