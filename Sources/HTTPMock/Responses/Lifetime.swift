extension MockResponse {
    /// How many times a queued response is served before it leaves its queue.
    public enum Lifetime: Sendable, Hashable {
        /// Served once. The default.
        case single
        /// Served this many times (at least 1).
        case multiple(Int)
        /// Never leaves the queue: every later request gets it, and responses queued behind it are never reached.
        case eternal

        /// The number of servings, or `nil` for ``eternal``.
        var servings: Int? {
            switch self {
            case .single: 1
            case .multiple(let count): count
            case .eternal: nil
            }
        }
    }
}
