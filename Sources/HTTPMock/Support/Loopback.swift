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

    /// Whether a proxy or a webhook may send to `host`: this machine, or a host of `allowed` (lower-cased).
    package static func allows(_ host: String, among allowed: Set<String>) -> Bool {
        contains(host) || allowed.contains(host.lowercased())
    }

    /// What to do about a host that ``allows(_:among:)`` refuses, in the words of the API and the command line.
    package static func howToAllow(_ host: String) -> String {
        "only loopback is allowed unless you allow the host (mock.allowedProxyHosts = [\"\(host)\"], or httpmock serve --allow-proxy-to \(host))"
    }
}
