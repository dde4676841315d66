// swift-tools-version:6.0
import PackageDescription

// The benchmark harness lives in its own package so that users of HTTPMock never resolve it.
// Run from the repository root:  swift run -c release --package-path Benchmarks HTTPMockBenchmarks
// Instructions per request (callgrind):  Benchmarks/instructions
let package = Package(
    name: "HTTPMockBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "HTTPMock", path: "..")],
    targets: [
        // What both executables share: the floor URLProtocol, the stub sets, the 1 KiB response.
        .target(name: "BenchmarkFixtures", dependencies: [.product(name: "HTTPMock", package: "HTTPMock")]),
        .executableTarget(
            name: "HTTPMockBenchmarks",
            dependencies: ["BenchmarkFixtures", .product(name: "HTTPMock", package: "HTTPMock")]
        ),
        // Instructions and heap blocks per request, under valgrind: see `Benchmarks/instructions`.
        .executableTarget(
            name: "HTTPMockInstructions",
            dependencies: ["BenchmarkFixtures", .product(name: "HTTPMock", package: "HTTPMock")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
