import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gives every mock its own `URLProtocol` class, so a session routes to its mock by the class it lists,
/// with no header, global or task-local involved.
///
/// Distinct classes are made at run time from one generic class: slot `n` is `SlotProtocol<T>` where `T` spells
/// `n` in binary with nested marker types. Slots are never reused, so a session that outlives its mock can never
/// reach a newer mock's stubs.
enum SlotRegistry {
    private struct State {
        var cores: [ObjectIdentifier: MockCore] = [:]
        var nextSlot = 1
    }

    private static let state = Locked(State())

    /// A new protocol class answering for `core`.
    static func allocate(for core: MockCore) -> InterceptingProtocol.Type {
        state.withLock { state in
            let type = slotType(state.nextSlot)
            state.nextSlot += 1
            state.cores[ObjectIdentifier(type)] = core
            return type
        }
    }

    static func release(_ type: InterceptingProtocol.Type) {
        _ = state.withLock { $0.cores.removeValue(forKey: ObjectIdentifier(type)) }
    }

    static func core(for type: InterceptingProtocol.Type) -> MockCore? {
        state.withLock { $0.cores[ObjectIdentifier(type)] }
    }

    private static func slotType(_ number: Int) -> InterceptingProtocol.Type {
        func build<Tag>(_ rest: Int, _: Tag.Type) -> InterceptingProtocol.Type {
            if rest == 0 { return SlotProtocol<Tag>.self }
            return rest & 1 == 1 ? build(rest >> 1, SlotBit1<Tag>.self) : build(rest >> 1, SlotBit0<Tag>.self)
        }
        return build(number, SlotRoot.self)
    }
}

enum SlotRoot {}
enum SlotBit0<Tag> {}
enum SlotBit1<Tag> {}

/// The protocol class of one mock's sessions. Its behaviour is all in ``InterceptingProtocol``.
final class SlotProtocol<Tag>: InterceptingProtocol {
    override class func lookupCore() -> MockCore? { SlotRegistry.core(for: self) }
}
