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
    ],
    traits: [
        // Off by default: only a package that enables it depends on swift-openapi-runtime and swift-http-types.
        //   .package(url: "https://github.com/…/HTTPMock", from: "…", traits: ["OpenAPI"])
        .trait(name: "OpenAPI", description: "Builds HTTPMockOpenAPI, a ClientTransport for swift-openapi-generator clients."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(name: "HTTPMock"),
        .target(name: "HTTPMockTesting", dependencies: ["HTTPMock"]),
        // Empty unless the `OpenAPI` trait is on: its sources are inside `#if OpenAPI`.
        .target(
            name: "HTTPMockOpenAPI",
            dependencies: [
                "HTTPMock",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        .executableTarget(name: "Demo", dependencies: ["HTTPMock"]),
        // Launched by the cross-process journal tests: writes a journal as an app under test would.
        .executableTarget(name: "JournalWriterFixture", dependencies: ["HTTPMock"]),
        // What both test targets share: one way to send a request through a mock and read the reply.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "HTTPMockTests",
            dependencies: ["HTTPMock", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HTTPMockTestingTests",
            dependencies: ["HTTPMockTesting", "JournalWriterFixture", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
