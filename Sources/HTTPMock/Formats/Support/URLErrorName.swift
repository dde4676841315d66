import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLError` codes by the names Swift gives them (`notConnectedToInternet`), for files that describe failures.
enum URLErrorName {
    static let codes: [(String, URLError.Code)] = [
        ("cancelled", .cancelled),
        ("badURL", .badURL),
        ("timedOut", .timedOut),
        ("unsupportedURL", .unsupportedURL),
        ("cannotFindHost", .cannotFindHost),
        ("cannotConnectToHost", .cannotConnectToHost),
        ("networkConnectionLost", .networkConnectionLost),
        ("dnsLookupFailed", .dnsLookupFailed),
        ("httpTooManyRedirects", .httpTooManyRedirects),
        ("resourceUnavailable", .resourceUnavailable),
        ("notConnectedToInternet", .notConnectedToInternet),
        ("redirectToNonExistentLocation", .redirectToNonExistentLocation),
        ("badServerResponse", .badServerResponse),
        ("userCancelledAuthentication", .userCancelledAuthentication),
        ("userAuthenticationRequired", .userAuthenticationRequired),
        ("zeroByteResource", .zeroByteResource),
        ("cannotDecodeRawData", .cannotDecodeRawData),
        ("cannotDecodeContentData", .cannotDecodeContentData),
        ("cannotParseResponse", .cannotParseResponse),
        ("appTransportSecurityRequiresSecureConnection", .appTransportSecurityRequiresSecureConnection),
        ("fileDoesNotExist", .fileDoesNotExist),
        ("noPermissionsToReadFile", .noPermissionsToReadFile),
        ("dataLengthExceedsMaximum", .dataLengthExceedsMaximum),
        ("secureConnectionFailed", .secureConnectionFailed),
        ("serverCertificateHasBadDate", .serverCertificateHasBadDate),
        ("serverCertificateUntrusted", .serverCertificateUntrusted),
        ("serverCertificateHasUnknownRoot", .serverCertificateHasUnknownRoot),
        ("serverCertificateNotYetValid", .serverCertificateNotYetValid),
        ("clientCertificateRejected", .clientCertificateRejected),
        ("clientCertificateRequired", .clientCertificateRequired),
        ("cannotLoadFromNetwork", .cannotLoadFromNetwork),
        ("internationalRoamingOff", .internationalRoamingOff),
        ("callIsActive", .callIsActive),
        ("dataNotAllowed", .dataNotAllowed),
        ("requestBodyStreamExhausted", .requestBodyStreamExhausted),
        ("backgroundSessionWasDisconnected", .backgroundSessionWasDisconnected),
    ]

    private static let byName: [String: URLError.Code] = Dictionary(codes.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a })
    private static let byCode: [Int: String] = Dictionary(codes.map { ($0.1.rawValue, $0.0) }, uniquingKeysWith: { a, _ in a })

    /// The code for a name (case-insensitive) or a number written as text (`"-1009"`).
    static func code(named name: String) -> URLError.Code? {
        if let number = Int(name) { return URLError.Code(rawValue: number) }
        return byName[name.lowercased()]
    }

    /// The name of a code, or its number.
    static func name(of code: URLError.Code) -> String {
        byCode[code.rawValue] ?? String(code.rawValue)
    }

    /// Names that start like `name`, for an error message.
    static func suggestions(for name: String) -> String {
        let prefix = name.lowercased().prefix(3)
        let close = codes.map(\.0).filter { $0.lowercased().hasPrefix(prefix) }
        return (close.isEmpty ? ["notConnectedToInternet", "timedOut", "cannotConnectToHost", "networkConnectionLost"] : close)
            .joined(separator: ", ")
    }

    /// The name of any error for a file: a `URLError`'s code name, else its description.
    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError { return name(of: error.code) }
        return "\(error)"
    }
}
