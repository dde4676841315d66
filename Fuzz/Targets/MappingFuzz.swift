// Fuzz target "mapping": feeds the bytes of one `*.mock.json` mapping file to the mapping decoder
// (`DefinitionFile.decode(MappingFile.self, from: Data, …)` then `MappingFile.definitions`), registers what it
// accepts in a fresh engine and asks it about a few requests (which renders body templates).
import Foundation

@Sendable func fuzzMappingFile(_ data: Data) {
    let name = "fuzz.mock.json"
    guard let mapping = try? DefinitionFile.decode(MappingFile.self, from: data, name: name) else { return }
    let folder = FuzzMain.folder
    guard let definitions = try? mapping.definitions(folder: folder, files: FolderPath(root: folder), name: name) else { return }
    FuzzMain.exercise(definitions)
}
