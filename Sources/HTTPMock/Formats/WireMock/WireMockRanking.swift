/// How WireMock mappings of the same `priority` rank against each other when several match a request.
public enum WireMockRanking: Sendable, Hashable {
    /// HTTPMock's rule, as for every stub: the most specific answers (fewer wildcards, more literal characters in
    /// the path, more conditions), then the later registration. Mappings rank among the stubs registered in code.
    /// The default in process: a folder overlaps the stubs a test adds, and the more specific should answer.
    case specificity
    /// WireMock's rule: the most recently added mapping answers, however specific the others are (in a folder, the
    /// later file in path order, and the later mapping of a file). At the same priority, these mappings rank before
    /// stubs that are not ranked this way. What `httpmock serve` does with a WireMock folder, so that a folder
    /// answers as WireMock answers it.
    case mostRecentlyAdded
}
