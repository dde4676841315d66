#if CommandLineTool
import ArgumentParser
import Foundation
import HTTPMock

/// `--unmocked`: what a request no stub answers gets, as an `UnmockedPolicy`.
struct UnmockedChoice: ExpressibleByArgument {
    let policy: UnmockedPolicy
    let name: String

    init?(argument: String) {
        name = argument.lowercased()
        switch name {
        case "404", "not-found": policy = .notFound
        case "fail", "opt-out": policy = .optOut
        case "offline": policy = .fail(URLError(.notConnectedToInternet))
        case "passthrough": policy = .passthrough
        default:
            guard let code = Int(name), (100...599).contains(code) else { return nil }
            policy = .mock(.plaintext("HTTPMock: no stub answered this request\n", status: .other(code)))
        }
    }

    static var allValueStrings: [String] { ["404", "fail", "offline", "passthrough", "<status>"] }

    static let help: ArgumentHelp = """
        What a request no stub answers gets: 404 (the default, with the near-miss report), fail (500 naming why \
        no stub answered), offline (the connection closes), passthrough (forwarded to --proxy), or any status \
        code such as 503.
        """
}
#endif
