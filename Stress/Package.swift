// swift-tools-version:6.0
import PackageDescription

// The stress runner: its own package so that library users never resolve or build it.
let package = Package(
    name: "HTTPMockStress",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "HTTPMock", path: "..")],
    targets: [
        .executableTarget(name: "HTTPMockStress", dependencies: [.product(name: "HTTPMock", package: "HTTPMock")]),
    ],
    swiftLanguageModes: [.v6]
)
