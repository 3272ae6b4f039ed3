import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// `aliases:` in front matter: the old addresses of a post or page send readers to it.
@Suite struct PageAliasesTests {
    @Test(arguments: [
        ("/2019/05/03/hello.html", "/2019/05/03/hello.html"),
        ("/old-name/", "/old-name/"),
        ("/old-name", "/old-name/"),
        ("  /a/b  ", "/a/b/"),
        ("/caf%C3%A9/", "/café/"),
        ("/posts/v1.2", "/posts/v1.2"),
        ("/feed.xml/", "/feed.xml/"),
    ])
    func aliasesAreSitePaths(text: String, path: String) {
        #expect(PageAliases.sitePath(of: text) == .success(path))
    }

    @Test(arguments: [
        ("https://old.example/a/", PageAliases.Problem.otherHost),
        ("//old.example/a/", .otherHost),
        ("old/a.html", .relative),
        ("/a?b=1", .character),
        ("/a#top", .character),
        ("/a b/", .character),
        ("/a%ZZ/", .character),
        ("/", .home),
        ("/a//b/", .segment),
        ("/a/../b/", .segment),
    ])
    func badAliasesAreRefused(text: String, problem: PageAliases.Problem) {
        #expect(PageAliases.sitePath(of: text) == .failure(problem))
    }

    @Test func oldAddressesRedirectToThePostAndPage() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            base_url: https://example.org/blog/
            -- posts/2024-01-01-hello.md --
            ---
            title: Hello & welcome
            aliases: [/2024/01/01/hello.html, /hello]
            ---
            See [the old address](/2024/01/01/hello.html).
            -- posts/2024-01-02-draft.md --
            ---
            title: Draft
            draft: true
            aliases: /drafted/
            ---
            D.
            -- pages/about.md --
            ---
            title: About
            aliases: /about-me/
            ---
            About.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        for file in ["2024/01/01/hello.html", "hello/index.html"] {
            let redirect = try fixture.output(file)
            #expect(redirect.contains(#"<meta http-equiv="refresh" content="0; url=/blog/posts/hello/">"#))
            #expect(redirect.contains(#"<link rel="canonical" href="https://example.org/blog/posts/hello/">"#))
            #expect(redirect.contains(#"<a href="/blog/posts/hello/">Hello &amp; welcome</a>"#))
            #expect(!redirect.contains("<script"))
        }
        #expect(try fixture.output("about-me/index.html").contains(#"url=/blog/about/""#))
        // A draft's old address is not published with the draft left out; no redirect is in the sitemap.
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("drafted").path))
        let sitemap = try fixture.output("sitemap.xml")
        #expect(!sitemap.contains("hello.html") && !sitemap.contains("about-me"))
        // The post's own page does not show its aliases; a link to an old address is a link to a page.
        #expect(!(try fixture.output("posts/hello/index.html")).contains("aliases"))
        let report = try await SiteChecker(siteRoot: fixture.site).check()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func withRelativeLinksARedirectLeadsOnFromTheFileSystem() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            relative_links: true
            tags:
              aliases:
                golang: Go
            -- posts/2024-01-01-hello.md --
            ---
            title: Hello
            tags: [golang]
            aliases: [/2024/01/01/hello.html]
            ---
            H.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let redirect = try fixture.output("2024/01/01/hello.html")
        #expect(redirect.contains(#"content="0; url=../../../posts/hello/index.html""#), "\(redirect)")
        #expect(redirect.contains(#"<a href="../../../posts/hello/index.html">"#))
        #expect(try fixture.output("tags/golang/index.html").contains(#"url=../go/index.html""#))
    }

    @Test(arguments: [
        (
            "aliases: /about/",
            "alias '/about/' is also the page of pages/about.md; both would be written to about/index.html"
        ),
        (
            "aliases: /other/",
            "alias '/other/' is also an alias of pages/about.md; both would be written to other/index.html"
        ),
        ("aliases: /tags/go/", "alias '/tags/go/' is among the site's own pages (home, tags, feeds, archive, assets)"),
        ("aliases: /feed.xml", "alias '/feed.xml' is among the site's own pages (home, tags, feeds, archive, assets)"),
        (
            "aliases: /posts/b/",
            "alias '/posts/b/' is also the page of posts/2024-01-02-b.md; both would be written to posts/b/index.html"
        ),
    ])
    func anAliasThatWouldReplaceAPageIsAnError(front: String, message: String) async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-01-01-a.md --
            ---
            title: A
            \(front)
            ---
            A.
            -- posts/2024-01-02-b.md --
            ---
            title: B
            ---
            B.
            -- pages/about.md --
            ---
            title: About
            aliases: [/other/]
            ---
            About.
            """)
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            let failure = error as? BuildFailure
            return failure?.errors.contains { $0.message == message && $0.location?.path.hasPrefix("posts/") == true }
                ?? false
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path), "nothing is written")
    }

    @Test(arguments: [
        ("aliases: [1]", "each alias must be text, not an integer"),
        ("aliases: {a: b}", "'aliases' must be a list of addresses, not a mapping"),
        (
            "aliases: [old.html]",
            "invalid alias 'old.html': an alias is written from the site's root, starting with '/'"
        ),
    ])
    func badAliasValuesAreErrorsAtTheirLine(front: String, message: String) async throws {
        let fixture = try SiteFixture("-- posts/2024-01-01-a.md --\n---\ntitle: A\n\(front)\n---\nA.\n")
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            (error as? BuildFailure)?.errors.contains { $0.message == message && $0.location?.line == 3 } ?? false
        }
    }
}
