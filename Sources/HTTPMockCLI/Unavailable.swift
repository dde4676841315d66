#if !CommandLineTool
import Foundation

/// The tool built without its trait: says how to build it and fails, so that a script notices.
@main
enum Unavailable {
    static func main() {
        let text = """
        httpmock needs the CommandLineTool trait, which builds it with swift-argument-parser and SwiftNIO:
            swift run --traits CommandLineTool httpmock serve <folder>

        """
        FileHandle.standardError.write(Data(text.utf8))
        exit(64)
    }
}
#endif
