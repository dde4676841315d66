#if !canImport(FoundationNetworking)
import Foundation

extension InterceptingProtocol {
    /// Returns a function that delivers a plan later, from any thread.
    ///
    /// Apple's URL loading system accepts client calls from the callback's thread, as other URLProtocol-based
    /// libraries rely on; the stopped flag (checked in `deliver`) keeps a cancelled request silent.
    func reentry() -> @Sendable (Plan) -> Void {
        let protocolInstance = UncheckedSendable(self)
        return { plan in protocolInstance.value.deliver(plan) }
    }
}

/// Carries the protocol into a callback.
struct UncheckedSendable<Value>: @unchecked Sendable {  // reason: URLProtocol is not Sendable; its mutable state is behind `progress`'s lock
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif
