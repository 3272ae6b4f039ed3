import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

@Suite struct LinkCheckerTests {
    static let exampleSite = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../site-example").standardizedFileURL

    /// A small site whose every link works, of every kind the checker follows or skips.
    static let cleanSite = """
        -- site.yml --
        title: Links
        base_url: https://links.example/
        markdown:
          unsafe: true
        -- posts/2024-01-01-first.md --
        ---
        title: First
        tags: [Swift, "C#"]
        ---
        ## Notes

        [Second](/posts/second/), [second again](../second/), [without slash](/posts/second),
        [notes](#notes), [top](#top), [second's intro](/posts/second/#intro), [tag](/tags/c-sharp/),
        [about](/about/), [feed](/feed.xml), ![a picture](/images/a%20picture.png), [query](/about/?x=1).

        External, never followed: [web](https://example.com/nope/), [mail](mailto:me@example.com),
        [phone](tel:+123), [scheme-relative](//cdn.example/x.js), ![data](data:image/png;base64,AAAA).

        <a href="/posts/second/">raw HTML</a> <img srcset="../../images/a%20picture.png 1x, ../../images/a%20picture.png 2x">
        -- posts/2024-01-02-second.md --
        ---
        title: Second
        ---
        ## Intro
        Back to [first](/posts/first/).
        -- pages/about.md --
        ---
        title: About
        ---
        Hello.
        -- static/images/a picture.png --
        png
        """

    func check(_ fixture: SiteFixture, _ options: BuildOptions = BuildOptions()) async throws(BuildFailure)
        -> CheckReport
    {
        try await SiteChecker(siteRoot: fixture.site, options: options, plugins: [.chips]).check()
    }

    func failure(_ fixture: SiteFixture, _ options: BuildOptions = BuildOptions()) async throws -> BuildFailure {
        do {
            _ = try await check(fixture, options)
        } catch {
            return error
        }
        Issue.record("the check passed")
        return BuildFailure(diagnostics: [])
    }

    @Test func cleanSitePassesAndWritesNothing() async throws {
        let fixture = try SiteFixture(Self.cleanSite)
        defer { fixture.remove() }
        let before = folderContents(fixture.root)
        let report = try await check(fixture, BuildOptions(strict: true))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(report.postCount == 2)
        #expect(report.linkCount > 20)
        #expect(folderContents(fixture.root) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.site.appendingPathComponent("_site").path))
    }

    @Test func exampleSitePasses() async throws {
        let report = try await SiteChecker(
            siteRoot: Self.exampleSite, options: BuildOptions(strict: true), plugins: [.chips]
        ).check()
        #expect(report.pageCount > 50)
        #expect(report.linkCount > 1000)
    }

    @Test func brokenLinkNamesTheMarkdownFileAndLine() async throws {
        let fixture = try SiteFixture(
            Self.cleanSite + """

                -- posts/2024-01-03-third.md --
                ---
                title: Third
                ---
                Fine: [first](/posts/first/).
                Broken: [the missing one](/posts/missing/) and ![gone](/images/gone.png).
                """)
        defer { fixture.remove() }
        let failure = try await failure(fixture)
        let errors = failure.errors
        #expect(errors.count == 2, "\(failure)")
        let link = try #require(errors.first { $0.message.contains("/posts/missing/") })
        #expect(link.location == SourceLocation(path: "posts/2024-01-03-third.md", line: 5, column: 27))
        #expect(link.message.contains("'the missing one'"))
        #expect(link.step == "links")
        #expect(link.sourceLine == "Broken: [the missing one](/posts/missing/) and ![gone](/images/gone.png).")
        let image = try #require(errors.first { $0.message.contains("/images/gone.png") })
        #expect(image.message.hasPrefix("broken image"))
        #expect(image.location?.path == "posts/2024-01-03-third.md")
        #expect(failure.description.contains("posts/2024-01-03-third.md:5:27: error: broken link 'the missing one'"))
    }

