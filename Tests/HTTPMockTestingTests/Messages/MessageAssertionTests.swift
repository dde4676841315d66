import Foundation
@testable import HTTPMock
import HTTPMockTesting
import Testing

@Suite("Messages are asserted and awaited with the words requests use")
struct MessageAssertionTests {
    /// A mock with a channel opened at `path` whose client sent `texts`, and a stub that answers "pong" to "ping".
    private func mock(path: String, sent texts: [String]) throws -> HTTPMock {
        let mock = HTTPMock()
        try mock.addMessageStub(when: .text("ping"), reply: [.text("pong")])
        let channel = try #require(mock.messaging.openChannel(.webSocket, request: CapturedRequest(url: URL(string: "http://127.0.0.1" + path)!)) { _ in true })
        for text in texts { mock.messaging.received(.text(text), on: channel.id) }
        return mock
    }

    @Test("HTTPAssertMessages counts by channel path, direction and pattern")
    func counts() throws {
        let mock = try mock(path: "/chat", sent: ["ping", "hello", "ping"])
        #expect(HTTPAssertMessages("ws://127.0.0.1/chat", direction: .received, matching: .text("ping"), count: .exactly(2), in: mock).count == 2)
        #expect(HTTPAssertMessages("ws://127.0.0.1/chat", direction: .sent, count: .exactly(2), in: mock).map(\.message) == [.text("pong"), .text("pong")])
        #expect(HTTPAssertMessages(direction: .received, count: .exactly(3), in: mock).count == 3)
        #expect(HTTPAssertMessages("ws://127.0.0.1/other", count: .never, in: mock).isEmpty)
    }

    @Test("a failing assertion names what it expected and shows the journal's last messages")
    func failureReport() async throws {
        let mock = try mock(path: "/chat", sent: ["hello"])
        let failures = await recordedFailures {
            HTTPAssertMessages("ws://127.0.0.1/chat", direction: .received, matching: .text("bye"), in: mock)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.contains("expected at least 1 message from the client on channels at /chat matching text \"bye\", found 0") == true, "\(failures)")
        #expect(failures.first?.contains("← /chat: text \"hello\"") == true, "\(failures)")
    }

    @Test("waitForMessages returns the messages once they came, and fails the test after its time")
    func waits() async throws {
        let mock = try mock(path: "/chat", sent: ["ping"])
        let sent = await waitForMessages("ws://127.0.0.1/chat", direction: .sent, in: mock)
        #expect(sent.map(\.message) == [.text("pong")])
        let failures = await recordedFailures {
            _ = await waitForMessages(direction: .received, matching: .text("never"), in: mock, timeout: 0)
        }
        #expect(failures.first?.contains("waitForMessages timed out") == true, "\(failures)")
    }
}
