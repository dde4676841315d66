import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPMock

extension Scenes {
    /// An LLM-style answer streamed token by token as server-sent events: the app shows each token as it arrives.
    static func streamingAnswer() async {
        let mock = HTTPMock()
        let tokens = ["Mocks", " stand", " in", " for", " the", " network", ",", " token", " by", " token", "."]
        mock.addResponses(forPath: "/v1/chat", host: "llm.example.test", method: .post) {
            MockResponse.events(tokens.map { ServerSentEvent($0, event: "delta") } + [ServerSentEvent("[DONE]")],
                                every: 0.08)
        }
        let configuration = URLSessionConfiguration.ephemeral
        mock.install(into: configuration)
        let arrivals = Locked<[String]>([])
        let client = ChatClient(baseURL: URL(string: "https://llm.example.test")!, configuration: configuration) { token in
            arrivals.withLock { $0.append(token) }
            // Straight to standard output, unbuffered, so each token shows as it arrives.
            FileHandle.standardOutput.write(Data(token.utf8))
        }
        print("\n== 6. Streaming an answer")
        print("   ", terminator: "")
        fflushStandardOutput()
        do {
            let answer = try await client.ask("What does HTTPMock do?")
            FileHandle.standardOutput.write(Data("\n".utf8))
            let record = mock.journal.last?.stream
            for line in [
                "\(arrivals.withLock { $0.count }) tokens arrived one by one, each shown as it came",
                "the journal: \(record?.partCount ?? 0) events, \(record?.ending.map { "\($0)" } ?? "open")",
                "the whole answer: \"\(answer)\"",
            ] { print("   \(line)") }
        } catch {
            say("6. Streaming an answer", ["unexpected: \(error)"])
        }
    }
}

/// Writes out what `print` buffered, before tokens go straight to standard output.
private func fflushStandardOutput() {
    fflush(nil)
}
