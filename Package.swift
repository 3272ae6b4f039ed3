// swift-tools-version:6.1
// Tagflow: a static site generator for blogs with tags, and the flow-layout, font-metrics and
// chip libraries behind it.

import Foundation
import PackageDescription

// One set of settings for every target (STYLE.md B1).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

var products: [Product] = [
    // -- products --
    .library(name: "TagflowMetrics", targets: ["TagflowMetrics"]),
]

var dependencies: [Package.Dependency] = [
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // -- dependencies --
]

var targets: [Target] = [
    // -- targets --
    .target(name: "TagflowMetrics", swiftSettings: swiftSettings),
    .executableTarget(name: "MetricsDev", dependencies: ["TagflowMetrics"], path: "Dev/MetricsDev"),
    .testTarget(
        name: "TagflowMetricsTests",
        dependencies: ["TagflowMetrics"],
        resources: [.copy("Fixtures")],
        swiftSettings: swiftSettings
    ),
]

let package = Package(
    name: "tagflow",
    platforms: [.macOS(.v15)],
    products: products,
    dependencies: dependencies,
    targets: targets,
    swiftLanguageModes: [.v6]
)
