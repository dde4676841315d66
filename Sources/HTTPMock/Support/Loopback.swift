import Foundation

/// Addresses of this machine, which nothing reaches from another: where servers bind and proxies forward by default.
package enum Loopback {
    /// Whether `host` (a name or an address, IPv6 with or without brackets) is this machine: `localhost` and the
    /// names under it, 127.0.0.0/8 and `::1`.
    package static func contains(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
