// A helper process for the cross-process journal tests: it stands for an app launched by a UI test.
//
//     JournalWriterFixture <label> <count>
//
// With HTTPMOCK_JOURNAL_DIR set, it answers <count> requests to https://fixture.test/items/<label>-<n> from a
// mock (so its journal is written to that folder), sends one request no stub answers, stores the context value
// "done-<label>" = <count>, and exits 0.
//
//     JournalWriterFixture live-mocks <count>
//
// Keeps <count> mocks alive at once, each with a stub, answers one request through the first and the last,
// prints how many file descriptors the process holds before and after ("fds <before> <after>"), and exits 0.
// Run under `ulimit -n` by the tests that check how many mocks a process can hold.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "live-mocks", arguments.count == 2, let count = Int(arguments.last!), count > 1 {
    func openDescriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1 }
    let before = openDescriptors()
    var mocks: [HTTPMock] = []
    for index in 0..<count {
        let mock = HTTPMock()
        mock.addResponses(forPath: "/live", host: "mock\(index).test") { MockResponse.plaintext("\(index)") }
        mocks.append(mock)
    }
    for index in [0, count - 1] {
        let (data, _) = try await mocks[index].urlSession.data(from: URL(string: "https://mock\(index).test/live")!)
        guard String(decoding: data, as: UTF8.self) == "\(index)" else { exit(70) }
    }
    guard mocks[0].passthroughSession === mocks[count - 1].passthroughSession else { exit(71) }
    print("fds \(before) \(openDescriptors())")
    exit(0)
}
guard arguments.count == 2, let label = arguments.first, let count = Int(arguments.last!) else {
    FileHandle.standardError.write(Data("usage: JournalWriterFixture <label> <count>\n".utf8))
    exit(64)
}
let folder: JournalFolder
do {
    guard let found = try JournalFolder.fromEnvironment() else {
        FileHandle.standardError.write(Data("\(JournalFolder.environmentVariable) is not set\n".utf8))
        exit(65)
    }
    folder = found
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(66)
}

let mock = HTTPMock()
guard mock.journalFolder == folder else {
    FileHandle.standardError.write(Data("the mock did not pick up \(JournalFolder.environmentVariable)\n".utf8))
    exit(67)
}
mock.addResponses(forPath: "/items/*", host: "fixture.test") {
    MockResponse.plaintext("item", lifetime: .eternal, headers: ["Set-Cookie": "session=secret-cookie"])
}
for index in 0..<count {
    var request = URLRequest(url: URL(string: "https://fixture.test/items/\(label)-\(index)")!)
    request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
    request.setValue(label, forHTTPHeaderField: "X-Writer")
    _ = try await mock.urlSession.data(for: request)
}
_ = try await mock.urlSession.data(from: URL(string: "https://fixture.test/missing")!)
try folder.store("done-\(label)", value: count)
