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
        // The same mocks over real HTTP on 127.0.0.1. Its SwiftNIO dependency is built only with the `Server` trait:
        // `.package(url: …, from: …, traits: ["Server"])`. Without it the module is empty.
        .library(name: "HTTPMockServer", targets: ["HTTPMockServer"]),
    ],
    traits: [
        .trait(name: "Server", description: "Builds HTTPMockServer with its SwiftNIO dependency."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Used only by HTTPMockServer, only under the `Server` trait (see .ci/dependency-isolation).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    ],
    targets: [
        .target(name: "HTTPMock"),
        .target(name: "HTTPMockTesting", dependencies: ["HTTPMock"]),
        .target(
            name: "HTTPMockServer",
            dependencies: [
                "HTTPMock",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["Server"])),
            ]
        ),
        .executableTarget(name: "Demo", dependencies: ["HTTPMock"]),
        // Launched by the cross-process journal tests: writes a journal as an app under test would.
        .executableTarget(name: "JournalWriterFixture", dependencies: ["HTTPMock"]),
        .testTarget(
            name: "HTTPMockTests",
            dependencies: ["HTTPMock"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "HTTPMockTestingTests",
            dependencies: ["HTTPMockTesting", "JournalWriterFixture"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
