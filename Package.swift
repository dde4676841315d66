// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "HTTPMock",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        // Ships in app targets (previews, demo modes): depends on nothing, imports no test framework.
        .library(name: "HTTPMock", targets: ["HTTPMock"]),
        // Assertions and Swift Testing traits for test targets.
        .library(name: "HTTPMockTesting", targets: ["HTTPMockTesting"]),
        // A swift-openapi `ClientTransport` answered by a mock. Needs the `OpenAPI` trait (see below).
        .library(name: "HTTPMockOpenAPI", targets: ["HTTPMockOpenAPI"]),
        // The same mocks over real HTTP on 127.0.0.1. Needs the `Server` trait (see below).
        .library(name: "HTTPMockServer", targets: ["HTTPMockServer"]),
        // A mock server from the command line (`httpmock serve <folder>`). Needs the `CommandLineTool` trait:
        //   swift run --traits CommandLineTool httpmock serve <folder>
        .executable(name: "httpmock", targets: ["HTTPMockCLI"]),
    ],
    traits: [
        // All off by default: a package enables one to depend on what it needs, and only then resolves it:
        //   .package(url: "https://github.com/…/HTTPMock", from: "…", traits: ["OpenAPI"])
        // Without its trait a product's module is empty (see .ci/dependency-isolation).
        .trait(
            name: "OpenAPI",
            description: "Builds HTTPMockOpenAPI: a ClientTransport for swift-openapi-generator clients, and mocks from an OpenAPI document (with Yams)."
        ),
        .trait(name: "Server", description: "Builds HTTPMockServer with its SwiftNIO dependency."),
        .trait(
            name: "CommandLineTool",
            description: "Builds the httpmock command-line tool with swift-argument-parser (turns on Server and OpenAPI).",
            enabledTraits: ["Server", "OpenAPI"]
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The interpreters: general languages that the engine and the file formats use, each a module of its own
        // that knows nothing of HTTP mocking. Targets, not products; `package` access only, never API.
        .target(name: "_HTTPMockRegex"),         // regular expressions within a budget of work
        .target(name: "_HTTPMockJSON", dependencies: ["_HTTPMockRegex"]),       // JSON values, JSONPath, JSON Schema (drafts 4 to 2020-12)
        .target(name: "_HTTPMockXML", dependencies: ["_HTTPMockRegex"]),        // an XML tree, XML comparison, XPath 1.0 (FoundationXML on Linux)
        // Handlebars with WireMock's helpers
        .target(name: "_HTTPMockTemplates", dependencies: ["_HTTPMockRegex", "_HTTPMockJSON", "_HTTPMockXML"]),
        .target(name: "HTTPMock", dependencies: ["_HTTPMockRegex", "_HTTPMockJSON", "_HTTPMockXML", "_HTTPMockTemplates"]),
        .target(name: "HTTPMockTesting", dependencies: ["HTTPMock"]),
        // Empty unless the `OpenAPI` trait is on: its sources are inside `#if OpenAPI`.
        .target(
            name: "HTTPMockOpenAPI",
            dependencies: [
                "HTTPMock",
                "_HTTPMockJSON",  // documents are read as JSON values; their schemas checked with JSON Schema
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
                // Reads OpenAPI documents written in YAML (loadOpenAPIDocument).
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        // Empty unless the `Server` trait is on: its sources are inside `#if Server`.
        .target(
            name: "HTTPMockServer",
            dependencies: [
                "HTTPMock",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
            ]
        ),
        // Without the `CommandLineTool` trait it only says how to build the real tool (its sources are inside
        // `#if CommandLineTool`).
        .executableTarget(
            name: "HTTPMockCLI",
            dependencies: [
                "HTTPMock",
                "HTTPMockServer",
                "HTTPMockOpenAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser",
                         condition: .when(traits: ["CommandLineTool"])),
            ]
        ),
        // Its server scene is built with the `Server` trait only (`swift run --traits Server Demo`).
        .executableTarget(name: "Demo", dependencies: ["HTTPMock", "HTTPMockServer"]),
        // Launched by the cross-process journal tests: writes a journal as an app under test would.
        .executableTarget(name: "JournalWriterFixture", dependencies: ["HTTPMock"]),
        // What both test targets share: one way to send a request through a mock and read the reply.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Each interpreter's own tests, run without the engine.
        .testTarget(name: "_HTTPMockRegexTests", dependencies: ["_HTTPMockRegex"]),
        .testTarget(name: "_HTTPMockJSONTests", dependencies: ["_HTTPMockJSON"]),
        .testTarget(name: "_HTTPMockXMLTests", dependencies: ["_HTTPMockXML"]),
        .testTarget(name: "_HTTPMockTemplatesTests", dependencies: ["_HTTPMockTemplates"]),
        .testTarget(
            name: "HTTPMockTests",
            dependencies: ["HTTPMock", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HTTPMockTestingTests",
            dependencies: ["HTTPMockTesting", "JournalWriterFixture", "TestSupport"],
            // Read from beside the source files, as a project's cassettes are (not copied into the bundle).
            exclude: ["Cassettes/Cassettes"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
