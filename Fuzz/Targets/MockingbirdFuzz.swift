// Fuzz target "mockingbird": feeds the bytes of a Mockingbird `bundle.json` to the bundle decoder
// (`MockingbirdBundle.definitions(bundle:in:queryMatching:)`, no disk read for the bundle itself), registers what
// it accepts in a fresh engine and asks it about a few requests. Bad input must give an HTTPMockError.
import Foundation

@Sendable func fuzzMockingbirdBundle(_ data: Data) {
    for matching in [QueryMatching.exact, .contains] {
        guard let definitions = try? MockingbirdBundle.definitions(bundle: data, in: FuzzMain.folder, queryMatching: matching) else { return }
        FuzzMain.exercise(definitions)
    }
}
