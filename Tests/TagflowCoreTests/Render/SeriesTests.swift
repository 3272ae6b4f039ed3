import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `series:` and `series_part:`: each post of a series shows its part and every part in order.
@Suite struct SeriesTests {
    static func site(_ posts: [(file: String, front: String)], language: String = "en") -> String {
        "-- site.yml --\ntitle: T\nlanguage: \(language)\n"
            + posts.map { "-- posts/\($0.file).md --\n---\n\($0.front)\n---\nText.\n" }.joined()
    }

    @Test func aSeriesIsInDateOrderAndEachPostShowsItsPart() async throws {
        let fixture = try SiteFixture(
            Self.site([
                ("2024-01-03-c", "title: Third\nseries: Flow layout"),
                ("2024-01-01-a", "title: First\nseries: [flow layout]"),
                ("2024-01-02-b", "title: Second\nseries: Flow layout"),
                ("2024-01-04-d", "title: Elsewhere"),
            ]))
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let second = try fixture.output("posts/b/index.html")
        #expect(second.contains(#"<nav class="series" aria-label="Series">"#))
        #expect(
            second.contains("<p class=\"meta\">Part 2 of 3 · <a href=\"/series/flow-layout/\">Flow layout</a></p>"),
            "the most used spelling, linked to the series' page")
        let list = try #require(second.range(of: "<ol>")).upperBound
        let items = second[list...].prefix(300)
        #expect(
            items.hasPrefix(
                "\n<li><a href=\"/posts/a/\">First</a></li>\n<li><span aria-current=\"page\">Second</span></li>\n<li><a href=\"/posts/c/\">Third</a></li>"
            ), "\(items)")
        #expect(!(try fixture.output("posts/d/index.html")).contains("class=\"series\""))
    }

    @Test func partsOrderASeriesWhenEveryPostGivesOne() async throws {
        let fixture = try SiteFixture(
            Self.site(
                [
                    ("2024-01-01-a", "title: Eins\nseries: Tour\nseries_part: 2"),
                    ("2024-01-02-b", "title: Zwei\nseries: Tour\nseries_part: 1"),
                ], language: "de"))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let page = try fixture.output("posts/a/index.html")
        #expect(page.contains("Teil 2 von 2 · <a href=\"/series/tour/\">Tour</a>"), "\(page)")
        let zwei = try #require(page.range(of: "Zwei")).lowerBound
        let eins = try #require(page.range(of: "<span aria-current=\"page\">Eins")).lowerBound
        #expect(zwei < eins)
    }

    @Test func aPartClaimedTwiceIsAnErrorAtItsLine() async throws {
        let fixture = try SiteFixture(
            Self.site([
                ("2024-01-01-a", "title: A\nseries: Tour\nseries_part: 1"),
                ("2024-01-02-b", "title: B\nseries: tour\nseries_part: 1"),
            ]))
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            (error as? BuildFailure)?.errors.contains {
                $0.message == "part 1 of the series 'tour' is also posts/2024-01-01-a.md"
                    && $0.location?.description == "posts/2024-01-02-b.md:4:1"
            } ?? false
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path), "nothing is written")
    }

    @Test func partsOnSomePostsOnlyAreAWarningAndDateOrder() async throws {
        let fixture = try SiteFixture(
            Self.site([
                ("2024-01-01-a", "title: A\nseries: Tour\nseries_part: 2"),
                ("2024-01-02-b", "title: B\nseries: Tour"),
            ]))
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.warnings.map(\.error.location?.path) == ["posts/2024-01-02-b.md"])
        #expect(try fixture.output("posts/a/index.html").contains("Part 1 of 2"))
    }

    @Test(arguments: [
        ("series: [A, B]", "a post belongs to one series, not 2"),
        ("series: {a: b}", "'series' must be a name, not a mapping"),
        ("series: A\nseries_part: 0", "'series_part' must be a whole number from 1 to 10000"),
        ("series_part: 2", "'series_part' needs a `series:` to be a part of"),
    ])
    func badSeriesAreErrorsAtTheirLine(front: String, message: String) async throws {
        let fixture = try SiteFixture(Self.site([("2024-01-01-a", "title: A\n\(front)")]))
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            (error as? BuildFailure)?.errors.contains { $0.message == message && $0.location?.line ?? 0 >= 3 } ?? false
        }
    }

    @Test func eachSeriesHasAPageOfItsPartsInOrderAndAListOfEverySeries() async throws {
        let fixture = try SiteFixture(
            Self.site([
                ("2024-01-01-a", "title: Eins\nseries: Tour\nseries_part: 2"),
                ("2024-01-02-b", "title: Zwei\nseries: Tour\nseries_part: 1"),
                ("2024-01-03-c", "title: Drei\nseries: Flow"),
                ("2024-01-04-d", "title: Elsewhere"),
            ]))
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let tour = try fixture.output("series/tour/index.html")
        #expect(tour.contains("<h1>Tour</h1>"))
        #expect(tour.contains("<p class=\"meta\">2 posts · <a href=\"/series/\">all series</a></p>"), "\(tour)")
        #expect(
            tour.contains(
                #"<link rel="alternate" type="application/atom+xml" title="Tour · T" href="/series/tour/feed.xml">"#))
        let zwei = try #require(tour.range(of: "<a href=\"/posts/b/\">Zwei</a>")).lowerBound
        let eins = try #require(tour.range(of: "<a href=\"/posts/a/\">Eins</a>")).lowerBound
        #expect(zwei < eins, "in part order")
        #expect(!tour.contains("Drei") && !tour.contains("Elsewhere"))
        let list = try fixture.output("series/index.html")
        #expect(list.contains("<h1>Series</h1>"))
        #expect(list.contains("<li><a href=\"/series/tour/\">Tour</a> <span class=\"count\">2</span></li>"), "\(list)")
        #expect(list.contains("<li><a href=\"/series/flow/\">Flow</a> <span class=\"count\">1</span></li>"))
        let sitemap = try fixture.output("sitemap.xml")
        for path in ["series/", "series/tour/", "series/flow/"] {
            #expect(sitemap.contains("/\(path)</loc>"), "\(path)")
        }
    }

    @Test func eachSeriesHasAValidFeedOfItsNewestParts() async throws {
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: T\nbase_url: https://example.org/\n"
                + [("2024-01-01-a", "A", 2), ("2024-01-02-b", "B", 1), ("2024-01-03-c", "C", 3)].map {
                    "-- posts/\($0.0).md --\n---\ntitle: \($0.1)\nseries: Tour\nseries_part: \($0.2)\n---\nText.\n"
                }.joined())
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let data = try Data(contentsOf: fixture.output.appendingPathComponent("series/tour/feed.xml"))
        let feed = try #require(try XMLDocument(data: data).rootElement())
        #expect(feed.name == "feed" && feed.uri == "http://www.w3.org/2005/Atom")
        func text(_ element: XMLElement, _ name: String) -> String? {
            element.elements(forName: name).first?.stringValue
        }
        #expect(text(feed, "title") == "Tour · T")
        #expect(text(feed, "id") == "https://example.org/series/tour/feed.xml")
        let links = feed.elements(forName: "link").map { link in
            ["rel", "href"].map { name in link.attributes?.first { $0.name == name }?.stringValue ?? "" }
        }
        #expect(links.contains(["alternate", "https://example.org/series/tour/"]), "\(links)")
        #expect(links.contains(["self", "https://example.org/series/tour/feed.xml"]), "\(links)")
        let entries = feed.elements(forName: "entry")
        #expect(entries.compactMap { text($0, "title") } == ["C", "B", "A"], "newest first, as feed readers expect")
        for entry in entries {
            #expect(entry.elements(forName: "summary").count == 1 && entry.elements(forName: "content").isEmpty)
        }
    }

    @Test func aPageOfTheSiteAtSeriesTakesTheAddressOfTheList() async throws {
        let fixture = try SiteFixture(
            Self.site([("2024-01-01-a", "title: A\nseries: Tour")])
                + "-- pages/series.md --\n---\ntitle: My series\n---\nHand-written.\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("series/index.html").contains("Hand-written."))
        let tour = try fixture.output("series/tour/index.html")
        #expect(tour.contains("<p class=\"meta\">1 post</p>"), "no link to a list that is not there: \(tour)")
    }

    @Test func aSiteWithoutSeriesHasNoSeriesPages() async throws {
        let fixture = try SiteFixture(Self.site([("2024-01-01-a", "title: A")]))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("series").path))
        #expect(!(try fixture.output("sitemap.xml")).contains("/series/"))
    }

    @Test func twoSeriesWithOneURLAreAWarningAndTheLaterIsNumbered() async throws {
        let fixture = try SiteFixture(
            Self.site([
                ("2024-01-01-a", "title: A\nseries: Flow layout"),
                ("2024-01-02-b", "title: B\nseries: flow-layout"),
            ]))
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(
            report.warnings.map(\.error.message) == [
                "the series 'Flow layout' and 'flow-layout' would share /series/flow-layout/; 'flow-layout' uses /series/flow-layout-2/ instead"
            ])
        #expect(report.warnings.first?.error.location?.path == "posts/2024-01-02-b.md")
        #expect(try fixture.output("series/flow-layout/index.html").contains("<h1>Flow layout</h1>"))
        #expect(try fixture.output("series/flow-layout-2/index.html").contains("<h1>flow-layout</h1>"))
        #expect(try fixture.output("posts/b/index.html").contains("<a href=\"/series/flow-layout-2/\">flow-layout</a>"))
    }
}
