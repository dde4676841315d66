// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HTTPMock",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        // Ships in app targets (previews, demo modes): depends on nothing, imports no test framework.
        .library(name: "HTTPMock", targets: ["HTTPMock"]),
        // Assertions and Swift Testing traits for test targets.
        .library(name: "HTTPMockTesting", targets: ["HTTPMockTesting"]),
    ],
    targets: [
        .target(name: "HTTPMock"),
        .target(name: "HTTPMockTesting", dependencies: ["HTTPMock"]),
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
