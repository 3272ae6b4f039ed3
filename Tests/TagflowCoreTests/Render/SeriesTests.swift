import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

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
        #expect(second.contains("<p class=\"meta\">Part 2 of 3 · Flow layout</p>"), "the most used spelling")
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
        #expect(page.contains("Teil 2 von 2 · Tour"), "\(page)")
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
}
