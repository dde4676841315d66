import Foundation

/// A request a stub sent after its response (a WireMock mapping's webhook), kept with the entry of the request that
/// triggered it: where it went and what came back.
public struct WebhookRecord: Sendable, Hashable {
    /// `POST`, `PUT`…
    public let method: String
    /// The URL it was sent to, filled from the request (or the text that was not a URL).
    public let url: String
    /// The status the target answered with; `nil` when it was not sent or failed.
    public let status: Int?
    /// Why it was not sent (a host beyond this machine that is not allowed, not a URL) or how it failed.
    public let error: String?
    /// When it completed.
    public let completedAt: Date

    public init(method: String, url: String, status: Int?, error: String?, completedAt: Date = Date()) {
        self.method = method
        self.url = url
        self.status = status
        self.error = error
        self.completedAt = completedAt
    }
}
