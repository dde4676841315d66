import Foundation
@testable import HTTPMockServer
import Testing

/// The admin API's listings are written straight to bytes: what they write reads back as what was written.
@Suite("JSONBytes writes JSON that reads back as written")
struct JSONBytesTests {
    @Test("strings with every control character, quotes, backslashes and non-ASCII text read back unchanged")
    func stringsRoundTrip() throws {
        let controls = String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) })
        let texts = ["", "plain", controls, #"a "quoted" \ back\slash"#, "café 😀 \u{2028}", String(repeating: "x\"", count: 1_000)]
        var json = JSONBytes()
        json.object { json in
            for (index, text) in texts.enumerated() { json.member("k\(index)", text) }
            json.key("list")
            json.array { json in
                json.int(-7)
                json.bool(true)
                json.double(0.25)
                json.object { _ in }
            }
        }
        let object = try #require(try JSONSerialization.jsonObject(with: json.data) as? [String: Any])
        for (index, text) in texts.enumerated() { #expect(object["k\(index)"] as? String == text, "k\(index)") }
        let list = try #require(object["list"] as? [Any])
        #expect(list.count == 4)
        #expect(list.first as? Int == -7)
        #expect(list[2] as? Double == 0.25)
    }

    @Test("dates are written as ISO8601DateFormatter writes them", arguments: [
        0.0, -1, 86_399, 86_400, 951_782_400, 951_868_799.9, 1_798_675_200, -2_208_988_800, 4_102_444_800,
    ])
    func datesMatchTheFormatter(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(date.iso8601 == ISO8601DateFormatter().string(from: date))
    }
}
