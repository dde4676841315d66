/// A mock's stubs by identifier.
///
/// Identifiers are handed out in order (0, 1, 2…), so the table is an array indexed by them rather than a
/// dictionary, and each stub sits in its own small box so the array holds one pointer per stub (a table of
/// 100,000 inline stubs would double its 18 MB buffer as it grows). Reads and writes look like a dictionary's:
/// `table[id]`, `table[id] = nil`, `table[id]!.hits += 1`. Only the ``Router`` that owns a table changes it, and
/// it is read under the engine's lock like the router: a copy of the table shares the boxes, not the stubs' values.
struct StubTable {
    private final class Box {
        // Unchecked exclusivity: the table is only used under the engine's lock, which serialises every access.
        @exclusivity(unchecked) var stub: Stub?
        init(_ stub: Stub) { self.stub = stub }
    }

    private var slots: [Box?] = []
    /// The identifier stored in `slots[0]`: after ``Router/removeAll()`` the table starts again at the next one.
    private let firstID: Int
    private(set) var count = 0

    init(firstID: Int = 0) { self.firstID = firstID }

    subscript(id: StubID) -> Stub? {
        get {
            let index = id.rawValue - firstID
            return slots.indices.contains(index) ? slots[index]?.stub : nil
        }
        _modify {
            let index = id.rawValue - firstID
            if index < 0 {
                // An identifier from before the last `removeAll`: nothing is stored for it, and nothing can be.
                var none: Stub?
                yield &none
                return
            }
            if index >= slots.count { slots.append(contentsOf: repeatElement(nil, count: index - slots.count + 1)) }
            let box = slots[index]
            // Moved out of the box (not copied), so changing its queue does not copy the queue.
            var value = box?.stub
            box?.stub = nil
            yield &value
            switch (box, value) {
            case (let box?, let value?): box.stub = value
            case (.some, nil): slots[index] = nil; count -= 1
            case (nil, let value?): slots[index] = Box(value); count += 1
            case (nil, nil): break
            }
        }
    }

    /// The box of stub `id`, if it is stored: the request path reads and changes stubs through it in place, since
    /// `table[id]` copies a whole stub (its queue, conditions and strings) and its `_modify` allocates a frame.
    private func box(_ id: StubID) -> Box? {
        let index = id.rawValue - firstID
        return slots.indices.contains(index) ? slots[index] : nil
    }

    /// Whether stub `id` is stored and enabled.
    func isEnabled(_ id: StubID) -> Bool { box(id)?.stub?.isEnabled == true }

    /// Whether stub `id` is stored and has a condition that runs user code.
    func hasUserCode(_ id: StubID) -> Bool { box(id)?.stub?.hasUserCode == true }

    /// The conditions of stub `id` if it is stored and enabled.
    func enabledConditions(_ id: StubID) -> [Condition]? {
        guard let box = box(id), box.stub?.isEnabled == true else { return nil }
        return box.stub?.conditions
    }

    /// What the router ranks candidate `id` by: the port its host pattern requires and its specificity.
    func ranking(_ id: StubID) -> (port: Int?, specificity: Specificity)? {
        guard let box = box(id), let specificity = box.stub?.specificity else { return nil }
        return (box.stub?.host?.port, specificity)
    }

    /// Changes stub `id` in place, if it is stored (never removes it: use `table[id] = nil`).
    @discardableResult
    func update<R>(_ id: StubID, _ body: (inout Stub) -> R) -> R? {
        guard let box = box(id), box.stub != nil else { return nil }
        return body(&box.stub!)
    }

    /// Every stub, oldest first.
    var values: some Sequence<Stub> {
        slots.lazy.compactMap { $0?.stub }
    }

    /// The stubs from the `offset`-th stored one on, oldest first. A slot holds a box exactly while it holds a stub,
    /// so the stubs before are skipped by their slots alone, never read (a listing's last page of 100,000 stubs
    /// does not copy the 99,900 before it under the engine's lock).
    func values(from offset: Int) -> some Sequence<Stub> {
        var start = slots.count
        if count == slots.count {
            start = min(max(0, offset), slots.count)
        } else {
            var seen = 0
            for index in slots.indices where slots[index] != nil {
                if seen == offset {
                    start = index
                    break
                }
                seen += 1
            }
        }
        return slots[start...].lazy.compactMap { $0?.stub }
    }

    var isEmpty: Bool { count == 0 }
}
