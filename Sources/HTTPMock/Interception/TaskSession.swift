import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The configuration of the session a task belongs to, for what URLSession applies to a real request but not to a
/// `URLProtocol`'s (cookies, timeouts).
///
/// There is no public way from a protocol to its session. On Linux the task's internal `session` field is read by
/// reflection (if corelibs renames it, this returns `nil`, and callers fall back to what the request says).
/// On Apple platforms it is `nil`.
enum TaskSession {
    static func configuration(of task: URLSessionTask?) -> URLSessionConfiguration? {
        #if canImport(FoundationNetworking)
        guard let task else { return nil }
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let field = current.children.first(where: { $0.label == "session" })?.value {
                let optional = Mirror(reflecting: field)
                if optional.displayStyle == .optional { return (optional.children.first?.value as? URLSession)?.configuration }
                return (field as? URLSession)?.configuration
            }
            mirror = current.superclassMirror
        }
        #endif
        return nil
    }
}

/// The timeouts URLSession would apply to a request: the smaller of the request's `timeoutInterval` and the
/// configuration's `timeoutIntervalForRequest` for a wait with no data, and the configuration's
/// `timeoutIntervalForResource` for the whole response. A value of zero or less means none.
struct Timeouts: Equatable {
    /// How long the caller waits for the first bytes (and between later ones).
    var idle: TimeInterval
    /// How long the whole response may take.
    var resource: TimeInterval

    init(request: URLRequest, configuration: URLSessionConfiguration?) {
        func limit(_ seconds: TimeInterval?) -> TimeInterval { seconds.flatMap { $0 > 0 ? $0 : nil } ?? .infinity }
        idle = min(limit(request.timeoutInterval), limit(configuration?.timeoutIntervalForRequest))
        resource = limit(configuration?.timeoutIntervalForResource)
    }

    /// When a response whose headers come after `headers` seconds and whose last byte comes after `total` seconds
    /// times out, and which timeout it is; `nil` when it arrives in time.
    func expiry(headers: TimeInterval, total: TimeInterval) -> (after: TimeInterval, name: String)? {
        if headers >= idle, idle <= resource { return (idle, "the request's timeout (timeoutInterval or timeoutIntervalForRequest) of \(idle) s") }
        if total >= resource { return (resource, "the session's timeoutIntervalForResource of \(resource) s") }
        return nil
    }
}
