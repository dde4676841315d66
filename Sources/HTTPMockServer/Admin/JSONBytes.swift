#if Server
import Foundation
import HTTPMock

/// JSON written straight to bytes, for the admin API's listings: no dictionary of `Any` built first, and no
/// `JSONSerialization`, which on Linux costs more than the rest of a listing together. Keys are written in the
/// order given; callers give them sorted, as the admin API's other replies are.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written needs a comma before its next member.
    private var needsComma = false

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    var data: Data { Data(bytes) }

    // MARK: Containers

    mutating func object(_ members: (inout JSONBytes) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        members(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array(_ items: (inout JSONBytes) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        items(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A member's key; its value follows.
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    mutating func string(_ value: String) {
        separate()
        writeString(value)
        needsComma = true
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func double(_ value: Double) {
        separate()
        bytes.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// JSON already written (a stub mapping as it is kept), copied as it is.
    mutating func raw(_ json: Data) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func member(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    // MARK: Writing

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// `value` quoted, escaped where JSON requires it (`"`, `\\`, control characters); the runs between escapes are
    /// copied whole.
    private mutating func writeString(_ value: String) {
        var value = value
        bytes.append(0x22)
        value.withUTF8 { utf8 in
            var run = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                default: bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
                }
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(0x22)
    }
}

extension Date {
    /// `2026-01-31T12:00:00Z`, as `ISO8601DateFormatter` writes it by default, without making one (which on Linux
    /// costs more than the rest of a journal entry's JSON).
    var iso8601: String {
        let seconds = Int(timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = CivilDate.from(daysSince1970: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        var yearText = String(year)
        while yearText.count < 4 { yearText = "0" + yearText }
        return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60))Z"
    }
}
#endif
