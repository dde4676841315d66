#if Server
/// The one rule for which names mean this machine: exactly the loopback literals (an IPv4 dotted quad in
/// 127.0.0.0/8, `::1` or `[::1]`) and `localhost`, each with an optional port. Nothing that merely starts like one
/// (`127.attacker.example`, `127.0.0.1.nip.io`, `localhost.example`): those are names a web page's DNS can point at
/// 127.0.0.1 (DNS rebinding). Compares bytes, ASCII case folded: no copy, on every request.
enum HostName {
    /// `host` (a `Host` header value, or a URL's host) without its port: `127.0.0.1:8080` → `127.0.0.1`,
    /// `[::1]:8080` → `::1`, `::1` → `::1`. `nil` when what follows the name is not a port (1 to 5 digits).
    static func withoutPort(_ host: Substring.UTF8View) -> Substring.UTF8View? {
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.first == UInt8(ascii: ":") && isPort(rest.dropFirst())) else { return nil }
            return host[host.index(after: host.startIndex)..<close]
        }
        guard let colon = host.firstIndex(of: UInt8(ascii: ":")) else { return host }
        let rest = host[host.index(after: colon)...]
        // A bare IPv6 literal has colons of its own and no port.
        if rest.contains(UInt8(ascii: ":")) { return host }
        return isPort(rest) ? host[..<colon] : nil
    }

    /// Whether `host` (with its port, if any) is a loopback literal or `localhost`.
    static func isLoopback(_ host: some StringProtocol) -> Bool {
        guard let name = withoutPort(Substring(host).utf8) else { return false }
        return isLoopbackName(name)
    }

    /// Whether `name` (without a port) is a loopback literal or `localhost`.
    static func isLoopbackName(_ name: Substring.UTF8View) -> Bool {
        same(name, "localhost") || same(name, "::1") || isLoopbackIPv4(name)
    }

    /// Whether `name` is an IPv4 dotted quad (four decimal numbers from 0 to 255, no leading zeros) in 127.0.0.0/8.
    static func isLoopbackIPv4(_ name: Substring.UTF8View) -> Bool {
        var octets = 0, value = 0, digits = 0, first = -1
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                if octets == 0 { first = value }
                octets += 1
                value = 0
                digits = 0
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                // No leading zero: `0177.0.0.1` is octal to some parsers and 177.0.0.1 to others.
                if digits == 1, value == 0 { return false }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return false }
            } else {
                return false
            }
        }
        return octets == 3 && digits > 0 && first == 127
    }

    /// Whether `name` is `lowercased`, ignoring ASCII case.
    static func same(_ name: Substring.UTF8View, _ lowercased: String) -> Bool {
        name.elementsEqual(lowercased.utf8) { ($0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0) == $1 }
    }

    private static func isPort(_ text: Substring.UTF8View) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
#endif
