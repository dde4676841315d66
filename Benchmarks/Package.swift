// swift-tools-version:6.0
import PackageDescription

// The benchmark harness lives in its own package so that users of HTTPMock never resolve it.
// Run from the repository root:  swift run -c release --package-path Benchmarks HTTPMockBenchmarks
let package = Package(
    name: "HTTPMockBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "HTTPMock", path: "..")],
    targets: [
        .executableTarget(
            name: "HTTPMockBenchmarks",
            dependencies: [.product(name: "HTTPMock", package: "HTTPMock")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
