import Foundation
import TagflowChipPlugin
import TagflowMarkdown
import TagflowTesting
import Testing

@testable import TagflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A site that tries to publish what it should not, hang the build, or write past the file
/// system's limits: each is refused with an error naming the file, or built safely.
@Suite struct HostileSiteTests {
    static let post = "-- posts/2024-01-01-a.md --\n---\ntitle: A\ntags: [Swift]\n---\nHi\n"

    /// Links in `static/` are followed only within the site, and never into its sources.
    @Test func staticLinksOutsideTheSiteOrIntoItsSourcesAreRefused() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.post + "-- static/ok.txt --\nok\n")
        defer { fixture.remove() }
        let secret = fixture.root.appendingPathComponent("secret.txt")
        try Data("secret\n".utf8).write(to: secret)
        let manager = FileManager.default
        let cases: [(link: String, target: String, message: String)] = [
            (
                "static/leak.txt", secret.path,
                "static/leak.txt: error: symbolic link to '\(secret.resolvingSymlinksInPath().path)', outside the site folder"
            ),
            ("static/site", "..", "static/site: error: symbolic link to the site folder, which holds or is part of"),
            (
                "static/config.yml", "../site.yml",
                "static/config.yml: error: symbolic link to 'site.yml', which holds or is part of 'site.yml'"
            ),
            (
                "static/drafts", "../posts",
                "static/drafts: error: symbolic link to 'posts', which holds or is part of 'posts'"
            ),
        ]
        for item in cases {
            let link = fixture.site.appendingPathComponent(item.link)
            try manager.createSymbolicLink(atPath: link.path, withDestinationPath: item.target)
            let failure = await #expect(throws: BuildFailure.self) {
                try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
            }
            #expect(failure?.description.contains(item.message) == true, "\(failure?.description ?? "")")
            #expect(!manager.fileExists(atPath: fixture.output.path), "nothing is written")
            try manager.removeItem(at: link)
        }
        // A link within the site to a file meant for publishing is followed.
        try fixture.write("media/photo.txt", "photo\n")
        try manager.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("static/photo.txt").path,
            withDestinationPath: "../media/photo.txt")
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("photo.txt") == "photo\n")
    }

    /// The static folder (or the posts folder) itself may be a link: the same rule holds.
    @Test func aLinkedStaticOrPostsFolderOutsideTheSiteIsRefused() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.post)
        defer { fixture.remove() }
        let outside = fixture.root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("secret\n".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("static").path, withDestinationPath: outside.path)
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(
            failure?.description.hasPrefix("static: error: symbolic link to") == true, "\(failure?.description ?? "")")
        try FileManager.default.removeItem(at: fixture.site.appendingPathComponent("static"))
        // A static folder linked to the posts would publish the drafts.
        try FileManager.default.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("static").path, withDestinationPath: "posts")
        let intoPosts = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(intoPosts?.description.contains("which holds or is part of 'posts'") == true)
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
    }

    /// Hidden entries at the site's top (`.git`, `.env`) are never published through a link, and
    /// no paths setting may put the sources inside the static folder.
    @Test func gitAndSourcesInStaticAreRefused() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.post + "-- .git/config --\n[remote]\n")
        defer { fixture.remove() }
        try FileManager.default.createDirectory(
            at: fixture.site.appendingPathComponent("static"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("static/g").path, withDestinationPath: "../.git")
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(
            failure?.description.contains("which holds or is part of '.git'") == true, "\(failure?.description ?? "")")
        try FileManager.default.removeItem(at: fixture.site.appendingPathComponent("static/g"))
        try fixture.write("site.yml", "title: T\npaths:\n  content: static\n")
        let content = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(
            content?.description.contains("site.yml:3:3: error: 'paths.static'") == true,
            "\(content?.description ?? "")")
    }

    /// A post linked from outside the site is not read.
    @Test func postLinksOutsideTheSiteAreRefused() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.post)
        defer { fixture.remove() }
        let outside = fixture.root.appendingPathComponent("outside.md")
        try Data("---\ntitle: Outside\ndate: 2024-01-02\n---\n".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("posts/2024-01-02-o.md").path, withDestinationPath: outside.path
        )
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(failure?.description.contains("posts/2024-01-02-o.md: error: symbolic link to") == true)
    }

    /// `chips.font` through a link to a font outside the site is refused.
    @Test func aChipFontOutsideTheSiteIsRefused() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\nchips:\n  font: fonts/f.ttf\n" + Self.post)
        defer { fixture.remove() }
        let outside = fixture.root.appendingPathComponent("f.ttf")
        try Data("not a font".utf8).write(to: outside)
        try FileManager.default.createDirectory(
            at: fixture.site.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("fonts/f.ttf").path, withDestinationPath: outside.path)
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        }
        #expect(failure?.description.contains("chips.font resolves to") == true, "\(failure?.description ?? "")")
    }

    /// A FIFO would block the build's read forever: it is skipped with a warning, in `static/`
    /// and among the posts.
    @Test(.timeLimit(.minutes(1))) func fifosAreSkippedNotRead() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.post + "-- static/ok.txt --\nok\n")
        defer { fixture.remove() }
        #expect(mkfifo(fixture.site.appendingPathComponent("static/pipe").path, 0o644) == 0)
        #expect(mkfifo(fixture.site.appendingPathComponent("posts/2024-01-02-pipe.md").path, 0o644) == 0)
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let text = report.warnings.map(\.description).joined(separator: "\n")
        #expect(text.contains("static/pipe: warning: not a regular file or folder"), "\(text)")
        #expect(text.contains("posts/2024-01-02-pipe.md: warning: not a regular file or folder"), "\(text)")
        #expect(report.postCount == 1)
        #expect(try fixture.output("ok.txt").hasPrefix("ok"))
    }

    /// Slugs past the file system's 255-byte name limit are shortened the same way in every build,
    /// with a hash of the whole; `check` and `build` agree.
    @Test func slugsLongerThanAFileNameAreShortenedStably() async throws {
        let ascii = String(repeating: "a", count: 300)
        let cjk = String(repeating: "漢", count: 86)
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-01-01-a.md --
            ---
            title: A
            slug: \(ascii)
            tags: ['\(ascii)', '\(ascii)b', '\(cjk)']
            ---
            Hi
            """)
        defer { fixture.remove() }
        _ = try await SiteBuilder(siteRoot: fixture.site).run()
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.tagCount == 3)
        let tags = try FileManager.default.contentsOfDirectory(
            atPath: fixture.output.appendingPathComponent("tags").path
        )
        .filter { $0 != "index.html" }
        #expect(tags.count == 3)
        for name in tags { #expect(name.utf8.count <= Slug.maximumByteCount, "\(name)") }
        let posts = try FileManager.default.contentsOfDirectory(
            atPath: fixture.output.appendingPathComponent("posts").path)
        #expect(posts.count == 1 && posts[0].utf8.count <= Slug.maximumByteCount)
        #expect(Slug(from: ascii) == Slug(from: ascii))
        #expect(Slug(from: ascii).rawValue.hasSuffix("-" + String(Slug.fittingFileName(ascii).suffix(16))))
        #expect(Slug(from: ascii) != Slug(from: ascii + "b"))
        #expect(
            Slug.fittingFileName(ascii) == "\(String(repeating: "a", count: 183))-"
                + Slug.fittingFileName(ascii).suffix(16))
    }

    /// Characters XML 1.0 forbids never reach the feed or the sitemap.
    @Test func controlCharactersDoNotBreakTheFeedOrTheSitemap() async throws {
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: \"Site \\u0001\"\nbase_url: https://example.org/\n"
                + "-- posts/2024-01-01-a.md --\n---\ntitle: \"Bell \\a and \\x0b and \\x1f\"\ntags: [\"t\\x02\"]\n"
                + "summary: \"nul \\u0000 here \\uFFFE\"\n---\nBody \u{0008} with \u{001B}[31m escape.\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        for file in ["feed.xml", "sitemap.xml"] {
            let data = try Data(contentsOf: fixture.output.appendingPathComponent(file))
            #expect(!data.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, "\(file)")
            let parser = XMLParser(data: data)
            #expect(parser.parse(), "\(file) is well-formed XML: \(String(describing: parser.parserError))")
        }
        #expect(try fixture.output("feed.xml").contains("Bell"))
    }

    /// Two builds of one output exclude each other; the lock goes with the build.
    @Test func twoBuildsOfOneOutputExcludeEachOther() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.post)
        defer { fixture.remove() }
        let held = try OutputLock.acquire(for: fixture.output)
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(
            failure?.description.contains("another Tagflow build is writing this folder (process \(getpid()))") == true,
            "\(failure?.description ?? "")")
        withExtendedLifetime(held) {}
        _ = consume held
        // A lock file left by a killed build holds no lock: the next build takes it over.
        try Data("12345\n".utf8).write(to: URL(fileURLWithPath: OutputLock.path(for: fixture.output)))
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(!FileManager.default.fileExists(atPath: OutputLock.path(for: fixture.output)), "the lock file goes")
    }

    /// Thousands of nested sections would overflow the template parser's stack.
    @Test func deeplyNestedTemplateSectionsAreRefused() async throws {
        let deep = String(repeating: "{{#a}}", count: 3_000) + String(repeating: "{{/a}}", count: 3_000)
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: T\n" + Self.post + "-- templates/post.mustache --\n<p>\n\(deep)\n")
        defer { fixture.remove() }
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(
            failure?.description.hasPrefix("templates/post.mustache:2:601: error: sections nested more than 100 deep")
                == true, "\(failure?.description ?? "")")
        // A delimiter change does not hide the depth.
        let changed =
            "{{=<% %>=}}\n" + String(repeating: "<%#a%>", count: 150) + String(repeating: "<%/a%>", count: 150)
        #expect(Theme.tooDeepSection(in: changed)?.line == 2)
        // A malformed delimiter tag (found by FuzzTemplate) is no crash.
        #expect(Theme.tooDeepSection(in: "{{#a}}{{=}}<%x%>\n{{{=<% %>=}}<%x%>\n{{=") == nil)
        // A hundred levels are fine.
        let fine = String(repeating: "{{#a}}", count: 100) + String(repeating: "{{/a}}", count: 100)
        #expect(Theme.tooDeepSection(in: fine) == nil)
    }
}

/// cmark-gfm's known slow inputs fail their post with a clear error, quickly.
@Suite struct QuadraticMarkdownTests {
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            (String(repeating: "![[]()", count: 80_000), "posts/2024-01-01-a.md:5:", "more than 20000 '['"),
            (
                "a|b\n-|-\n" + String(repeating: "|", count: 100_000), "posts/2024-01-01-a.md:7:1001:",
                "more than 1000 '|'"
            ),
        ])
    func aSlowPostFailsQuicklyWithItsLine(body: String, location: String, message: String) async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n")
        defer { fixture.remove() }
        try fixture.write("posts/2024-01-01-a.md", "---\ntitle: A\n---\n\n" + body + "\n")
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        let text = failure?.description ?? ""
        #expect(text.hasPrefix(location) && text.contains(message), "\(text)")
    }
}

/// `<!--more-->` in a post: its summary on the home page and in the feed.
@Suite struct ExcerptSiteTests {
    @Test func theExcerptComesBeforeSummaryAndTheFirstParagraph() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-01-01-a.md --
            ---
            title: A
            summary: The written summary.
            ---
            Opening paragraph.

            Second paragraph.

            <!--more-->

            Hidden below the fold.
            -- posts/2024-01-02-b.md --
            ---
            title: B
            ---
            Only the first paragraph.

            And more.
            """)
        defer { fixture.remove() }
        let context = try await SiteBuilder(siteRoot: fixture.site).run()
        let posts = try #require(context.site?.posts)
        #expect(posts.first { $0.title == "A" }?.summary == "Opening paragraph. Second paragraph.")
        #expect(posts.first { $0.title == "B" }?.summary == "Only the first paragraph.")
    }
}

