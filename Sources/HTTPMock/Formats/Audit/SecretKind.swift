/// What kind of secret ``SecretAudit`` found in a fixture.
public enum SecretKind: Sendable, Hashable, CustomStringConvertible {
    /// An `Authorization` or `Proxy-Authorization` header whose value was not redacted.
    case authorizationHeader
    /// A `Cookie` or `Set-Cookie` header (or a HAR cookie) whose value was not redacted.
    case cookie
    /// A header that carries a key by its name (`X-Api-Key`, `X-Auth-Token`, `Api-Key`…) not redacted.
    case apiKeyHeader
    /// `Bearer <token>` anywhere in a fixture.
    case bearerToken
    /// A JSON Web Token (three base64url parts, the first two JSON objects).
    case jsonWebToken
    /// A key of a well-known provider, recognised by its documented format; the provider is named.
    case providerKey(String)
    /// A PEM private key block.
    case privateKey
    /// A password, token or key as the value of a query parameter or a form field (`password=…`).
    case secretParameter
    /// A password, token or key as the value of a JSON field (`"password": "…"`).
    case secretField

    public var description: String {
        switch self {
        case .authorizationHeader: "authorization header not redacted"
        case .cookie: "cookie not redacted"
        case .apiKeyHeader: "API key header not redacted"
        case .bearerToken: "bearer token"
        case .jsonWebToken: "JSON Web Token"
        case .providerKey(let provider): "\(provider) key"
        case .privateKey: "private key"
        case .secretParameter: "secret in a query or form parameter"
        case .secretField: "secret in a JSON field"
        }
    }
}
