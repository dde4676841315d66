extension String {
    /// At most `limit` characters, with `…` when cut.
    package func clipped(to limit: Int) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }
}
