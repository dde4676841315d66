#if OpenAPI
import Foundation
import HTTPMock
import _HTTPMockJSON

/// What an operation's `security` asks of a request, as Prism checks it: any one of its requirements, each with all
/// of its schemes' credentials present (their values are not checked: a mock has no one to ask).
struct SecurityContract: Sendable {
    /// Where a scheme's credential travels.
    enum Credential: Sendable, Equatable {
        /// An `apiKey` scheme: a header, query item or cookie of this name.
        case apiKey(name: String, location: ParameterContract.Location)
        /// An `http` scheme (`basic`, `bearer`, `digest`…), or `oauth2` and `openIdConnect` (`bearer`): an
        /// `Authorization` header with this scheme, lower-cased.
        case authorization(scheme: String)
        /// What a request cannot show (`mutualTLS`, a scheme the document does not define): taken as present.
        case unchecked
    }

    struct Scheme: Sendable {
        /// As `components.securitySchemes` names it.
        let name: String
        let credential: Credential
    }

    /// The requirements, any one of which is enough; an empty one (`{}`) asks for nothing.
    let requirements: [[Scheme]]

    func isSatisfied(by request: CapturedRequest) -> Bool {
        requirements.contains { requirement in requirement.allSatisfy { Self.carries(request, $0.credential) } }
    }

    private static func carries(_ request: CapturedRequest, _ credential: Credential) -> Bool {
        switch credential {
        case .unchecked:
            return true
        case .authorization(let scheme):
            return request.headers.values(for: "Authorization").contains { value in
                let token = value.split(separator: " ", maxSplits: 1).first.map { $0.lowercased() }
                return token == scheme && value.count > scheme.count + 1
            }
        case .apiKey(let name, .header):
            return !request.headers.values(for: name).isEmpty
        case .apiKey(let name, .query):
            return !request.queryValues(for: name).isEmpty
        case .apiKey(let name, .cookie):
            return request.headers.values(for: "Cookie").contains { header in
                header.split(separator: ";").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + "=") }
            }
        case .apiKey(_, .path):
            return true
        }
    }

    /// The `WWW-Authenticate` challenges of its `Authorization` schemes (`Basic realm="api"`, `Bearer`), in order.
    var challenges: [String] {
        var seen: [String] = []
        for case .authorization(let scheme) in requirements.joined().map(\.credential) where !seen.contains(scheme) {
            seen.append(scheme)
        }
        return seen.map { scheme in
            let name = scheme.prefix(1).uppercased() + scheme.dropFirst()
            return scheme == "basic" ? "\(name) realm=\"api\"" : name
        }
    }

    /// What would satisfy it, for the refusal's `detail`: `an Authorization: Bearer header (bearerAuth), or the
    /// header X-API-Key (apiKey)`.
    var wanted: String {
        requirements.map { requirement in
            requirement.map { scheme -> String in
                switch scheme.credential {
                case .authorization(let name): "an Authorization: \(name.prefix(1).uppercased() + name.dropFirst()) header (\(scheme.name))"
                case .apiKey(let key, let location): "the \(location.rawValue) \(key) (\(scheme.name))"
                case .unchecked: scheme.name
                }
            }.joined(separator: " and ")
        }.joined(separator: ", or ")
    }
}

extension DocumentReader {
    /// Reads `components.securitySchemes` into the credential each asks for; a scheme that cannot be read is a
    /// warning (requests are not checked for it), never a reason to refuse the document.
    mutating func readSecuritySchemes(_ value: JSONValue?) -> [String: SecurityContract.Credential] {
        var schemes: [String: SecurityContract.Credential] = [:]
        for (name, scheme) in value?.members ?? [:] {
            let pointer = JSONPointer.child("/components/securitySchemes", name)
            guard let (scheme, place) = resolve(scheme, at: pointer) else { continue }
            switch scheme["type"]?.text {
            case "apiKey":
                guard let key = scheme["name"]?.text, let location = scheme["in"]?.text.flatMap(ParameterContract.Location.init),
                      location != .path else {
                    warn(place, "an apiKey scheme needs a \"name\" and \"in\" (header, query or cookie); requests are not checked for it")
                    schemes[name] = .unchecked
                    continue
                }
                schemes[name] = .apiKey(name: key, location: location)
            case "http":
                guard let kind = scheme["scheme"]?.text, !kind.isEmpty else {
                    warn(place, "an http scheme needs a \"scheme\" (basic, bearer…); requests are not checked for it")
                    schemes[name] = .unchecked
                    continue
                }
                schemes[name] = .authorization(scheme: kind.lowercased())
            case "oauth2", "openIdConnect":
                schemes[name] = .authorization(scheme: "bearer")
            default:
                schemes[name] = .unchecked
            }
        }
        return schemes
    }

    /// Reads a `security` list (the document's, or an operation's own) against the schemes.
    mutating func readSecurity(_ value: JSONValue, at pointer: String,
                               schemes: [String: SecurityContract.Credential]) -> SecurityContract? {
        guard let list = value.elements else {
            warn(pointer, "\"security\" must be a list of requirements ({\"bearerAuth\": []}); requests are not checked")
            return nil
        }
        var requirements: [[SecurityContract.Scheme]] = []
        for (index, requirement) in list.enumerated() {
            guard let members = requirement.members else { continue }
            requirements.append(members.keys.sorted().map { name in
                if let credential = schemes[name] { return SecurityContract.Scheme(name: name, credential: credential) }
                warn(JSONPointer.child(pointer, String(index)),
                     "the requirement names the security scheme \"\(name)\", which components.securitySchemes does not define; requests are not checked for it")
                return SecurityContract.Scheme(name: name, credential: .unchecked)
            })
        }
        // No requirement, or one that asks for nothing: nothing to check.
        guard !requirements.isEmpty, !requirements.contains(where: { $0.isEmpty }) else { return nil }
        return SecurityContract(requirements: requirements)
    }
}
#endif
