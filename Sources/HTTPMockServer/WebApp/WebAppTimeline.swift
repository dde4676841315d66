#if Server
import Foundation
import HTTPMock

/// `GET /__admin/webapp/requests/{id}/timeline`: what a serve event has no field for, for the page's details of one
/// request: a streamed answer's parts as they reached the client, and a WebSocket conversation's messages both
/// ways, each with its time from the start.
///
/// `{"stream": {"status", "partCount", "byteCount", "ending", "parts": [{"offsetMilliseconds", "bytes", "text" |
/// "base64"}]} | null, "webSocket": {"open", "closeCode", "messageCount", "messages": [{"fromClient",
/// "offsetMilliseconds", "text" | "base64"}]} | null}`. At most ``mostItems`` parts and messages, each shown up to
/// ``mostBytes``: the counts say how many there were.
enum WebAppTimeline {
    static let mostItems = 500
    static let mostBytes = 4_096

    /// The timeline of the request whose serve event id is `id`; 404 when the journal does not have it (now).
    static func reply(id: String, mock: HTTPMock) -> AdminReply {
        guard let number = ServeEventJSON.journalID(from: id),
              let entry = mock.journal(from: number).first, entry.id == number else {
            return AdminError(status: 404, code: 40, title: "No request \(id) in the journal",
                              detail: "ids are those of GET /__admin/requests; a cleared request is gone").reply
        }
        var json = JSONBytes()
        json.object { json in
            json.key("stream")
            if let stream = entry.stream {
                json.object { json in
                    json.member("byteCount", stream.byteCount)
                    if let ending = stream.ending { json.member("ending", ending.description) }
                    json.member("partCount", stream.partCount)
                    json.key("parts")
                    json.array { json in
                        for part in stream.parts.prefix(mostItems) {
                            json.object { json in
                                json.member("bytes", part.data.count)
                                json.member("offsetMilliseconds", milliseconds(part.offset))
                                writeContent(part.data, isText: nil, into: &json)
                            }
                        }
                    }
                    json.member("status", stream.status)
                }
            } else {
                json.raw(Data("null".utf8))
            }
            json.key("webSocket")
            if let conversation = entry.webSocket {
                json.object { json in
                    if let code = conversation.closeCode { json.member("closeCode", code) }
                    json.member("messageCount", conversation.messageCount)
                    json.key("messages")
                    json.array { json in
                        for message in conversation.messages.prefix(mostItems) {
                            json.object { json in
                                json.member("fromClient", message.fromClient)
                                json.member("offsetMilliseconds", milliseconds(message.offset))
                                switch message.message {
                                case .text(let text): writeContent(Data(text.utf8), isText: true, into: &json)
                                case .binary(let data): writeContent(data, isText: false, into: &json)
                                }
                            }
                        }
                    }
                    json.member("open", conversation.isOpen)
                }
            } else {
                json.raw(Data("null".utf8))
            }
        }
        return .json(json)
    }

    /// `"text"` when the bytes are UTF-8 (or `isText`), `"base64"` otherwise; both cut at ``mostBytes``, and
    /// `"cut": true` then.
    private static func writeContent(_ data: Data, isText: Bool?, into json: inout JSONBytes) {
        let shown = data.prefix(mostBytes)
        if shown.count < data.count { json.member("cut", true) }
        if isText != false, let text = String(data: shown, encoding: .utf8) {
            json.member("text", text)
        } else if isText == true {
            // Cut inside a character: what decodes.
            json.member("text", String(decoding: shown, as: UTF8.self))
        } else {
            json.member("base64", shown.base64EncodedString())
        }
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int((max(0, seconds) * 1000).rounded())
    }
}
#endif
