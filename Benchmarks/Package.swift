// swift-tools-version:6.1
import PackageDescription

// The benchmark harness lives in its own package so that users of HTTPMock never resolve it.
// Run from the repository root:  swift run -c release --package-path Benchmarks HTTPMockBenchmarks
// Instructions per request (callgrind):  Benchmarks/instructions
// It enables HTTPMock's `OpenAPI` trait to compare HTTPMockOpenAPI's transport with URLSessionTransport.
let package = Package(
    name: "HTTPMockBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "HTTPMock", path: "..", traits: ["OpenAPI"]),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
    ],
    targets: [
        // What both executables share: the floor URLProtocol, the stub sets, the 1 KiB response.
        .target(name: "BenchmarkFixtures", dependencies: [.product(name: "HTTPMock", package: "HTTPMock")]),
        .executableTarget(
            name: "HTTPMockBenchmarks",
            dependencies: [
                "BenchmarkFixtures", .product(name: "HTTPMock", package: "HTTPMock"),
                .product(name: "HTTPMockOpenAPI", package: "HTTPMock"), "OpenAPIBench",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Instructions and heap blocks per request, under valgrind: see `Benchmarks/instructions`.
        .executableTarget(
            name: "HTTPMockInstructions",
            dependencies: ["BenchmarkFixtures", .product(name: "HTTPMock", package: "HTTPMock")]
        ),
        // The client generated from OpenAPITests' openapi.yaml (committed: see Generated/README.md) and the three
        // transports the openapi section compares.
        .target(
            name: "OpenAPIBench",
            dependencies: [
                .product(name: "HTTPMockOpenAPI", package: "HTTPMock"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Generated/README.md"]
        ),
        // Runs N requests through one transport without top-level `await` (valgrind 3.19 crashes under
        // `dispatch_main()`), for `valgrind --tool=callgrind`: see docs/performance.md.
        .executableTarget(name: "OpenAPIInstructions", dependencies: ["OpenAPIBench"]),
    ],
    swiftLanguageModes: [.v6]
)
