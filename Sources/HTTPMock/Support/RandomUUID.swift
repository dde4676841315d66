import Foundation

extension UUID {
    /// A random (version 4) UUID. On Linux, Foundation's `UUID()` opens, reads and closes `/dev/urandom` for every
    /// UUID: three system calls and a path lookup that a folder of 10,000 mapping files without ids paid 10,000
    /// times while it loaded. These come from one generator per process (xoshiro256**), seeded from the system's.
    package static func random() -> UUID {
        var bytes = UUIDGenerator.shared.withLock { ($0.next(), $0.next()) }
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40  // version 4
            raw[8] = raw[8] & 0x3F | 0x80  // the variant of RFC 9562
            return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                               raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
        }
    }
}

extension UUID {
    /// The UUID in lower case, as WireMock writes ids (`uuidString.lowercased()`, written directly): Foundation's
    /// `uuidString` on Linux formats with `snprintf`, which a folder of 10,000 mapping files without ids paid for
    /// every mapping it loaded.
    package var lowercasedText: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for (index, byte) in raw.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 { out[at] = UInt8(ascii: "-"); at += 1 }
                    out[at] = digits[Int(byte >> 4)]
                    out[at + 1] = digits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }
}

/// xoshiro256** (Blackman and Vigna): 256 bits of state, drawn once from the system's generator.
private struct UUIDGenerator {
    static let shared = Locked(UUIDGenerator())

    private var state: (UInt64, UInt64, UInt64, UInt64)

    private init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next())
        // An all-zero state would only ever give zeros.
        if state == (0, 0, 0, 0) { state.0 = 1 }
    }

    mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        value << count | value >> (64 - count)
    }
}
