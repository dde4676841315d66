/// A stub's responses, served first in, first out. Each stays at the head for its lifetime's servings.
///
/// The head is stored inline: most stubs queue one response, and an array for it would be an allocation of its
/// own per stub (about 5 MB at 100,000 stubs).
struct ResponseQueue: Sendable {
    private struct Entry: Sendable {
        var response: MockResponse
        /// `nil`: eternal.
        var remaining: Int?
    }

    /// `nil` only when the queue is empty.
    private var head: Entry?
    private var rest: [Entry] = []

    var isEmpty: Bool { head == nil }
    var count: Int { head == nil ? 0 : 1 + rest.count }
    /// Whether an eternal response is queued, so the stub never runs out.
    var servesForever: Bool {
        guard let head else { return false }
        return head.remaining == nil || rest.contains { $0.remaining == nil }
    }

    /// The queued responses, the head first.
    var responses: [MockResponse] {
        guard let head else { return [] }
        return [head.response] + rest.map(\.response)
    }

    mutating func append(_ response: MockResponse) {
        let entry = Entry(response: response, remaining: response.lifetime.servings)
        if head == nil { head = entry } else { rest.append(entry) }
    }

    /// The response at the head, used up by one serving. One that stays for more servings keeps its wire form,
    /// built at its first.
    mutating func next() -> MockResponse? {
        guard var first = head else { return nil }
        if first.remaining != 1, first.response.wire == nil {
            first.response = first.response.withWireForm()
            head = first
        }
        if let remaining = first.remaining {
            if remaining <= 1 {
                head = rest.isEmpty ? nil : rest.removeFirst()
            } else {
                head!.remaining = remaining - 1
            }
        }
        return first.response
    }
}