    @Test func brokenRelativeLinkIsResolvedFromThePage() async throws {
        let fixture = try SiteFixture(
            Self.cleanSite.replacingOccurrences(
                of: "Back to [first](/posts/first/).", with: "Back to [first](../frist/)."))
        defer { fixture.remove() }
        let failure = try await failure(fixture)
        #expect(failure.errors.count == 1, "\(failure)")
        #expect(failure.errors[0].location == SourceLocation(path: "posts/2024-01-02-second.md", line: 5, column: 17))
        #expect(failure.errors[0].message.contains("no page or file at /posts/frist/index.html"))
    }

    @Test func brokenLinkInATemplateIsReportedOnceAtAPage() async throws {
        let fixture = try SiteFixture(
            Self.cleanSite + """

                -- templates/footer.mustache --
                <footer><a href="{{site.base_path}}/colophon/">Colophon</a></footer>
                """)
        defer { fixture.remove() }
        let failure = try await failure(fixture)
        #expect(failure.errors.count == 1, "\(failure)")
        let error = try #require(failure.errors.first)
        #expect(error.message.contains("'Colophon' → /colophon/"))
        #expect(error.message.contains("other pages"))
        #expect(error.location?.path.hasSuffix(".html") == true)
        #expect(error.hint?.contains("template") == true)
    }

    @Test func externalLinksAreIgnored() async throws {
        let fixture = try SiteFixture(
            """
            -- posts/2024-01-01-a.md --
            ---
            title: A
            ---
            [a](https://example.com/missing/) [b](http://localhost:1/) [c](mailto:x@y.z) [d](ftp://x/)
            [e](//other.example/missing/) [f](javascript:void(0)) [g](tel:1)
            """)
        defer { fixture.remove() }
        let report = try await check(fixture)
        #expect(report.warnings.allSatisfy { $0.error.step != "links" })
    }

    @Test func basePathFromConfigIsHonoured() async throws {
        // Markdown links from the root get the base path; a raw link that skips it leads outside the site.
        let fixture = try SiteFixture(
            Self.cleanSite.replacingOccurrences(of: "https://links.example/", with: "https://me.example/blog/"))
        defer { fixture.remove() }
        let failure = try await failure(fixture)
        #expect(failure.errors.count == 1, "\(failure)")
        let error = try #require(failure.errors.first)
        #expect(error.message.contains("outside the site's base path /blog/"))
        #expect(error.location?.path == "posts/2024-01-01-first.md")
        #expect(error.location?.line == 14)
    }

