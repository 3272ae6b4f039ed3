// swift-tools-version:6.1
// A program with Markdown of its own: it parses with cmark-gfm through its own system-library
// module and renders with Tagflow's TagflowMarkdown library product beside it.

import PackageDescription

let package = Package(
    name: "MarkdownConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "tagflow", path: "../..")
    ],
    targets: [
        .systemLibrary(name: "CMarkGFM", pkgConfig: "libcmark-gfm"),
        .executableTarget(
            name: "MarkdownConsumer",
            dependencies: ["CMarkGFM", .product(name: "TagflowMarkdown", package: "tagflow")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
