import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// `/archive/` lists every post by year and month, with counts.
@Suite struct ArchiveTests {
    static let posts = """
        -- posts/2023-12-31-eve.md --
        ---
        title: Eve
        date: 2023-12-31T23:30:00-05:00
        ---
        Late.
        -- posts/2024-01-05-a.md --
        ---
        title: A
        ---
        A.
        -- posts/2024-01-20-b.md --
        ---
        title: B
        ---
        B.
        -- posts/2024-03-02-c.md --
        ---
        title: C & D
        ---
        C.
        """

    @Test func postsAreGroupedByYearAndMonthNewestFirst() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.posts)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let html = try fixture.output("archive/index.html")
        #expect(html.contains("<p class=\"meta\">4 posts</p>"))
        // Eve's 23:30 at UTC-5 is the first of January in UTC, the site's time zone.
        let order = [
            #"<h2 id="archive-2024">2024 <span class="count">4</span></h2>"#,
            #"<h3>March <span class="count">1</span></h3>"#, "C &amp; D",
            #"<h3>January <span class="count">3</span></h3>"#, ">B</a>", ">A</a>", ">Eve</a>",
        ]
        var from = html.startIndex
        for piece in order {
            let found = try #require(
                html.range(of: piece, range: from..<html.endIndex), "\(piece) after the one before")
            from = found.upperBound
        }
        #expect(!html.contains("December") && !html.contains("archive-2023"))
        #expect(try fixture.output("sitemap.xml").contains("<loc>http://localhost:8000/archive/</loc>"))
        #expect(try fixture.output("index.html").contains(#"<a href="/archive/">Archive</a>"#))
    }

    @Test func monthsFollowTheSiteTimeZone() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\ntimezone: America/New_York\n" + Self.posts)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let html = try fixture.output("archive/index.html")
        #expect(html.contains(#"<h2 id="archive-2023">2023 <span class="count">1</span></h2>"#))
        #expect(html.contains("December"))
    }

    @Test func aPageOfTheSiteTakesTheAddress() async throws {
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: T\n" + Self.posts
                + "\n-- pages/archive.md --\n---\ntitle: My archive\n---\nHand-made.\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let html = try fixture.output("archive/index.html")
        #expect(html.contains("Hand-made."))
        #expect(!html.contains("archive-2024"))
        let sitemap = try fixture.output("sitemap.xml")
        #expect(sitemap.components(separatedBy: "/archive/</loc>").count == 2, "listed once, as the page")
    }

    @Test func anEmptySiteHasAnEmptyArchive() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("archive/index.html").contains("<p class=\"meta\">0 posts</p>"))
    }
}
