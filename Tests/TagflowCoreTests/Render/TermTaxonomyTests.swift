import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `categories:` (and any taxonomy `taxonomies:` names): each name gets a page of its posts, a
/// feed and a place in a list, and a post's page shows its names.
@Suite struct TermTaxonomyTests {
    static func site(_ posts: [(file: String, front: String)], config: String = "") -> String {
        "-- site.yml --\ntitle: T\nbase_url: https://example.org/\n\(config)"
            + posts.map { "-- posts/\($0.file).md --\n---\ntitle: \($0.file)\n\($0.front)\n---\nText.\n" }.joined()
    }

    static let posts: [(file: String, front: String)] = [
        ("2024-01-01-a", "categories: [Guides, Swift]"),
        ("2024-01-02-b", "categories: guides"),
        ("2024-01-03-c", "tags: [x]"),
    ]

    @Test func categoriesHavePagesFeedsAndAList() async throws {
        let fixture = try SiteFixture(Self.site(Self.posts))
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let guides = try fixture.output("categories/guides/index.html")
        #expect(guides.contains("<h1>Guides</h1>"))
        #expect(guides.contains("<p class=\"meta\">2 posts · <a href=\"/categories/\">Categories</a></p>"), "\(guides)")
        #expect(guides.contains("<a href=\"/posts/a/\">") && guides.contains("<a href=\"/posts/b/\">"))
        #expect(!guides.contains("<a href=\"/posts/c/\">"))
        #expect(guides.contains(#"href="/categories/guides/feed.xml">"#))
        let list = try fixture.output("categories/index.html")
        #expect(list.contains("<h1>Categories</h1>"))
        #expect(list.contains("<li><a href=\"/categories/swift/\">Swift</a> <span class=\"count\">1</span></li>"))
        let post = try fixture.output("posts/a/index.html")
        #expect(post.contains("<div class=\"terms\"><span class=\"terms-title\">Categories</span>"), "\(post)")
        #expect(post.contains("<li><a href=\"/categories/guides/\">Guides</a></li>"))
        #expect(!(try fixture.output("posts/c/index.html")).contains("class=\"terms\""))
        let sitemap = try fixture.output("sitemap.xml")
        for path in ["categories/", "categories/guides/", "categories/swift/"] {
            #expect(sitemap.contains("<loc>https://example.org/\(path)</loc>"), "\(path)")
        }

        let data = try Data(contentsOf: fixture.output.appendingPathComponent("categories/guides/feed.xml"))
        let feed = try #require(try XMLDocument(data: data).rootElement())
        #expect(feed.name == "feed" && feed.uri == "http://www.w3.org/2005/Atom")
        #expect(feed.elements(forName: "id").first?.stringValue == "https://example.org/categories/guides/feed.xml")
        #expect(
            feed.elements(forName: "entry").compactMap { $0.elements(forName: "title").first?.stringValue } == [
                "2024-01-02-b", "2024-01-01-a",
            ])
    }

    @Test func withChipsAPostsCategoriesAreAChipBlock() async throws {
        let fixture = try SiteFixture(Self.site(Self.posts))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        let post = try fixture.output("posts/a/index.html")
        #expect(post.contains(#"<ul class="tf-chips" aria-label="Categories""#), "\(post)")
        #expect(try fixture.output("categories/index.html").contains(#"aria-label="Categories""#))
    }

    @Test func taxonomiesNameOthersWithTitles() async throws {
        let fixture = try SiteFixture(
            Self.site(
                [("2024-01-01-a", "topics: [Layout]\ncategories: [Guides]")],
                config: "language: de\ntaxonomies:\n  topics: Themen\n"))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("topics/layout/index.html").contains("<a href=\"/topics/\">Themen</a>"))
        #expect(try fixture.output("topics/index.html").contains("<h1>Themen</h1>"))
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("categories").path))
    }

    @Test func anEmptyListTurnsThemOffAndCategoriesAreAParamAgain() async throws {
        let fixture = try SiteFixture(
            Self.site([("2024-01-01-a", "categories: [Guides]")], config: "taxonomies: []\n")
                + "-- templates/post.mustache --\n{{#post.params.categories}}[{{.}}]{{/post.params.categories}}\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("categories").path))
        #expect(try fixture.output("posts/a/index.html").contains("[Guides]"))
    }

    @Test func aPageOfTheSiteTakesTheListsAddress() async throws {
        let fixture = try SiteFixture(
            Self.site([("2024-01-01-a", "categories: [Guides]")])
                + "-- pages/categories.md --\n---\ntitle: Mine\n---\nHand-written.\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("categories/index.html").contains("Hand-written."))
        #expect(try fixture.output("categories/guides/index.html").contains("<p class=\"meta\">1 post</p>"))
    }

    @Test(arguments: [
        ("taxonomies: [tags]", "'tags' cannot name a taxonomy: the key means something else"),
        ("taxonomies: [posts]", "'posts' cannot name a taxonomy: the key means something else"),
        ("taxonomies: [Big Topics]", "'Big Topics' cannot name a taxonomy"),
        ("taxonomies: [topics, topics]", "the taxonomy 'topics' is named twice"),
        ("taxonomies: 3", "'taxonomies' must be a list of names or a mapping of names to titles, not an integer"),
    ])
    func badTaxonomiesAreErrorsInSiteYML(config: String, message: String) async throws {
        let fixture = try SiteFixture(Self.site([("2024-01-01-a", "tags: [x]")], config: config + "\n"))
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            (error as? BuildFailure)?.errors.contains {
                $0.message == message && $0.location?.description.hasPrefix("site.yml:3:") == true
            } ?? false
        }
    }

    @Test func aCategoryThatIsNotANameIsAnErrorAtItsLine() async throws {
        let fixture = try SiteFixture(Self.site([("2024-01-01-a", "categories: [{a: b}]")]))
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            (error as? BuildFailure)?.errors.contains {
                $0.message == "each name in 'categories' must be text, not a mapping"
                    && $0.location?.description == "posts/2024-01-01-a.md:3:1"
            } ?? false
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path), "nothing is written")
    }
}
