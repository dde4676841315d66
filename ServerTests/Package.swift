// swift-tools-version:6.1
import PackageDescription

// Tests of HTTPMockServer with real clients (URLSession without interception, AsyncHTTPClient, curl). A package of
// its own, like IntegrationTests: it turns on the root package's `Server` trait and adds AsyncHTTPClient, neither of
// which users of HTTPMock resolve. Run: swift test --package-path ServerTests
let package = Package(
    name: "HTTPMockServerTests",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "HTTPMock", path: "..", traits: ["Server", "CommandLineTool"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    ],
    targets: [
        // Serves for wrk (bench): an HTTPMockServer with N stubs, or a bare SwiftNIO server as the floor.
        .executableTarget(
            name: "ServerBench",
            dependencies: [
                .product(name: "HTTPMock", package: "HTTPMock"),
                .product(name: "HTTPMockServer", package: "HTTPMock"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Plays the app under UI test in another process: requests what its standard input names from the base URL
        // in its environment, and prints what it got.
        .executableTarget(name: "AppUnderTest"),
        .testTarget(
            name: "HTTPMockServerTests",
            dependencies: [
                // Launched by the cross-process tests, so built before them.
                "AppUnderTest",
                .product(name: "httpmock", package: "HTTPMock"),
                .product(name: "HTTPMock", package: "HTTPMock"),
                .product(name: "HTTPMockTesting", package: "HTTPMock"),
                .product(name: "HTTPMockServer", package: "HTTPMock"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
