import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// Where the chip plugin draws tag lists in a built site, and how much it draws.
@Suite struct ChipListTests {
    /// `hub` shares posts with six other tags: `b` on three posts, `c` on two, the rest on one.
    static let site = """
        -- site.yml --
        posts_per_page: 2
        chips:
          related_limit: 3
        -- posts/2024-01-01-one.md --
        ---
        tags: [hub, b, c, d]
        ---
        -- posts/2024-01-02-two.md --
        ---
        tags: [hub, b, c, e]
        ---
        -- posts/2024-01-03-three.md --
        ---
        tags: [hub, b, f, g]
        ---
        """

    /// The labels of the chips in the block with this `aria-label`, in document order.
    static func chipLabels(in html: String, block label: String) -> [String] {
        guard let start = html.range(of: "aria-label=\"\(label)\""),
            let end = html.range(of: "</ul>", range: start.upperBound..<html.endIndex)
        else { return [] }
        let block = html[start.upperBound..<end.lowerBound]
        return block.components(separatedBy: "<a href=").dropFirst().compactMap { part in
            guard let open = part.firstIndex(of: ">"), let close = part.range(of: "</a>") else { return nil }
            return String(part[part.index(after: open)..<close.lowerBound])
        }
    }

    /// The chip plugin says a post's page draws its tags as lists of posts do, so a post page
    /// reuses the list's block; that is only right while the two drawings are the same.
    @Test func chipsDrawAPostsTagsAsItsSummaryDoes() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let context = try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).run()
        let lists = try #require(context.plugins.tagListRenderer)
        #expect(lists.drawsPostsAsSummaries)
        let links = [
            TagLink(name: "hub", url: "/tags/hub/", count: 3, key: TagKey("hub")),
            TagLink(name: "C#", url: "/tags/c-sharp/", count: 1, key: TagKey("C#")),
        ]
        #expect(lists.html(for: links, role: .post) == lists.html(for: links, role: .summary))
    }

    /// The chip plugin says its blocks of a post's tags show no counts, so `tagflow serve` leaves
    /// the counts out of what a post's entries depend on; that is only right while a count changes
    /// nothing in them.
    @Test func chipsOfAPostsTagsShowNoCounts() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let context = try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).run()
        let lists = try #require(context.plugins.tagListRenderer)
        #expect(!lists.drawsCountsInPostLists)
        let links = [
            TagLink(name: "hub", url: "/tags/hub/", count: 3, key: TagKey("hub")),
            TagLink(name: "C#", url: "/tags/c-sharp/", count: 1, key: TagKey("C#")),
        ]
        var recounted = links
        for index in recounted.indices { recounted[index].count = 10_000 + index }
        for role in [TagListRole.post, .summary] {
            #expect(lists.html(for: links, role: role) == lists.html(for: recounted, role: role))
        }
        // The clouds do show them.
        #expect(lists.html(for: links, role: .cloud) != lists.html(for: recounted, role: .cloud))
    }

    /// A plugin that draws a post's page its own way (the default) still does.
    @Test func aPluginDrawingPostPagesItsOwnWayIsAskedForThem() async throws {
        struct Marked: TagListRenderer {
            func html(for tags: [TagLink], role: TagListRole) -> String? {
                "<p class=\"\(role == .post ? "on-post" : "elsewhere")\">\(tags.map(\.name).joined(separator: " "))</p>"
            }
        }
        let plugin = Plugin(name: "marked") { $0.tagListRenderer = Marked() }
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [plugin]).build(to: fixture.output)
        #expect(try fixture.output("posts/one/index.html").contains("<p class=\"on-post\">hub b c d</p>"))
        #expect(try fixture.output("index.html").contains("<p class=\"elsewhere\">hub b f g</p>"))
    }

    @Test func relatedTagsAreTheMostSharedUpToTheLimit() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        let page = try fixture.output("tags/hub/index.html")
        #expect(Self.chipLabels(in: page, block: "Related tags") == ["hub", "b", "c"])
        #expect(page.contains("aria-current=\"page\">hub</a>"))
        // The second page of the tag shows the same block.
        let second = try fixture.output("tags/hub/page/2/index.html")
        #expect(Self.chipLabels(in: second, block: "Related tags") == ["hub", "b", "c"])
    }

    @Test func zeroShowsEveryRelatedTag() async throws {
        let fixture = try SiteFixture(Self.site.replacingOccurrences(of: "related_limit: 3", with: "related_limit: 0"))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        let labels = Self.chipLabels(in: try fixture.output("tags/hub/index.html"), block: "Related tags")
        #expect(labels == ["hub", "b", "c", "d", "e", "f", "g"])
    }

    @Test func theHomeCloudIsOnTheFirstPageOnly() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        // Only the cloud's chips carry a post count.
        #expect(try fixture.output("index.html").contains("hub <span class=\"tf-n\">3</span>"))
        let second = try fixture.output("page/2/index.html")
        #expect(second.contains("class=\"tf-chips\""), "the posts' own tags are still chips")
        #expect(!second.contains("class=\"tf-n\""))
    }
}