/// `toc: true` (or `markdown.toc`) shows the post's h2 and h3 headings, nested, linking to their ids.
@Suite struct TableOfContentsTests {
    @Test func nestedListOfH2AndH3() {
        let markdown = "## Setup\n\n### Fonts\n\n#### Deep\n\n### &lt;Tags&gt;\n\n## Use\n"
        let headings = MarkdownRenderer(options: MarkdownOptions()).render(markdown).headings
        let ids = headings.map(\.id)
        #expect(
            TableOfContents.html(for: headings)
                == ##"<ol><li><a href="#\##(ids[0])">Setup</a><ol><li><a href="#\##(ids[1])">Fonts</a></li><li><a href="#\##(ids[3])">&lt;Tags&gt;</a></li></ol></li><li><a href="#\##(ids[4])">Use</a></li></ol>"##
        )
        #expect(
            TableOfContents.html(for: MarkdownRenderer(options: MarkdownOptions()).render("# Only h1\n").headings)
                == nil)
    }

    @Test func aPostAsksForItOrTheSiteDoes() async throws {
        let body = "## One\n\nText.\n\n### One and a half\n\n## Two\n"
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-01-01-on.md --
            ---
            title: On
            toc: true
            ---
            \(body)
            -- posts/2024-01-02-off.md --
            ---
            title: Off
            ---
            \(body)
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let on = try fixture.output("posts/on/index.html")
        #expect(on.contains(#"<nav class="toc" aria-label="Contents">"#))
        #expect(on.contains(##"<a href="#one-and-a-half">One and a half</a>"##), "\(on)")
        #expect(!(try fixture.output("posts/off/index.html")).contains(#"class="toc""#))
        // 500 headings make a list of 500 links, not a problem.
        let many = (0..<500).map { "## Heading \($0)\n\nText.\n" }.joined(separator: "\n")
        try fixture.write("posts/2024-01-03-many.md", "---\ntitle: Many\ntoc: true\n---\n" + many)
        try fixture.write("site.yml", "title: T\nmarkdown:\n  toc: true\n")
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect((try fixture.output("posts/off/index.html")).contains(#"class="toc""#), "the site's default")
        #expect(
            (try fixture.output("posts/many/index.html")).components(separatedBy: "<li><a href=\"#heading-").count
                == 501)
    }
}
