extension Condition {
    /// WireMock's `priority` (1 is the highest, 5 the default; a lower number wins) as a ``Condition/precedence``
    /// of `5 - priority`: priority 5 ranks with everything else (specificity decides), 1 to 4 rank above every
    /// other stub, 6 and more below. It tests nothing and weighs nothing.
    static func wireMockPriority(_ priority: Int) -> Condition {
        Condition(key: "priority:\(priority)", weight: 0, summary: "priority \(priority)", precedence: 5 - priority) { _ in true }
    }
}
