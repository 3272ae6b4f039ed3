import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Each tag has an Atom feed at `/tags/NAME/feed.xml`, linked from its page.
@Suite struct TagFeedTests {
    static let site = """
        -- site.yml --
        title: Notes
        base_url: https://example.org/blog/
        -- posts/2024-01-01-a.md --
        ---
        title: A & B
        tags: [Swift, C#]
        ---
        First.
        -- posts/2024-01-02-b.md --
        ---
        title: B
        tags: [Swift]
        ---
        ![x](photo.png)
        -- posts/2024-01-03-draft.md --
        ---
        title: Draft
        tags: [Swift]
        draft: true
        ---
        Not yet.
        """

    @Test func everyTagHasAValidFeedOfItsPosts() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, options: BuildOptions(includeDrafts: true)).build(
            to: fixture.output)
        let data = try Data(contentsOf: fixture.output.appendingPathComponent("tags/swift/feed.xml"))
        let document = try XMLDocument(data: data)
        let feed = try #require(document.rootElement())
        #expect(feed.name == "feed" && feed.uri == "http://www.w3.org/2005/Atom")
        func text(_ element: XMLElement, _ name: String) -> String? {
            element.elements(forName: name).first?.stringValue
        }
        #expect(text(feed, "title") == "Swift · Notes")
        #expect(text(feed, "id") == "https://example.org/blog/tags/swift/feed.xml")
        #expect(text(feed, "updated")?.isEmpty == false)
        func attribute(_ element: XMLElement, _ name: String) -> String? {
            element.attributes?.first { $0.name == name }?.stringValue
        }
        let links = feed.elements(forName: "link").map { (attribute($0, "rel"), attribute($0, "href")) }
        #expect(links.contains { $0.0 == "self" && $0.1 == "https://example.org/blog/tags/swift/feed.xml" }, "\(links)")
        #expect(links.contains { $0.0 == "alternate" && $0.1 == "https://example.org/blog/tags/swift/" })
        let entries = feed.elements(forName: "entry")
        #expect(entries.compactMap { text($0, "title") } == ["B", "A & B"], "newest first, the draft left out")
        for entry in entries {
            // Summaries, with the link to the post (the site's feed carries whole posts).
            for required in ["id", "title", "updated", "summary"] {
                #expect(entry.elements(forName: required).count == 1, "\(required)")
            }
            #expect(entry.elements(forName: "content").isEmpty)
            #expect(entry.elements(forName: "link").contains { attribute($0, "rel") == "alternate" })
        }
        let other = try String(
            contentsOf: fixture.output.appendingPathComponent("tags/c-sharp/feed.xml"), encoding: .utf8)
        #expect(other.contains("<title>A &amp; B</title>") && !other.contains("<title>B</title>"))
        // The tag's page names its feed for readers to find.
        let page = try String(
            contentsOf: fixture.output.appendingPathComponent("tags/swift/index.html"), encoding: .utf8)
        #expect(
            page.contains(
                #"<link rel="alternate" type="application/atom+xml" title="Swift · Notes" href="/blog/tags/swift/feed.xml">"#
            ))
        // The site's own feed keeps its identity.
        let site = try XMLDocument(data: Data(contentsOf: fixture.output.appendingPathComponent("feed.xml")))
        #expect(site.rootElement().flatMap { text($0, "id") } == "https://example.org/blog/")
        #expect(
            site.rootElement()?.elements(forName: "entry").allSatisfy { !$0.elements(forName: "content").isEmpty }
                == true)
    }
}
