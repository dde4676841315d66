// swift-tools-version:6.1
import PackageDescription

// Tests of HTTPMockOpenAPI with a client that swift-openapi-generator generates from Tests/…/openapi.yaml (its build
// plugin), and the same requests through URLSessionTransport for comparison. A package of its own, so that users
// of HTTPMock never resolve the generator. It enables HTTPMock's `OpenAPI` trait, as a user of HTTPMockOpenAPI does.
// Run from the repository root: swift test --package-path OpenAPITests
let package = Package(
    name: "HTTPMockOpenAPITests",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "HTTPMock", path: "..", traits: ["OpenAPI"]),
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
    ],
    targets: [
        .testTarget(
            name: "HTTPMockOpenAPITests",
            dependencies: [
                .product(name: "HTTPMock", package: "HTTPMock"),
                .product(name: "HTTPMockTesting", package: "HTTPMock"),
                .product(name: "HTTPMockOpenAPI", package: "HTTPMock"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // Documents the mocks-from-a-document tests read (the generator reads only openapi.yaml).
            exclude: ["Documents"],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
