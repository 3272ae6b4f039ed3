import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// A cached build after an edit of posts or pages only updates the last output in place: it
/// rewrites the pages whose keys changed, and the folder then holds exactly what a full build
/// writes.
@Suite struct PageReuseTests {
    static let site = """
        -- site.yml --
        title: Reused
        -- posts/2024-01-01-a.md --
        ---
        title: A
        tags: [x, y]
        ---
        Body A.
        -- posts/2024-01-02-b.md --
        ---
        title: B
        tags: [y]
        ---
        Body B.
        -- posts/2024-01-03-c.md --
        ---
        title: C
        tags: [z]
        ---
        Body C.
        -- pages/about.md --
        ---
        title: About
        ---
        About me.
        -- static/robots.txt --
        User-agent: *
        """

    static func build(_ fixture: SiteFixture, useCache: Bool = true, to output: URL? = nil) async throws
        -> BuildReport
    {
        try await SiteBuilder(siteRoot: fixture.site, options: BuildOptions(useCache: useCache), plugins: [.chips])
            .build(to: output ?? fixture.output)
    }

    /// Each kind of edit a blogger makes between two builds.
    static let edits: [(name: String, apply: @Sendable (SiteFixture) throws -> Void)] = [
        ("text", { try $0.write("posts/2024-01-02-b.md", "---\ntitle: B\ntags: [y]\n---\nBody B, longer.\n") }),
        ("title", { try $0.write("posts/2024-01-02-b.md", "---\ntitle: B renamed\ntags: [y]\n---\nBody B.\n") }),
        ("tags", { try $0.write("posts/2024-01-02-b.md", "---\ntitle: B\ntags: [y, w]\n---\nBody B.\n") }),
        ("date", { try $0.write("posts/2024-01-02-b.md", "---\ntitle: B\ndate: 2023-05-05\ntags: [y]\n---\nB\n") }),
        ("draft", { try $0.write("posts/2024-01-03-c.md", "---\ntitle: C\ndraft: true\ntags: [z]\n---\nC\n") }),
        ("new post", { try $0.write("posts/2024-02-01-d.md", "---\ntitle: D\ntags: [x, v]\n---\nBody D.\n") }),
        (
            "removed post",
            { try FileManager.default.removeItem(at: $0.site.appendingPathComponent("posts/2024-01-03-c.md")) }
        ),
        ("page", { try $0.write("pages/about.md", "---\ntitle: About us\n---\nAbout us.\n") }),
    ]

    @Test(arguments: edits.indices)
    func anUpdateInPlaceWritesWhatAFullBuildWrites(edit: Int) async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        try Self.edits[edit].apply(fixture)
        let report = try await Self.build(fixture)
        let name = Self.edits[edit].name
        let rewritten = try #require(report.rewrittenFileCount, "\(name): not updated in place")
        #expect(rewritten < report.fileCount, "\(name)")

