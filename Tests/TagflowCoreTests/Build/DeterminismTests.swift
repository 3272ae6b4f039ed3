import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// The same input builds byte-identical output, whatever order the file system lists it in.
/// (Time zone, locale and working directory: `BinaryTests` in the CLI tests.)
@Suite struct DeterminismTests {
    /// Posts, pages, templates and static files with shared tags, equal dates and a static file.
    static let files: [(String, String)] = {
        var files: [(String, String)] = [
            ("site.yml", "title: Order\nposts_per_page: 3\n"),
            ("pages/about.md", "---\ntitle: About\n---\nAbout.\n"),
            ("pages/contact.md", "---\ntitle: Contact\n---\nContact.\n"),
            ("static/a.txt", "a\n"),
            ("static/deep/b.txt", "b\n"),
        ]
        let tags = ["Swift", "swift", "C", "C++", "C#", "async", "async/await", "Layout", "layout "]
        for index in 0..<40 {
            // Several posts share a date, so order must not depend on the listing.
            let date = "2024-03-0\(1 + index % 4)"
            let postTags = [tags[index % tags.count], tags[(index * 7) % tags.count]].map { "'\($0)'" }
            files.append(
                (
                    "posts/\(index % 3 == 0 ? "sub/" : "")p\(index).md",
                    "---\ntitle: Post \(index)\ndate: \(date)\ntags: [\(postTags.joined(separator: ", "))]\n---\nText \(index).\n"
                ))
        }
        return files
    }()

    /// Writes the site into `folder`, creating the files in the given order.
    static func write(_ files: [(String, String)], into folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    @Test func shuffledFileSystemOrderBuildsTheSameBytes() async throws {
        // ext4 lists a folder in hash order, tmpfs (/dev/shm) newest first: the same files written in
        // different orders on both are listed in different orders.
        var bases = [FileManager.default.temporaryDirectory]
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue {
            bases.append(URL(fileURLWithPath: "/dev/shm"))
        }
        var generator = SeededGenerator(seed: 7)
        let orders = [Self.files, Self.files.reversed(), Self.files.shuffled(using: &generator)]
        var roots: [URL] = []
        defer { for root in roots { try? FileManager.default.removeItem(at: root) } }
        var outputs: [[String: Data]] = []
        var listings: Set<[String]> = []
        for base in bases {
            for order in orders {
                let root = base.appendingPathComponent("tagflow-order-\(UUID().uuidString)")
                roots.append(root)
                let site = root.appendingPathComponent("site")
                try Self.write(order, into: site)
                listings.insert(
                    try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("posts").path))
                let output = root.appendingPathComponent("out")
                try await SiteBuilder(siteRoot: site).build(to: output)
                outputs.append(folderContents(output))
            }
        }
        #expect(listings.count > 1, "the file system listed the posts in one order only; the test proves nothing")
        #expect(outputs[0].count > 40)
        for (index, output) in outputs.enumerated().dropFirst() {
            #expect(output == outputs[0], "build \(index) differs")
        }
    }

    @Test func buildingTwiceBuildsTheSameBytes() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        try Self.write(Self.files, into: fixture.site)
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let first = folderContents(fixture.output)
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(folderContents(fixture.output) == first)
    }
}

/// A small deterministic generator (SplitMix64), so a shuffled order is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D1_33DA_49B8_E133
        return value ^ (value >> 31)
    }
}
