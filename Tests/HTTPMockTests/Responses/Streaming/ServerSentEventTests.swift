import Foundation
import Testing
import HTTPMock

/// The `text/event-stream` framing, written and read as the WHATWG HTML standard defines it.
@Suite struct ServerSentEventTests {
    @Test func fieldsGoOutInTheirOrderEndingWithABlankLine() {
        let event = ServerSentEvent("hello", event: "greeting", id: "7", retry: 2_500, comment: "first")
        #expect(event.description == ": first\nevent: greeting\nid: 7\nretry: 2500\ndata: hello\n\n")
    }

    @Test func dataOfSeveralLinesIsOneDataLineEach() {
        #expect(ServerSentEvent("a\nb\r\nc\rd").description == "data: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(ServerSentEvent("").description == "data: \n\n")
        #expect(ServerSentEvent.comment("keep-alive").description == ": keep-alive\n\n")
    }

    @Test func aLineBreakCannotEndAFieldEarly() {
        #expect(ServerSentEvent("x", event: "a\nb", id: "1\r2").description == "event: ab\nid: 12\ndata: x\n\n")
    }

    @Test func eventsReadBackAsTheyWereWritten() {
        let events = [
            ServerSentEvent("one"),
            ServerSentEvent("two\nlines", event: "update", id: "2", retry: 100),
            ServerSentEvent.comment("ping"),
            ServerSentEvent("{\"delta\":\" world\"}", event: "delta"),
        ]
        var body = Data()
        for event in events { body.append(event.encoded) }
        #expect(ServerSentEvent.events(in: body) == events)
    }

    @Test func aReaderFollowsTheStandardsParsingRules() {
        let text = "data:no space\r\ndata:  two spaces\r\r" + "retry: 12x\nunknown: field\nid\ndata\n\n" + ":comment only\n\n"
            + "data: still open"
        let events = ServerSentEvent.events(in: Data(text.utf8))
        #expect(events == [
            ServerSentEvent("no space\n two spaces"),
            ServerSentEvent("", id: ""),
            ServerSentEvent.comment("comment only"),
        ])
    }

    @Test func aReaderTakesPiecesThatEndMidLine() {
        var reader = ServerSentEventReader()
        #expect(reader.read(Data("da".utf8)).isEmpty)
        #expect(reader.read(Data("ta: he".utf8)).isEmpty)
        #expect(reader.read(Data("llo\r".utf8)).isEmpty)
        #expect(reader.read(Data("\n\r\n".utf8)) == [ServerSentEvent("hello")])
    }
}
