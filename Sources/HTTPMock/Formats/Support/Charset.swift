import Foundation

/// The text encodings a `Content-Type`'s `charset` names, for bodies written as text in a definition and sent in
/// the charset their headers declare (as WireMock sends them).
enum Charset {
    /// The encoding of `Content-Type: …; charset=NAME`, or `nil` when there is no charset or it is UTF-8 (the
    /// bytes as written) or unknown here.
    static func encoding(ofContentType contentType: String) -> String.Encoding? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "charset" else { continue }
            let name = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            return name == "utf-8" || name == "utf8" ? nil : encodings[name]
        }
        return nil
    }

    /// Core Foundation's encoding numbers, as `String.Encoding` raw values (`0x80000000 | number`): the same on
    /// Apple platforms and in swift-corelibs-foundation.
    private static func foundation(_ number: UInt) -> String.Encoding { String.Encoding(rawValue: 0x8000_0000 | number) }

    /// IANA names (lower-cased) and their common aliases.
    private static let encodings: [String: String.Encoding] = [
        "us-ascii": .ascii, "ascii": .ascii,
        "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-8859-2": .isoLatin2,
        "iso-8859-5": foundation(0x0205), "iso-8859-7": foundation(0x0207), "iso-8859-15": foundation(0x020F),
        "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251, "windows-1252": .windowsCP1252,
        "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254,
        "utf-16": .utf16, "utf-16be": .utf16BigEndian, "utf-16le": .utf16LittleEndian,
        "utf-32": .utf32, "utf-32be": .utf32BigEndian, "utf-32le": .utf32LittleEndian,
        "shift_jis": .shiftJIS, "shift-jis": .shiftJIS, "sjis": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP,
        "gb2312": foundation(0x0930), "euc-cn": foundation(0x0930), "gbk": foundation(0x0631), "gb18030": foundation(0x0632),
        "big5": foundation(0x0A03), "euc-kr": foundation(0x0940), "koi8-r": foundation(0x0A02),
    ]
}
