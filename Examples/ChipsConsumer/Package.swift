// swift-tools-version:6.1
// A site generator of someone else's, reduced to what it needs to show tags as chip blocks: it
// depends on Tagflow's three library products and nothing else of it (no Markdown, no templates,
// no server), as Publish, Ignite, Saga or Toucan would.

import PackageDescription

let package = Package(
    name: "ChipsConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Another generator writes: .package(url: "https://github.com/OWNER/tagflow", branch: "main")
        .package(name: "tagflow", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ChipsConsumer",
            dependencies: [
                .product(name: "TagflowChips", package: "tagflow"),
                .product(name: "TagflowLayout", package: "tagflow"),
                .product(name: "TagflowMetrics", package: "tagflow"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
