import Foundation

/// What a WireMock `fault` puts on the socket, where the `URLError` a client in process gets does not say it alone:
/// carried in the error's `userInfo`, so a server face writes what WireMock writes. Visible to the package's modules
/// only.
package enum WireFault: String, Sendable {
    /// `EMPTY_RESPONSE`: the connection closes in order (FIN, no reset) before any byte of a response.
    case emptyResponse
    /// `MALFORMED_RESPONSE_CHUNK`: a `200` head announcing a chunked body, then bytes that are no chunk, then a close.
    case malformedChunk
    /// `RANDOM_DATA_THEN_CLOSE`: bytes that are no status line, then a close.
    case randomData

    /// The `userInfo` key of the error that carries the fault.
    private static let key = "HTTPMockWireFault"

    /// The error a client in process fails with, marked with this fault for a server face.
    /// - Parameter code: the `URLError` code the caller in process gets.
    package func error(_ code: URLError.Code) -> URLError {
        URLError(code, userInfo: [Self.key: rawValue, NSLocalizedDescriptionKey: "HTTPMock: the stub's fault \(rawValue)"])
    }

    /// The fault `error` carries, if it is one this type made.
    /// - Parameter error: a failure the engine decided.
    package init?(_ error: any Error) {
        guard let raw = (error as? URLError)?.userInfo[Self.key] as? String, let fault = WireFault(rawValue: raw) else { return nil }
        self = fault
    }
}