        let fresh = fixture.root.appendingPathComponent("fresh")
        let full = try await Self.build(fixture, useCache: false, to: fresh)
        var updated = folderContents(fixture.output)
        var expected = folderContents(fresh)
        // The marker records the inputs only when the build is cached.
        updated[OutputWriter.markerName] = nil
        expected[OutputWriter.markerName] = nil
        #expect(updated == expected, "\(name): the folder differs from a full build")
        #expect(report.pageCount == full.pageCount && report.fileCount == full.fileCount, "\(name)")
        #expect(report.byteCount == full.byteCount, "\(name)")
        #expect(try await Self.build(fixture).isUpToDate, "\(name): the updated folder is recorded as built")
    }

    /// A site with nested tags, categories and a series, and the edits that reach their pages.
    static let taxonomySite = """
        -- site.yml --
        title: Sorted
        tags:
          hierarchy: true
        -- posts/2024-01-01-a.md --
        ---
        title: A
        tags: [lang/swift, y]
        categories: [Guides]
        series: S
        ---
        Body A.
        -- posts/2024-01-02-b.md --
        ---
        title: B
        tags: [lang/rust]
        categories: [Guides, News]
        series: S
        ---
        Body B.
        -- posts/2024-01-03-c.md --
        ---
        title: C
        tags: [lang]
        ---
        Body C.
        """

    static let taxonomyEdits: [(name: String, text: String)] = [
        ("title", "---\ntitle: B renamed\ntags: [lang/rust]\ncategories: [Guides, News]\nseries: S\n---\nBody B.\n"),
        ("nested tag", "---\ntitle: B\ntags: [lang/rust/async, z]\ncategories: [Guides, News]\nseries: S\n---\nB.\n"),
        ("categories", "---\ntitle: B\ntags: [lang/rust]\ncategories: [Reviews]\nseries: S\n---\nBody B.\n"),
        ("series", "---\ntitle: B\ntags: [lang/rust]\ncategories: [Guides, News]\n---\nBody B.\n"),
    ]

    /// The cached build follows series, categories and nested tags as a full build writes them.
    @Test(arguments: taxonomyEdits.indices)
    func taxonomyPagesFollowAnUpdateInPlace(edit: Int) async throws {
        let fixture = try SiteFixture(Self.taxonomySite)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        let (name, text) = Self.taxonomyEdits[edit]
        try fixture.write("posts/2024-01-02-b.md", text)
        _ = try await Self.build(fixture)
        let fresh = fixture.root.appendingPathComponent("fresh")
        _ = try await Self.build(fixture, useCache: false, to: fresh)
        var updated = folderContents(fixture.output)
        var expected = folderContents(fresh)
        updated[OutputWriter.markerName] = nil
        expected[OutputWriter.markerName] = nil
        #expect(updated.keys.sorted() == expected.keys.sorted(), "\(name)")
        #expect(updated == expected, "\(name): the folder differs from a full build")
    }

    @Test func pagesThatDoNotShowTheEditAreLeftAlone() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        // C is the newest post; only B shows it as a neighbour. A does not show it at all.
        let untouched = try inode(fixture, "posts/a/index.html")
        let edited = try inode(fixture, "posts/c/index.html")
        try fixture.write("posts/2024-01-03-c.md", "---\ntitle: C\ntags: [z]\n---\nBody C, longer.\n")
        let report = try await Self.build(fixture)
        #expect(try inode(fixture, "posts/a/index.html") == untouched)
        #expect(try inode(fixture, "posts/c/index.html") != edited)
        #expect(report.rewrittenFileCount ?? 0 < report.fileCount / 2)
    }

    /// A new post moves every older post and every tag after its new tag to another place in the
    /// site: the pages' records follow them by source path and tag (``PageInputMap``).
    @Test func aNewPostLeavesThePagesThatDoNotShowItAlone() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        let alone = ["posts/a/index.html", "posts/b/index.html", "tags/z/index.html", "about/index.html"]
        let before = try alone.map { try inode(fixture, $0) }
        let neighbour = try inode(fixture, "posts/c/index.html")
        // The newest post, with a tag of its own: C gets a newer neighbour, the lists get a post.
        try fixture.write("posts/2024-02-01-d.md", "---\ntitle: D\ntags: [a-new-tag]\n---\nBody D.\n")
        let report = try await Self.build(fixture)
        #expect(try alone.map { try inode(fixture, $0) } == before)
        #expect(try inode(fixture, "posts/c/index.html") != neighbour)
        #expect(report.rewrittenFileCount ?? 0 < report.fileCount / 2)
    }

    @Test func aChangeToAnythingButPostsAndPagesWritesANewFolder() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        try fixture.write("templates/footer.mustache", "<footer>new</footer>")
        try Self.edits[0].apply(fixture)
        #expect(try await Self.build(fixture).rewrittenFileCount == nil)
        #expect(try fixture.output("posts/c/index.html").contains("<footer>new</footer>"))
    }

    @Test func anUpdateStoppedHalfWayIsNotTrusted() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        // What an update in place leaves if it stops between its first and last write.
        try OutputWriter(target: fixture.output).forgetInputs()
        try Self.edits[0].apply(fixture)
        #expect(try await Self.build(fixture).rewrittenFileCount == nil)
        #expect(try await Self.build(fixture).isUpToDate)
    }

    @Test func aFailedBuildLeavesTheFolderAsItWas() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        let before = folderContents(fixture.output)
        try fixture.write("posts/2024-01-02-b.md", "---\ntitle: [unclosed\n---\nBody B.\n")
        await #expect(throws: BuildFailure.self) { try await Self.build(fixture) }
        #expect(folderContents(fixture.output) == before)
    }

    private func inode(_ fixture: SiteFixture, _ path: String) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(
            atPath: fixture.output.appendingPathComponent(path).path)
        return try #require(attributes[.systemFileNumber] as? UInt64)
    }
}
