// swift-tools-version:6.0
import PackageDescription

// Tests that need a real HTTP server on 127.0.0.1. A package of its own, so that users of HTTPMock never resolve
// the server dependency. Run: swift test --package-path IntegrationTests
let package = Package(
    name: "HTTPMockIntegrationTests",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    dependencies: [
        .package(name: "HTTPMock", path: ".."),
        .package(url: "https://github.com/swhitty/FlyingFox.git", exact: "0.27.1"),
    ],
    targets: [
        .testTarget(
            name: "RecordingTests",
            dependencies: [
                .product(name: "HTTPMock", package: "HTTPMock"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
