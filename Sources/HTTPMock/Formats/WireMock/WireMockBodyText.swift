import Foundation
import _HTTPMockJSON

extension CapturedRequest {
    /// The body as WireMock reads it into text (for its body patterns, `{{request.body}}` and its journal): in the
    /// charset the `Content-Type` names (`ISO-8859-1`, `UTF-16`, `windows-1252`, `US-ASCII`), else as UTF-8, each
    /// malformed sequence a U+FFFD and a byte order mark kept, as Java decodes it; `nil` without a body.
    package var wireMockBodyText: String? {
        guard let body else { return nil }
        if let charset = headers["Content-Type"].flatMap(Self.charset(in:)), let text = Self.decode(body, charset: charset) {
            return text
        }
        return String(decoding: body, as: UTF8.self)
    }

    /// The body's bytes as WireMock's Jackson reads JSON from them: in UTF-8, from the charset the `Content-Type`
    /// names (``wireMockBodyText``); `nil` without a body.
    package var wireMockJSONBytes: Data? {
        guard let body else { return nil }
        if let charset = headers["Content-Type"].flatMap(Self.charset(in:)), charset != "utf-8", charset != "utf8",
           let text = wireMockBodyText {
            return Data(text.utf8)
        }
        return body
    }

    /// The body as JSON, as WireMock's Jackson reads it: strict JSON in ``wireMockJSONBytes``, a key written twice
    /// keeping its last value; `nil` when it is no JSON.
    package var wireMockJSON: JSONValue? {
        wireMockJSONBytes.flatMap { JSONValue.parse($0, lastKeyWins: true) }
    }

    /// The `charset` parameter of a media type, lower-cased and unquoted.
    static func charset(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")).lowercased()
        }
        return nil
    }

    /// `data` in a charset other than UTF-8 (`nil` for UTF-8 and for one not known here, read as UTF-8).
    private static func decode(_ data: Data, charset: String) -> String? {
        switch charset {
        case "iso-8859-1", "latin1", "iso8859-1", "iso_8859-1", "l1": return String(data: data, encoding: .isoLatin1)
        case "us-ascii", "ascii":
            // Java puts U+FFFD for each byte past ASCII.
            return String(String.UnicodeScalarView(data.map { $0 < 0x80 ? Unicode.Scalar($0) : "\u{FFFD}" }))
        case "windows-1252", "cp1252": return String(data: data, encoding: .windowsCP1252)
        case "utf-16", "utf-16be", "utf-16le":
            // Java's UTF-16 reads a byte order mark and drops it, big-endian without one; an odd last byte is a U+FFFD.
            var bytes = [UInt8](data)
            var bigEndian = charset != "utf-16le"
            if charset == "utf-16", bytes.count >= 2 {
                if bytes[0] == 0xFE, bytes[1] == 0xFF { bytes.removeFirst(2) } else if bytes[0] == 0xFF, bytes[1] == 0xFE {
                    bytes.removeFirst(2)
                    bigEndian = false
                }
            }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = 0
            while index + 1 < bytes.count {
                units.append(bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]) : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index]))
                index += 2
            }
            return String(decoding: units, as: UTF16.self) + (bytes.count % 2 == 1 ? "\u{FFFD}" : "")
        default: return nil
        }
    }
}
