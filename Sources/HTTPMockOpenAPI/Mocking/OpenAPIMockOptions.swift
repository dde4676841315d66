#if OpenAPI
import Foundation
import HTTPMock

/// How a mock serves an OpenAPI document (``HTTPMock/HTTPMock/loadOpenAPIDocument(from:options:)``).
public struct OpenAPIMockOptions: Sendable {
    /// Where the operations are served: `nil` (the default) under each of the document's `servers` (their host
    /// and base path; a relative server, such as `/v1`, on any host; no servers, the paths on any host); or under
    /// this URL's host and path instead (`https://staging.example.com/v2`).
    public var serverURL: URL?
    /// Refuse requests that break the document (a missing required parameter, a body that does not match its
    /// schema…) with a `422` `application/problem+json` body listing every violation, as Prism does. Default `true`.
    public var validatesRequests: Bool
    /// Which of the possible generated bodies a response without an example gets: the same number gives the same
    /// bodies in every run; another number gives other values. Default 0.
    public var variant: Int

    public init(serverURL: URL? = nil, validatesRequests: Bool = true, variant: Int = 0) {
        self.serverURL = serverURL
        self.validatesRequests = validatesRequests
        self.variant = variant
    }
}
#endif
