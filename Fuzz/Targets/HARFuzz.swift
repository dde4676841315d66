// Fuzz target "har": feeds the bytes of a HAR file to the HAR decoder (`DefinitionFile.decode(HAR.self, …)`),
// turns what it accepts into replay stubs (`HAR.definitions`, with and without body matching), registers them in
// a fresh engine and asks it about a few requests. A decoded HAR must also survive encode → decode.
import Foundation

@Sendable func fuzzHAR(_ data: Data) {
    guard let har = try? DefinitionFile.decode(HAR.self, from: data, name: "fuzz.har") else { return }
    for options in [HARReplayOptions(), HARReplayOptions(matchesBody: false, repeatsLast: false, replaysTiming: true)] {
        if let definitions = try? har.definitions(options: options, name: "fuzz.har") { FuzzMain.exercise(definitions) }
    }
    if (try? DefinitionFile.decode(HAR.self, from: har.jsonData(), name: "re-encoded.har")) == nil {
        fatalError("a HAR that decoded does not decode again after encoding")
    }
}
