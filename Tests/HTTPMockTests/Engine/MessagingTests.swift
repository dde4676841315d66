import Foundation
@testable import HTTPMock
import Testing

@Suite("Messaging: channels, message stubs and the message journal, in the engine")
struct EngineMessagingTests {
    /// A channel whose deliveries are collected, opened on `path`.
    private func channel(_ mock: HTTPMock, path: String, kind: MessageChannel.Kind = .webSocket) throws -> (UUID, Locked<[WebSocketMessage]>) {
        let delivered = Locked<[WebSocketMessage]>([])
        let opened = try #require(mock.messaging.openChannel(kind, request: CapturedRequest(url: URL(string: "http://example.com" + path)!)) { message in
            delivered.withLock { $0.append(message) }
            return true
        })
        return (opened.id, delivered)
    }

    @Test("the stub with the lowest priority number answers; among equals the one added last, whatever the order", arguments: 0..<20)
    func ranking(seed: Int) throws {
        var generator = SplitMix(seed: UInt64(seed))
        let mock = HTTPMock()
        // Stubs with random priorities (or none), each replying its own index; all match every message.
        let priorities: [Int?] = (0..<6).map { _ in Bool.random(using: &generator) ? nil : Int.random(in: 1...3, using: &generator) }
        for (index, priority) in priorities.enumerated() {
            try mock.addMessageStub(reply: [.text("\(index)")], priority: priority)
        }
        let (id, delivered) = try channel(mock, path: "/rank")
        mock.messaging.received(.text("go"), on: id)
        let expected = priorities.indices.min { a, b in
            let (pa, pb) = (priorities[a] ?? Int.max, priorities[b] ?? Int.max)
            return pa != pb ? pa < pb : a > b
        }!
        #expect(delivered.withLock { $0 } == [.text("\(expected)")], "seed \(seed): priorities \(priorities)")
    }

    @Test("sends reach the channels whose opening requests match; a closed channel gets nothing")
    func targets() throws {
        let mock = HTTPMock()
        let (prices, toPrices) = try channel(mock, path: "/live/prices")
        let (_, toNews) = try channel(mock, path: "/live/news")
        #expect(try mock.sendMessage(.text("p"), matching: [.path("/live/prices")]).map(\.id) == [prices])
        #expect(try mock.sendMessage(.text("all"), to: .webSocket).count == 2)
        #expect(try mock.sendMessage(.text("none"), to: .serverSentEvents).isEmpty)
        mock.messaging.closeChannel(prices)
        #expect(try mock.sendMessage(.text("after")).count == 1)
        #expect(toPrices.withLock { $0 } == [.text("p"), .text("all")])
        #expect(toNews.withLock { $0 } == [.text("all"), .text("after")])
        #expect(mock.messageChannels.count == 1)
    }

    @Test("the message journal keeps the newest 10,000 events and counts none twice")
    func journalBound() throws {
        let mock = HTTPMock()
        let (id, _) = try channel(mock, path: "/many")
        for index in 0..<10_050 { mock.messaging.received(.text("\(index)"), on: id) }
        let events = mock.messageEvents
        #expect(events.count == 10_000)
        #expect(events.first?.message == .text("50"))
        #expect(events.last?.message == .text("10049"))
        #expect(Set(events.map(\.id)).count == 10_000)
    }

    @Test("a wait returns once enough messages came, and what it found when its time is up")
    func waits() async throws {
        let mock = HTTPMock()
        let (id, _) = try channel(mock, path: "/wait")
        async let two = mock.waitForMessages(count: 2, direction: .received, matching: .containing("yes"), timeout: 60)
        for text in ["yes 1", "no", "yes 2", "yes 3"] { mock.messaging.received(.text(text), on: id) }
        #expect(await two.map(\.message) == [.text("yes 1"), .text("yes 2")])
        let short = await mock.waitForMessages(count: 5, matching: .text("yes 3"), timeout: 0)
        #expect(short.map(\.message) == [.text("yes 3")])
    }

    @Test("a message stub's reply goes to the originating channel only, and the journal names the stub both ways")
    func originating() throws {
        let mock = HTTPMock()
        let stub = try mock.addMessageStub(channel: [.path("/chat")], when: .text("ping"), reply: [.text("pong")])
        let (chat, toChat) = try channel(mock, path: "/chat")
        let (other, toOther) = try channel(mock, path: "/other")
        mock.messaging.received(.text("ping"), on: other)
        mock.messaging.received(.text("ping"), on: chat)
        #expect(toChat.withLock { $0 } == [.text("pong")])
        #expect(toOther.withLock { $0 }.isEmpty)
        #expect(mock.messageEvents.map(\.wasMatched) == [false, true, true])
        #expect(mock.messageEvents.last?.stubID == stub)
        mock.removeMessageStub(stub)
        #expect(mock.messageStubCount == 0)
        #expect(mock.acceptsAnyWebSocket == false)
    }

    @Test("a stub's actions arrive in the order listed, whatever their delays: none overtakes the one before it", arguments: 0..<12)
    func actionsInOrder(seed: Int) async throws {
        var generator = SplitMix(seed: UInt64(seed))
        let mock = HTTPMock()
        // Delays of 0 to 12 ms in random order (a later action often due before an earlier one, or at the same moment).
        let delays: [Int] = (0..<8).map { _ in Bool.random(using: &generator) ? 0 : Int.random(in: 1...12, using: &generator) }
        let actions = delays.indices.map { index in
            MessageStub.Action(target: .originating, delay: Double(delays[index]) / 1_000) { _ in .text("\(index)") }
        }
        try mock.messaging.register([MessageStub(trigger: .message(kind: nil, channel: nil, body: .text("go")), actions: actions)])
        let (id, delivered) = try channel(mock, path: "/ordered")
        mock.messaging.received(.text("go"), on: id)
        let sent = await mock.waitForMessages(count: delays.count, direction: .sent, timeout: 60)
        let expected = delays.indices.map { WebSocketMessage.text("\($0)") }
        #expect(sent.map(\.message) == expected, "seed \(seed): delays \(delays)")
        #expect(delivered.withLock { $0 } == expected, "seed \(seed): delays \(delays)")
    }
}
