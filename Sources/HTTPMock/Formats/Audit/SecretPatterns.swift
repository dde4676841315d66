import Foundation

/// The formats ``SecretAudit`` recognises in any text, and the names that mark a value as a secret.
enum SecretPatterns {
    struct Pattern: Sendable {
        let kind: SecretKind
        /// A substring every match contains, tested before the expression runs.
        let hint: String
        let expression: NSRegularExpression
        /// The capture group that holds the secret (0: the whole match).
        let group: Int
    }

    private static func pattern(_ kind: SecretKind, hint: String, _ source: String, group: Int = 0) -> Pattern {
        // The expressions are constants of this file: a failure here is a programming error caught by every test run.
        Pattern(kind: kind, hint: hint, expression: try! NSRegularExpression(pattern: source), group: group)
    }

    /// Formats documented by their providers; each is specific enough that a match is a key, not a word.
    static let all: [Pattern] = [
        pattern(.privateKey, hint: "PRIVATE KEY", #"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----"#),
        pattern(.jsonWebToken, hint: "eyJ", #"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"#),
        pattern(.bearerToken, hint: "earer ", #"\b[Bb]earer\s+([A-Za-z0-9\-._~+/]{8,}=*)"#, group: 1),
        pattern(.providerKey("AWS access key"), hint: "A", #"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"#),
        pattern(.providerKey("GitHub"), hint: "g", #"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"#),
        pattern(.providerKey("Slack"), hint: "xox", #"\bxox[abposr]-[A-Za-z0-9-]{10,}"#),
        pattern(.providerKey("Stripe"), hint: "_live_", #"\b(?:sk|rk)_live_[0-9A-Za-z]{16,}"#),
        pattern(.providerKey("Google API"), hint: "AIza", #"\bAIza[0-9A-Za-z_-]{35}\b"#),
        pattern(.providerKey("Anthropic"), hint: "sk-ant-", #"\bsk-ant-[A-Za-z0-9_-]{20,}"#),
        pattern(.providerKey("OpenAI"), hint: "sk-", #"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}"#),
        pattern(.providerKey("SendGrid"), hint: "SG.", #"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b"#),
    ]

    /// Header names whose whole value is a credential.
    static let authorizationHeaders: Set<String> = ["authorization", "proxy-authorization"]
    static let cookieHeaders: Set<String> = ["cookie", "set-cookie"]
    static let keyHeaders: Set<String> = ["x-api-key", "api-key", "x-auth-token", "x-access-token", "apikey", "x-apikey",
                                          "x-amz-security-token", "ocp-apim-subscription-key", "private-token"]
    /// Query, form and JSON names whose value is a secret.
    static let secretNames: Set<String> = [
        "password", "passwd", "pwd", "pass", "secret", "client_secret", "clientsecret", "access_token", "accesstoken",
        "refresh_token", "refreshtoken", "id_token", "token", "api_key", "apikey", "private_key", "auth_token",
    ]

    /// Whether `value` is a stand-in, not a secret: empty, a redaction placeholder (`REDACTED`, `<FILTERED>`,
    /// `[redacted]`, `***`, `xxxx`), a template (`{{…}}`, `${…}`), or the one `placeholder` given.
    static func isPlaceholder(_ value: String, placeholder: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == placeholder { return true }
        let upper = trimmed.uppercased()
        if upper.contains("REDACTED") || upper.contains("FILTERED") || upper.contains(placeholder.uppercased()) { return true }
        if trimmed.contains("{{") || trimmed.contains("${") { return true }
        if Set(trimmed).isSubset(of: Set("*xX•.-_ ")) { return true }
        return false
    }

    /// The value of an `Authorization` header without its scheme (`Bearer`, `Basic`…), which alone is no secret.
    static func credential(ofAuthorization value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 1)
        return parts.count == 2 ? String(parts[1]) : value
    }
}
