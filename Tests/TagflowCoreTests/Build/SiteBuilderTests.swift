import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

@Suite struct SiteBuilderTests {
    static let smallSite = """
        -- site.yml --
        title: Small <Site>
        base_url: https://small.example/
        timezone: UTC
        posts_per_page: 2
        -- posts/2024-01-02-second.md --
        ---
        title: "Second & last"
        tags: [Swift, "C#"]
        topic: Tests
        ---
        The *second* post.
        -- posts/first.md --
        ---
        title: First
        date: 2024-01-01T08:00:00+01:00
        tags: swift, Layout
        ---
        # Heading

        First post, see [second](/posts/second/).
        -- posts/2024-01-03-draft.md --
        ---
        title: Draft
        draft: true
        ---
        Not yet.
        -- pages/about.md --
        ---
        title: About
        ---
        About me.
        -- static/robots.txt --
        User-agent: *
        """

    @Test func goldenPages() async throws {
        let fixture = try SiteFixture(Self.smallSite)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        for (path, name) in [
            ("index.html", "home.html"), ("posts/second/index.html", "post.html"),
            ("tags/swift/index.html", "tag.html"),
            ("tags/index.html", "tags.html"), ("feed.xml", "feed.xml"), ("sitemap.xml", "sitemap.xml"),
        ] {
            if let mismatch = snapshotMismatch(try fixture.output(path), named: "SiteBuilderTests.goldenPages.\(name)")
            {
                Issue.record(Comment(rawValue: mismatch))
            }
        }
    }

    @Test func draftsArePublishedOnlyWhenAsked() async throws {
        let fixture = try SiteFixture(Self.smallSite)
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.postCount == 2)
        let withDrafts = try await SiteBuilder(siteRoot: fixture.site, options: BuildOptions(includeDrafts: true))
            .build(to: fixture.output)
        #expect(withDrafts.postCount == 3)
        #expect(try fixture.output("posts/draft/index.html").contains("Draft"))
        #expect(!(try fixture.output("feed.xml")).contains("Not yet"))
    }

    @Test func paramsAndStaticFilesReachTheOutput() async throws {
        let fixture = try SiteFixture(
            Self.smallSite + "\n-- templates/post.mustache --\n{{post.title}}|{{post.params.topic}}\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("posts/second/index.html").hasPrefix("Second &amp; last|Tests"))
        #expect(try fixture.output("robots.txt") == "User-agent: *\n")
    }

    @Test func escapesTitlesAndTagsEverywhere() async throws {
        let fixture = try SiteFixture(
            """
            -- posts/2024-01-01-x.md --
            ---
            title: "<script>alert('t')</script>"
            tags: ["</style><b>", "a\\"q"]
            ---
            Body
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        for path in ["index.html", "posts/x/index.html", "tags/index.html", "feed.xml"] {
            let text = try fixture.output(path)
            #expect(!text.contains("<script>alert"), "\(path)")
            #expect(!text.contains("</style><b>"), "\(path)")
        }
        #expect(try fixture.output("posts/x/index.html").contains("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;"))
    }

    @Test func reportsEveryBadFileBeforeFailing() async throws {
        let fixture = try SiteFixture(
            """
            -- posts/a.md --
            ---
            title: A
            date: 2024-02-30
            ---
            -- posts/b.md --
            ---
            title: [unclosed
            ---
            -- posts/c.md --
            ---
            title: C
            -- posts/2024-01-01-ok.md --
            ---
            title: OK
            ---
            """)
        defer { fixture.remove() }
        do {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
            Issue.record("expected a failure")
        } catch {
            #expect(error.errors.map { $0.location?.path } == ["posts/a.md", "posts/b.md", "posts/c.md"])
            #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
        }
    }

    @Test func failedBuildLeavesThePreviousOutputUntouched() async throws {
        let fixture = try SiteFixture(Self.smallSite)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let before = folderContents(fixture.output)
        try fixture.write("posts/broken.md", "---\ntitle: [\n---\n")
        await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(folderContents(fixture.output) == before)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: fixture.root.path)
        #expect(siblings.sorted() == ["out", "site"])
    }

    @Test func duplicateSlugsNameBothFiles() async throws {
        let fixture = try SiteFixture(
            """
            -- posts/2024-01-01-hello.md --
            ---
            title: One
            ---
            -- posts/2024-02-01-other.md --
            ---
            title: Two
            slug: hello
            ---
            """)
        defer { fixture.remove() }
        do {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
            Issue.record("expected a failure")
        } catch {
            let message = error.errors.first?.message ?? ""
            #expect(message.contains("posts/2024-01-01-hello.md"))
            #expect(error.errors.first?.location?.path == "posts/2024-02-01-other.md")
        }
    }

    @Test func dateNeverComesFromTheFileSystem() async throws {
        let fixture = try SiteFixture("-- posts/undated.md --\n---\ntitle: U\n---\nx\n")
        defer { fixture.remove() }
        do {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
            Issue.record("expected a failure")
        } catch {
            #expect(error.errors.first?.message == "post has no date")
        }
    }

    @Test func strictTurnsWarningsIntoErrors() async throws {
        let fixture = try SiteFixture(
            Self.smallSite.replacingOccurrences(of: "timezone: UTC", with: "timezone: UTC\ncolour: blue"))
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.warnings.count == 1)
        await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site, options: BuildOptions(strict: true)).build(to: fixture.output)
        }
    }

    @Test func crlfAndBOMFilesBuild() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        try fixture.write(
            "posts/2024-01-01-win.md",
            bytes: [0xEF, 0xBB, 0xBF] + Array("---\r\ntitle: Windows\r\ntags: [a]\r\n---\r\nHello\r\n".utf8))
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("posts/win/index.html").contains("<h1>Windows</h1>"))
    }
}
