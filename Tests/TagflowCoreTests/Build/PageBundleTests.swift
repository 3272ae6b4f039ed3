import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// `posts/2024-04-01-trip/index.md` with its photos beside it: one post, its files beside its page.
@Suite struct PageBundleTests {
    static let site = """
        -- site.yml --
        title: T
        base_url: https://example.org/blog/
        -- posts/index.md --
        ---
        title: Not a bundle
        date: 2024-01-01
        ---
        A post named index.
        -- posts/2024-04-01-trip/index.md --
        ---
        title: Trip
        ---
        ![The beach](photo.png)

        [The map](maps/route.txt)
        -- posts/2024-04-01-trip/maps/route.txt --
        north, then west
        -- posts/2024-04-01-trip/notes.md --
        Notes for later: part of the bundle, not a post.
        -- posts/2024-05-01-draft/index.md --
        ---
        title: Draft
        draft: true
        ---
        Draft.
        -- posts/2024-05-01-draft/secret.txt --
        not yet
        -- pages/team/index.md --
        ---
        title: Team
        ---
        ![Us](us.png)

        """

    static func fixture(_ extra: String = "") throws -> SiteFixture {
        let fixture = try SiteFixture(site + extra)
        let red = ImageDimensionsTests.fixtures.appendingPathComponent("red.png")
        try FileManager.default.copyItem(
            at: red, to: fixture.site.appendingPathComponent("posts/2024-04-01-trip/photo.png"))
        try FileManager.default.copyItem(at: red, to: fixture.site.appendingPathComponent("pages/team/us.png"))
        return fixture
    }

    @Test func theFolderNamesThePostAndItsFilesGoBesideItsPage() async throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.postCount == 2)
        func exists(_ path: String) -> Bool {
            FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent(path).path)
        }
        #expect(
            exists("posts/trip/index.html") && exists("posts/trip/photo.png") && exists("posts/trip/maps/route.txt"))
        #expect(exists("posts/index/index.html"), "posts/index.md is a post of its own")
        #expect(
            !exists("posts/trip/notes.md") && !exists("posts/notes"), "a bundle's Markdown is neither copied nor a post"
        )
        #expect(!exists("posts/draft"), "an unpublished bundle publishes no files")
        #expect(exists("team/index.html") && exists("team/us.png"))
        let page = try String(
            contentsOf: fixture.output.appendingPathComponent("posts/trip/index.html"), encoding: .utf8)
        #expect(page.contains(#"<img width="30" height="20" src="photo.png" alt="The beach" />"#))
        #expect(page.contains(#"<time datetime="2024-04-01T00:00:00Z">"#), "the date from the folder's name")
        // In the feed, relative links resolve against the post's address.
        let feed = try String(contentsOf: fixture.output.appendingPathComponent("feed.xml"), encoding: .utf8)
        #expect(feed.contains(#"<content type="html" xml:base="https://example.org/blog/posts/trip/">"#))
        // And check follows the links into the bundle.
        let checked = try await SiteChecker(siteRoot: fixture.site).check()
        #expect(checked.warnings.isEmpty, "\(checked.warnings)")
    }

    @Test func aBundleFileMayNotTakeItsPagesPlace() async throws {
        let fixture = try Self.fixture("-- posts/2024-04-01-trip/index.html --\n<p>mine</p>\n")
        defer { fixture.remove() }
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        let messages = failure?.diagnostics.map(\.description) ?? []
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "posts/2024-04-01-trip/index.html: error: page bundle's file has the same path as the generated page 'posts/trip/index.html'"
                )
            }, "\(messages)")
    }

    @Test func aBundleFileMayNotLeadOutOfTheSite() async throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("posts/2024-04-01-trip/passwd").path,
            withDestinationPath: "/etc/passwd")
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        let messages = failure?.diagnostics.map(\.description) ?? []
        #expect(
            messages.count { $0.contains("symbolic link to '/etc/passwd', outside the site folder") } == 1,
            "\(messages)")
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
    }

    /// The cache sees a bundle's files, and a bundle's new slug moves its files.
    @Test func theCacheSeesBundleFilesAndMovedBundles() async throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let options = BuildOptions(useCache: true)
        try await SiteBuilder(siteRoot: fixture.site, options: options).build(to: fixture.output)
        #expect(try await SiteBuilder(siteRoot: fixture.site, options: options).build(to: fixture.output).isUpToDate)
        try Data("north, then east, then west\n".utf8).write(
            to: fixture.site.appendingPathComponent("posts/2024-04-01-trip/maps/route.txt"))
        #expect(try await !SiteBuilder(siteRoot: fixture.site, options: options).build(to: fixture.output).isUpToDate)
        #expect(
            try String(contentsOf: fixture.output.appendingPathComponent("posts/trip/maps/route.txt"), encoding: .utf8)
                == "north, then east, then west\n")
        try Data("---\ntitle: Trip\nslug: journey\n---\n![The beach](photo.png)\n".utf8).write(
            to: fixture.site.appendingPathComponent("posts/2024-04-01-trip/index.md"))
        try await SiteBuilder(siteRoot: fixture.site, options: options).build(to: fixture.output)
        #expect(
            FileManager.default.fileExists(
                atPath: fixture.output.appendingPathComponent("posts/journey/photo.png").path))
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("posts/trip").path))
    }

    /// The preview copies a bundle's files only in a full build, so an edit in a bundle is one.
    @Test func thePreviewRebuildsABundleInFull() async throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let builder = IncrementalBuilder(siteRoot: fixture.site, output: fixture.output, plugins: [.chips])
        _ = try await builder.build(changedPaths: nil).get()
        try Data("---\ntitle: Trip\nslug: journey\n---\n![The beach](photo.png)\n".utf8).write(
            to: fixture.site.appendingPathComponent("posts/2024-04-01-trip/index.md"))
        let report = try await builder.build(changedPaths: ["posts/2024-04-01-trip/index.md"]).get()
        #expect(report.rewrittenFileCount == nil)
        #expect(
            FileManager.default.fileExists(
                atPath: fixture.output.appendingPathComponent("posts/journey/photo.png").path))
        let notes = try await builder.build(changedPaths: ["posts/2024-04-01-trip/notes.md"]).get()
        #expect(notes.rewrittenFileCount == nil)
    }

    @Test func theListingKnowsWhatBelongsToABundle() throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let listing = SiteFiles.contentFiles(under: "posts", in: fixture.site)
        #expect(
            listing.markdown == ["posts/2024-04-01-trip/index.md", "posts/2024-05-01-draft/index.md", "posts/index.md"])
        #expect(listing.others.contains("posts/2024-04-01-trip/notes.md"))
        #expect(SiteFiles.isBundleIndex("posts/a/b/INDEX.markdown", under: "posts"))
        #expect(!SiteFiles.isBundleIndex("posts/index.md", under: "posts"))
        #expect(SiteFiles.isBundleIndex("posts/a/Index.Md", under: "posts"))
        for other in ["posts/a/xindex.md", "posts/a/index.mdx", "posts/a/index.m", "postsx/a/index.md", "index.md"] {
            #expect(!SiteFiles.isBundleIndex(other, under: "posts"), "\(other)")
        }
        #expect(!SiteFiles.isBundleIndex("pages/a/index.md", under: "posts"))
    }
}