    @Test func baseURLOptionIsHonoured() async throws {
        let fixture = try SiteFixture(
            Self.cleanSite.replacingOccurrences(
                of: #"<a href="/posts/second/">"#, with: #"<a href="/sub/dir/posts/second/">"#))
        defer { fixture.remove() }
        // At the root, /sub/dir/… leads nowhere; published under /sub/dir/, it is the second post.
        #expect(try await failure(fixture).errors.count == 1)
        let report = try await check(fixture, BuildOptions(baseURL: "https://me.example/sub/dir", strict: true))
        #expect(report.warnings.isEmpty)
        // Relative links do not care where the site lives.
        #expect(try await check(fixture, BuildOptions(baseURL: "/sub/dir/")).linkCount > 20)
    }

    @Test func strictMakesAMissingAnchorFail() async throws {
        let fixture = try SiteFixture(
            Self.cleanSite.replacingOccurrences(of: "(/posts/second/#intro)", with: "(/posts/second/#outro)"))
        defer { fixture.remove() }
        let report = try await check(fixture)
        let warning = try #require(report.warnings.first { $0.error.step == "links" })
        #expect(warning.error.message.contains("no id 'outro' on /posts/second/"))
        #expect(warning.error.location?.path == "posts/2024-01-01-first.md")
        let failure = try await failure(fixture, BuildOptions(strict: true))
        #expect(failure.errors.isEmpty)
        #expect(failure.diagnostics.contains { $0.error.message.contains("'outro'") })
    }

    @Test func siteErrorsAreReportedBeforeLinks() async throws {
        let fixture = try SiteFixture(Self.cleanSite + "\n-- posts/bad.md --\n---\ntitle: [\n---\n")
        defer { fixture.remove() }
        let failure = try await failure(fixture)
        #expect(failure.errors.first?.location?.path == "posts/bad.md")
    }

    // MARK: Resolving

    @Test(arguments: [
        ("/", "", "index.html", LinkChecker.Resolution.file("index.html", fragment: nil)),
        ("/posts/a/", "", "index.html", .file("posts/a/index.html", fragment: nil)),
        ("/posts/a", "", "index.html", .file("posts/a/index.html", fragment: nil)),
        ("/posts/a/#x", "", "index.html", .file("posts/a/index.html", fragment: "x")),
        ("#x", "", "posts/a/index.html", .file("posts/a/index.html", fragment: "x")),
        ("", "", "posts/a/index.html", .file("posts/a/index.html", fragment: nil)),
        ("../a/", "", "posts/b/index.html", .file("posts/a/index.html", fragment: nil)),
        ("./", "", "posts/a/index.html", .file("posts/a/index.html", fragment: nil)),
        ("../../", "", "posts/a/index.html", .file("index.html", fragment: nil)),
        ("../../../", "", "posts/a/index.html", .aboveRoot),
        ("/tags/%E6%A0%87/", "", "index.html", .file("tags/标/index.html", fragment: nil)),
        ("/a%20b.png?v=2", "", "index.html", .file("a b.png", fragment: nil)),
        ("/posts/zzz/", "", "index.html", .missing("posts/zzz/index.html")),
        ("/blog/posts/a/", "/blog", "index.html", .file("posts/a/index.html", fragment: nil)),
        ("/blog", "/blog", "index.html", .file("index.html", fragment: nil)),
        ("/posts/a/", "/blog", "index.html", .outsideBasePath),
        ("/blogger/", "/blog", "index.html", .outsideBasePath),
        ("https://x/", "", "index.html", .external),
        ("//x/", "", "index.html", .external),
        ("mailto:a@b", "", "index.html", .external),
        ("C:x", "", "index.html", .external),
    ])
    func resolves(url: String, basePath: String, page: String, expected: LinkChecker.Resolution) {
        let checker = LinkChecker(
            basePath: basePath,
            paths: ["index.html", "posts/a/index.html", "posts/b/index.html", "tags/标/index.html", "a b.png"])
        #expect(checker.resolve(url, onPage: page) == expected)
    }

    // MARK: Scanning

    @Test func scannerReadsLinksTextAndIDs() {
        let html = """
            <!doctype html><html><head><link rel="stylesheet" href='/a.css'><script>var s = "<a href='/no/'>";</script>
            <style>a[href="/no/"] {}</style></head>
            <body id=top><!-- <a href="/commented/"> -->
            <h2 id="notes">Notes</h2><A HREF="/x/?a=1&amp;b=2" class=c>Fish &amp; <em>chips</em>
            </a><a name="old">x</a><img src=/i.png alt="i"><img srcset="/s1.png 1x, /s2.png 2x">
            <a href="/y/">Y</a>
            """
        let scanned = HTMLLinks(scanning: Array(html.utf8))
        #expect(scanned.links.map(\.url) == ["/a.css", "/x/?a=1&b=2", "/i.png", "/s1.png", "/s2.png", "/y/"])
        #expect(scanned.links.map(\.tag) == ["link", "a", "img", "img", "img", "a"])
        #expect(scanned.links[1].text == "Fish & chips")
        #expect(scanned.links[1].line == 4)
        #expect(scanned.links[5].text == "Y")
        #expect(scanned.ids == ["top", "notes", "old"])
    }

    @Test func entitiesAreDecoded() {
        #expect(HTMLLinks.decodingEntities("a&amp;b&#39;c&#x2F;d&lt;&unknown;&") == "a&b'c/d<&unknown;&")
    }
}
