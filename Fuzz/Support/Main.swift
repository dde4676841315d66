// The libFuzzer entry point shared by every target in Fuzz/Targets/. Fuzz/run builds the library's sources, this
// file and all targets into ONE binary (one build instead of one per target) and picks the target with the
// environment variable HTTPMOCK_FUZZ_TARGET (pattern, template, mockingbird, mapping, har, wiremock, messages).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzMain.target(Data(bytes: data, count: size))
    return 0
}

enum FuzzMain {
    static let targets: [String: @Sendable (Data) -> Void] = [
        "pattern": fuzzPatterns,
        "template": fuzzTemplates,
        "mockingbird": fuzzMockingbirdBundle,
        "mapping": fuzzMappingFile,
        "har": fuzzHAR,
        "wiremock": fuzzWireMockMappings,
        "messages": fuzzMessageMappings,
    ]

    static let target: @Sendable (Data) -> Void = {
        let name = ProcessInfo.processInfo.environment["HTTPMOCK_FUZZ_TARGET"] ?? ""
        guard let target = targets[name] else {
            fatalError("set HTTPMOCK_FUZZ_TARGET to one of \(targets.keys.sorted().joined(separator: ", ")) (got \"\(name)\")")
        }
        return target
    }()

    /// A folder made once per process with the files the seeds name (`ip.json`, `data/anything.csv`,
    /// `bodies/user.json`, `bodies/logo.png`), so fuzzed definitions can point at real files.
    static let folder: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("httpmock-fuzz-\(getpid())")
        let files = ["ip.json": "{\"origin\": \"127.0.0.1\"}", "data/anything.csv": "a,b\n1,2\n",
                     "bodies/user.json": "{\"id\": \"{{path.id}}\", \"name\": \"Ann\"}", "bodies/logo.png": "PNG"]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: url)
        }
        return root.standardizedFileURL
    }()

    /// Requests every loaded definition is asked about: the loaded stubs must answer or refuse, never crash.
    static let requests: [CapturedRequest] = [
        "https://httpbin.org/ip", "https://httpbin.org/anything?page=2&session=x", "https://api.example.com/users/42",
        "https://api.example.com/search?q=swift&tag=a&tag=b&page=1&debug", "http://example.com/", "https://example.com:8443/a/b/c?x=1",
    ].map { CapturedRequest(url: URL(string: $0)!) }

    /// Registers `definitions` in a fresh engine and asks it about every request in `requests`.
    static func exercise(_ definitions: [Engine.Definition]) {
        let engine = Engine()
        guard (try? engine.register(definitions)) != nil else {
            // A refused registration leaves nothing behind.
            if !engine.stubUsage.isEmpty { fatalError("a refused registration left stubs behind") }
            return
        }
        for request in requests { _ = engine.decide(request) }
        let post = CapturedRequest(method: "POST", url: URL(string: "https://api.example.com/users")!,
                                   headers: ["Authorization": "Bearer x", "Content-Type": "application/json"],
                                   body: Data("{\"name\":\"Ann\",\"admin\":false}".utf8))
        _ = engine.decide(post)
    }
}
