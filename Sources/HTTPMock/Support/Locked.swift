import Foundation
#if os(Linux)
import Synchronization
#endif

/// A value guarded by a lock.
///
/// `Mutex` would do, but it needs macOS 15 / iOS 18; this box keeps older Apple systems supported. On Linux,
/// where `Mutex` has no such limit, the lock is one, stored inline: corelibs' `NSLock` is an object of its own
/// with a mutex allocated apart, and every request makes one of these boxes.
package final class Locked<Value>: @unchecked Sendable {  // reason: every access to `value` goes through the lock
    #if os(Linux)
    private let mutex = Mutex<Void>(())
    #else
    private let lock = NSLock()
    #endif
    // Unchecked exclusivity: only `withLock` touches it, under the lock; the runtime's check would repeat that.
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        #if os(Linux)
        try mutex.withLock { _ in try body(&value) }
        #else
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
        #endif
    }

    package var current: Value { withLock { $0 } }
}
