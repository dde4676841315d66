/// A stub's responses, served first in, first out. Each stays at the head for its lifetime's servings.
struct ResponseQueue: Sendable {
    private struct Entry: Sendable {
        var response: MockResponse
        /// `nil`: eternal.
        var remaining: Int?
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    mutating func append(_ response: MockResponse) {
        entries.append(Entry(response: response, remaining: response.lifetime.servings))
    }

    /// The response at the head, used up by one serving.
    mutating func next() -> MockResponse? {
        guard !entries.isEmpty else { return nil }
        let response = entries[0].response
        if let remaining = entries[0].remaining {
            if remaining <= 1 { entries.removeFirst() } else { entries[0].remaining = remaining - 1 }
        }
        return response
    }
}
