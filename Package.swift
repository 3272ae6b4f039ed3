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
    .library(name: "TagflowLayout", targets: ["TagflowLayout"]),
    .library(name: "TagflowMetrics", targets: ["TagflowMetrics"]),
    .library(name: "TagflowChips", targets: ["TagflowChips"]),
    .library(name: "TagflowEnhance", targets: ["TagflowEnhance"]),
    .executable(name: "tagflow", targets: ["tagflow"]),
    .library(name: "TagflowMarkdown", targets: ["TagflowMarkdown"]),
    .library(name: "TagflowCore", targets: ["TagflowCore"]),
    .library(name: "TagflowChipPlugin", targets: ["TagflowChipPlugin"]),
    // `swift package tagflow build` and `swift package tagflow-serve` in a package that holds a blog.
    .plugin(name: "TagflowPlugin", targets: ["TagflowPlugin"]),
    .plugin(name: "TagflowServePlugin", targets: ["TagflowServePlugin"]),
]

var dependencies: [Package.Dependency] = [
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // -- dependencies --
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
]

var targets: [Target] = [
    // -- targets --
    .target(name: "TagflowLayout", swiftSettings: swiftSettings),
    .testTarget(
        name: "TagflowLayoutTests",
        dependencies: [
            "TagflowLayout",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ],
        swiftSettings: swiftSettings
    ),
    .target(name: "TagflowMetrics", dependencies: ["TagflowConcurrency"], swiftSettings: swiftSettings),
    .testTarget(
        name: "TagflowMetricsTests",
        dependencies: ["TagflowMetrics"],
        resources: [.copy("Fixtures")],
        swiftSettings: swiftSettings
    ),
    // Byte scans of text with vector instructions: the words of a post (its reading time), the
    // bytes HTML escaping replaces.
    .target(name: "CTextScan"),
    // The one HTML escaper every module that writes HTML uses.
    .target(name: "TagflowHTML", dependencies: ["CTextScan"], swiftSettings: swiftSettings),
    .testTarget(name: "TagflowHTMLTests", dependencies: ["TagflowHTML", "CTextScan"], swiftSettings: swiftSettings),
    .target(
        name: "TagflowChips", dependencies: ["TagflowLayout", "TagflowMetrics", "TagflowHTML"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "TagflowChipsTests", dependencies: ["TagflowChips", "TagflowHTML", "TagflowLayout", "TagflowMetrics"],
        swiftSettings: swiftSettings),
    // Chip blocks in any generator's built HTML: elements replaced byte for byte (through
    // TagflowHTML's scanner), CSS-like selectors, presets for popular themes (`tagflow enhance`).
    .target(
        name: "TagflowEnhance", dependencies: ["TagflowChips", "TagflowConcurrency", "TagflowHTML"],
        swiftSettings: swiftSettings),
    .testTarget(
        name: "TagflowEnhanceTests", dependencies: ["TagflowEnhance", "TagflowChips", "TagflowHTML"],
        swiftSettings: swiftSettings),
    .systemLibrary(
        name: "CCmarkGFM",
        pkgConfig: "libcmark-gfm",
        providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
    ),
    // A bump allocator for cmark-gfm's per-document allocations (C: cmark_mem has no context).
    .target(name: "CMarkdownArena"),
    // Takes cmark-gfm's one process-wide write per parse away, so that documents parse in
    // parallel. It defines a function of libcmark-gfm, so only the executable links it (and the
    // tests); TagflowMarkdown finds it through CCmarkTablesLink, and without it parses under a lock.
    .target(name: "CCmarkTables", dependencies: ["CCmarkGFM", "CCmarkTablesLink"]),
    .target(name: "CCmarkTablesLink"),
    .target(
        name: "TagflowMarkdown",
        dependencies: [
            "CCmarkGFM", "CCmarkTablesLink", "CMarkdownArena", "CTextScan", "TagflowConcurrency", "TagflowHTML",
            .product(name: "Yams", package: "Yams"),
        ],
        swiftSettings: swiftSettings
    ),
    // Code highlighting at build time: GNU Source-highlight (C++) behind a C interface, and the
    // Swift that writes its tokens as HTML (with Tagflow's own definitions for the languages the
    // library lacks).
    .systemLibrary(
        name: "CSourceHighlightLibrary",
        pkgConfig: "source-highlight",
        providers: [.apt(["libsource-highlight-dev"]), .brew(["source-highlight"])]
    ),
    .target(name: "CSourceHighlight", dependencies: ["CSourceHighlightLibrary"]),
    .target(
        name: "TagflowHighlight", dependencies: ["CSourceHighlight", "TagflowConcurrency", "TagflowHTML"],
        exclude: ["Languages"], swiftSettings: swiftSettings),
    .testTarget(name: "TagflowHighlightTests", dependencies: ["TagflowHighlight"], swiftSettings: swiftSettings),
    .target(name: "CTagflowSupport"),
    .target(name: "CTagflowThreads"),
    // The one lock type and the one way to run work in parallel, for every module (the library
    // products' too: it needs nothing else).
    .target(name: "TagflowConcurrency", dependencies: ["CTagflowThreads"], swiftSettings: swiftSettings),
    .target(
        name: "TagflowCore",
        dependencies: [
            "TagflowMarkdown",
            "TagflowHighlight",
            "TagflowHTML",
            "TagflowConcurrency",
            "CTagflowSupport",
            .product(name: "Mustache", package: "swift-mustache"),
        ],
        swiftSettings: swiftSettings
    ),
    // The chip plugin: tag lists and ```chips blocks as chip blocks in the site's pages. Its own
    // target, so that TagflowCore knows plugins and not chips.
    .target(
        name: "TagflowChipPlugin",
        dependencies: [
            "TagflowCore", "TagflowChips", "TagflowLayout", "TagflowMetrics", "TagflowHTML", "TagflowMarkdown",
        ],
        swiftSettings: swiftSettings),
    .target(name: "TagflowImport", dependencies: ["TagflowCore", "TagflowMarkdown"], swiftSettings: swiftSettings),
    .testTarget(
        name: "TagflowImportTests",
        dependencies: ["TagflowImport", "TagflowCore", "TagflowMarkdown", "TagflowTesting"],
        swiftSettings: swiftSettings),
    .target(
        name: "TagflowServer",
        dependencies: [
            "TagflowCore",
            "TagflowConcurrency",
            "TagflowHTML",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ],
        swiftSettings: swiftSettings
    ),
    .target(
        name: "TagflowCommands",
        dependencies: [
            "CTagflowSupport",
            "TagflowConcurrency",
            "TagflowCore",
            "TagflowLayout",
            "TagflowMetrics",
            "TagflowServer",
            "TagflowChips",
            "TagflowChipPlugin",
            "TagflowEnhance",
            "TagflowHTML",
            "TagflowImport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        swiftSettings: swiftSettings
    ),
    .executableTarget(
        name: "tagflow", dependencies: ["TagflowCommands", "CCmarkTables"], swiftSettings: swiftSettings),
    // SwiftPM asks for every permission a plugin declares on every run, so the server, which needs
    // the network, is a verb of its own and `tagflow build` asks only to write. The plugins build
    // the `tagflow` product when they run: as a plugin dependency, it would be built twice (once
    // as a host tool) in every `swift build` of this package.
    .plugin(
        name: "TagflowPlugin",
        capability: .command(
            intent: .custom(
                verb: "tagflow",
                description: "Run tagflow (build, check, new…) on the blog in this package's folder."),
            permissions: [
                .writeToPackageDirectory(reason: "tagflow build writes the site into the package (_site by default).")
            ]
        )
    ),
    .plugin(
        name: "TagflowServePlugin",
        capability: .command(
            intent: .custom(
                verb: "tagflow-serve",
                description: "Preview the blog in this package's folder with tagflow serve."),
            permissions: [
                .allowNetworkConnections(
                    scope: .local(ports: []), reason: "tagflow serve listens on 127.0.0.1 (port 8000 by default).")
            ]
        )
    ),
    .target(name: "TagflowTesting", swiftSettings: swiftSettings),
    .testTarget(
        name: "TagflowMarkdownTests",
        // CCmarkGFM: a test parses with cmark-gfm directly, as another library in the process would.
        // CTextScan: the portable word count, which only ARM runs, is compared on x86-64 too.
        // CCmarkTables: the test bundle is a program, and parses in parallel as `tagflow` does.
        dependencies: ["TagflowMarkdown", "CCmarkGFM", "CTextScan", "CCmarkTables"],
        // Inputs the fuzzers found (or that would hang them), replayed through #filePath.
        exclude: ["Fixtures"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "TagflowCoreTests",
        dependencies: [
            "TagflowCore", "TagflowChipPlugin", "TagflowChips", "TagflowHTML", "TagflowMarkdown", "CTagflowSupport",
            "TagflowConcurrency", "TagflowTesting", .product(name: "Mustache", package: "swift-mustache"),
        ],
        // Snapshots and the broken-site catalogue are read (and recorded) through #filePath.
        exclude: ["Build/Snapshots", "Fixtures"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "TagflowServerTests",
        dependencies: [
            "TagflowServer", "TagflowCore", "TagflowTesting", "CTagflowSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "TagflowCommandsTests",
        dependencies: [
            "CTagflowSupport",
            "TagflowCommands",
            "TagflowCore",
            "TagflowMetrics",
            "TagflowTesting",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        swiftSettings: swiftSettings
    ),
]

// Benchmarks (ordo-one/package-benchmark) only when asked for, so a normal build never fetches them:
//   ENABLE_TAGFLOW_BENCHMARKS=1 swift package benchmark --target TagflowBenchmarks
if ProcessInfo.processInfo.environment["ENABLE_TAGFLOW_BENCHMARKS"] != nil {
    dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    )
    targets.append(
        .executableTarget(
            name: "TagflowBenchmarks",
            dependencies: [
                "TagflowLayout",
                "TagflowMetrics",
                "TagflowMarkdown",
                "TagflowCore",
                "TagflowChipPlugin",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TagflowBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    )
}

// libFuzzer targets, only when TAGFLOW_FUZZ is set (scripts/fuzz.sh): one executable per folder
// `Fuzz/<Name>/` holding a `main.swift` with `@_cdecl("LLVMFuzzerTestOneInput")`.
if ProcessInfo.processInfo.environment["TAGFLOW_FUZZ"] != nil {
    let fuzzFolder = Context.packageDirectory + "/Fuzz"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: fuzzFolder)) ?? []
    let libraries: [String: [Target.Dependency]] = [
        "FuzzTemplate": ["TagflowCore"], "FuzzEnhance": ["TagflowEnhance", "TagflowChips"],
    ]
    for name in names.sorted() where name.hasPrefix("Fuzz") {
        targets.append(
            .executableTarget(
                name: name, dependencies: libraries[name] ?? ["TagflowMarkdown"], path: "Fuzz/\(name)",
                swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])]))
    }
}

let package = Package(
    name: "tagflow",
    platforms: [.macOS(.v15)],
    products: products,
    dependencies: dependencies,
    targets: targets,
    swiftLanguageModes: [.v6]
)
