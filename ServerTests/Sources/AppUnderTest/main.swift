// Plays an app under UI test, in a process of its own: it talks to the API at the base URL in its environment
// (`API_BASE_URL`) with a plain URLSession, as an app launched with a test's launch environment would.
//
// Each argument, then each line on standard input, is a request to make, `GET /user` or `POST /notes some text`
// (the arguments are what the app loads at launch); each answer is one line on standard output:
// `<status> <body on one line>`, or `error <description>`. `quit` (or the end of the input) ends it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

guard let base = ProcessInfo.processInfo.environment["API_BASE_URL"].flatMap(URL.init(string:)) else {
    FileHandle.standardError.write(Data("AppUnderTest: set API_BASE_URL to the API's base URL\n".utf8))
    exit(64)
}
let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = 30
let session = URLSession(configuration: configuration)

func perform(_ line: String) async {
    let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
    guard parts.count >= 2, let url = URL(string: base.absoluteString + parts[1]) else {
        say("error cannot read the command \(line)")
        return
    }
    var request = URLRequest(url: url)
    request.httpMethod = parts[0]
    request.setValue("AppUnderTest/1.0", forHTTPHeaderField: "X-Client")
    if parts.count == 3 {
        request.httpBody = Data(parts[2].utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    }
    do {
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        say("\(status) \(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: " "))")
    } catch {
        say("error \(error.localizedDescription)")
    }
}

for command in CommandLine.arguments.dropFirst() {
    await perform(command)
}
while let line = readLine(), line != "quit" {
    await perform(line)
}
