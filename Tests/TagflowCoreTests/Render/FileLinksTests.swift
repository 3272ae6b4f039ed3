import Foundation
import TagflowMarkdown
import TagflowTesting
import Testing

@testable import TagflowCore

/// `[x](other.md)`: links by file name lead to the page the file becomes.
@Suite struct FileLinksTests {
    static let site = """
        -- site.yml --
        title: T
        base_url: https://example.org/blog/
        -- pages/about.md --
        ---
        title: About
        ---
        ## Team
        Back to [the post](/posts/2024-01-02-b.md).
        -- posts/2024-01-02-b.md --
        ---
        title: B
        slug: bee
        ---
        B.
        -- posts/2024-01-01-a.md --
        ---
        title: A
        ---
        See [B](2024-01-02-b.md#part), [the team](../pages/about.md#team),
        [B again](./2024-01-02-b.md?x=1), [notes](/notes.md) and [far](https://example.com/x.md).

        """

    @Test func linksLeadToThePagesTheFilesBecome() async throws {
        let fixture = try SiteFixture(Self.site + "-- static/notes.md --\nNotes.\n")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let post = try String(contentsOf: fixture.output.appendingPathComponent("posts/a/index.html"), encoding: .utf8)
        #expect(post.contains(#"<a href="/blog/posts/bee/#part">B</a>"#), "\(post)")
        #expect(post.contains(#"<a href="/blog/about/#team">the team</a>"#))
        #expect(post.contains(#"<a href="/blog/posts/bee/">B again</a>"#))
        #expect(post.contains(#"<a href="/blog/notes.md">notes</a>"#), "a static file stays a link to it")
        #expect(post.contains(#"<a href="https://example.com/x.md">far</a>"#))
        let about = try String(contentsOf: fixture.output.appendingPathComponent("about/index.html"), encoding: .utf8)
        #expect(about.contains(#"<a href="/blog/posts/bee/">the post</a>"#), "from the content folder")
        // And `check` finds every one of them.
        _ = try await SiteChecker(siteRoot: fixture.site).check()
    }

    @Test func aLinkToNoPostIsAnErrorAtItsPlaceWithTheNearestName() async throws {
        let fixture = try SiteFixture(
            Self.site + "-- posts/2024-02-01-c.md --\n---\ntitle: C\n---\nText first.\n\n  Then [B](2024-01-03-b.md).\n"
                + "-- posts/2024-02-02-d.md --\n---\ntitle: D\ndraft: true\n---\nD.\n"
                + "-- posts/2024-02-03-e.md --\n---\ntitle: E\n---\n[D](2024-02-02-d.md) [x](../pages/abuot.md)\n")
        defer { fixture.remove() }
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        let messages = failure?.errors.map(\.description) ?? []
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "posts/2024-02-01-c.md:6:8: error: link to '2024-01-03-b.md': no published post or page is posts/2024-01-03-b.md"
                )
                    && $0.contains("did you mean 'posts/2024-01-02-b.md'?")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.contains("no published post or page is posts/2024-02-02-d.md") && $0.contains("--drafts")
            })
        #expect(messages.contains { $0.contains("pages/abuot.md") && $0.contains("did you mean 'pages/about.md'?") })
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path), "no half-written site")
        // With drafts, the draft is there to link to.
        var options = BuildOptions()
        options.includeDrafts = true
        let withDrafts = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site, options: options).build(to: fixture.output)
        }
        #expect(withDrafts?.errors.contains { $0.description.contains("2024-02-02-d.md") } == false)
    }

    @Test func whatCountsAsALinkToAFile() {
        for destination in ["a.md", "../pages/b.markdown#x", "/posts/c.MD?y", "a/b:c.md"] {
            #expect(MarkdownFileLink.namesMarkdownFile(destination), "\(destination)")
        }
        for destination in [
            "https://x.org/a.md", "//x.org/a.md", "#a.md", "a.md.html", "mailto:a.md", "dir:a/b.md", "a.txt",
        ] {
            #expect(!MarkdownFileLink.namesMarkdownFile(destination), "\(destination)")
        }
        let rendered = MarkdownRenderer().render("x\n\n- [a](a.md) and [b](b.html)\n", firstLine: 5)
        #expect(rendered.fileLinks.map(\.destination) == ["a.md"])
        #expect(rendered.fileLinks.first.map { [$0.line, $0.column] } == [7, 3])
        #expect(rendered.html.contains(#"<a href="tagflow-file-link:0">a</a>"#))
    }
}
