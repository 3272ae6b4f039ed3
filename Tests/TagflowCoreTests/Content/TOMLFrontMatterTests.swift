import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// Posts with Hugo's TOML front matter (`+++`) build as their YAML twins do.
@Suite struct TOMLFrontMatterTests {
    static let site = """
        -- site.yml --
        title: T
        base_url: https://example.org/
        timezone: Europe/Berlin
        -- posts/hello.md --
        +++
        title = "Hello from Hugo"
        date = 2024-03-05T09:30:00+01:00
        draft = false
        tags = ["Swift", "layout"]
        description = 'A post written for Hugo'
        [params]
        hero = "hero.png"
        +++
        The body, not the front matter.
        -- posts/local.md --
        +++
        title = "Local time"
        date = 2024-03-06T08:00:00
        tags = "Swift, notes"
        +++
        Local.
        -- posts/day.md --
        +++
        title = "A day"
        date = 2024-03-07
        +++
        Day.
        -- posts/draft.md --
        +++
        title = "Draft"
        date = 2024-03-08
        draft = true
        +++
        Draft.
        -- posts/2024-03-09-yaml.md --
        ---
        title: YAML beside TOML
        tags: [swift]
        ---
        Both kinds in one site.

        """

    @Test func aTOMLPostBuildsLikeAYAMLOne() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.postCount == 4)
        #expect(report.heldBack.drafts == 1)
        #expect(report.warnings.isEmpty, "\(report.warnings)")

        let hello = try fixture.output("posts/hello/index.html")
        #expect(hello.contains("<title>Hello from Hugo"))
        #expect(hello.contains("A post written for Hugo"))
        #expect(hello.contains("The body, not the front matter."))
        #expect(!hello.contains("+++"))
        #expect(hello.contains(#"datetime="2024-03-05T09:30:00+01:00""#))
        // Local times are in the site's zone, as in YAML.
        #expect(try fixture.output("posts/local/index.html").contains(#"datetime="2024-03-06T08:00:00+01:00""#))
        // One tag, whichever front matter named it and however it was spelt.
        let swift = try fixture.output("tags/swift/index.html")
        for title in ["Hello from Hugo", "Local time", "YAML beside TOML"] { #expect(swift.contains(title)) }
        #expect(try fixture.output("tags/notes/index.html").contains("Local time"))
    }
}
