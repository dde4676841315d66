// Names of the first release that were renamed or dropped. Each keeps building for one more release, with a
// fix-it where the compiler can apply one. Nothing here is part of the API: new code never uses these names.

import Foundation

// MARK: - Engine, policies and removal

extension LoadedMocks {
    /// Removes the stubs of this load.
    @available(*, deprecated, renamed: "remove()")
    public func unload() { remove() }
}

extension HTTPMock {
    /// Removes the stubs of the Mockingbird bundle loaded last.
    @available(*, deprecated, message: "call remove() on the LoadedMocks that loadMockingbirdBundle(at:) returned")
    public func unloadMockingbirdBundle() { core.engine.removeLoad(inSlot: Self.mockingbirdSlot) }
}

extension JournalObservation {
    /// Stops the observation.
    @available(*, deprecated, renamed: "remove()")
    public func cancel() { remove() }
}
