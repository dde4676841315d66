// Fuzz target "wiremock": feeds the bytes of one WireMock mapping file (one mapping, or {"mappings": […]}) to
// `WireMockStubMapping.mappings(in:source:)`, turns what it accepts into stubs (body files read from the fuzz folder)
// and asks a fresh engine about a few requests (which renders templates and evaluates JSONPath and regular
// expressions). A mapping that reads must register or be refused with an error, never crash.
import Foundation

@Sendable func fuzzWireMockMappings(_ data: Data) {
    guard let mappings = try? WireMockStubMapping.mappings(in: data, source: "fuzz.json") else { return }
    let files = WireMockResponse.Files.folder(FolderPath(root: FuzzMain.folder))
    var definitions: [Engine.Definition] = []
    for mapping in mappings {
        guard let definition = try? mapping.definition(files: files, globalTemplating: true) else { return }
        definitions.append(definition)
    }
    FuzzMain.exercise(definitions)
}
