// A helper process for the cross-process journal tests: it stands for an app launched by a UI test.
//
//     JournalWriterFixture <label> <count>
//
// With HTTPMOCK_JOURNAL_DIR set, it answers <count> requests to https://fixture.test/items/<label>-<n> from a
// mock (so its journal is written to that folder), sends one request no stub answers, stores the context value
// "done-<label>" = <count>, and exits 0.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

let arguments = CommandLine.arguments.dropFirst()
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
