import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// `tags.aliases` merges tags under one name, and the aliases' own addresses send readers on.
@Suite struct TagAliasesTests {
    @Test func aliasesAreReadWithChainsFollowed() throws {
        let (config, warnings) = try SiteConfig.parse(
            "title: T\ntags:\n  aliases:\n    golang: Go\n    Swift-Lang: swift lang\n    swift lang: Swift\n")
        #expect(warnings.isEmpty)
        #expect(config.tagAliases.resolve("GoLang") == "Go")
        #expect(config.tagAliases.resolve("swift-lang") == "Swift")
        #expect(config.tagAliases.resolve("Swift Lang") == "Swift")
        #expect(config.tagAliases.resolve("Rust") == "Rust")
        #expect(config.tagAliases.names == ["golang", "Swift-Lang", "swift lang"])
    }

    @Test(arguments: [
        ("    a: b\n    b: a\n", ["the aliases of 'a' lead back to it", "the aliases of 'b' lead back to it"], 4),
        ("    Swift: swift\n", ["'Swift' is an alias of itself"], 4),
        ("    a: [b, c]\n", ["the alias 'a' must name a tag, not a list"], 4),
        ("    a: b\n    A: c\n", ["'A' is an alias twice"], 5),
    ])
    func badAliasesAreErrorsAtTheirLines(yaml: String, messages: [String], line: Int) {
        do {
            _ = try SiteConfig.parse("title: T\ntags:\n  aliases:\n" + yaml)
            Issue.record("expected errors for \(yaml)")
        } catch {
            #expect(error.errors.map(\.message).sorted() == messages.sorted())
            #expect(error.errors.allSatisfy { ($0.location?.line ?? 0) >= line - 1 })
            #expect(error.errors.contains { $0.location?.line == line })
        }
    }

    @Test func aliasesMergeTagsAndTheirAddressesRedirect() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            base_url: https://example.org/blog/
            tags:
              aliases:
                golang: Go
                swift-lang: Swift
            -- posts/2024-01-01-a.md --
            ---
            title: A
            tags: [golang]
            ---
            See [the Go posts](/tags/golang/).
            -- posts/2024-01-02-b.md --
            ---
            title: B
            tags: [Go, Rust]
            ---
            B.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let tag = try fixture.output("tags/go/index.html")
        #expect(tag.contains("/blog/posts/a/") && tag.contains("/blog/posts/b/"))
        let redirect = try fixture.output("tags/golang/index.html")
        #expect(redirect.contains(#"<meta http-equiv="refresh" content="0; url=/blog/tags/go/">"#))
        #expect(redirect.contains(#"<link rel="canonical" href="https://example.org/blog/tags/go/">"#))
        #expect(redirect.contains(#"<a href="/blog/tags/go/">Go</a>"#))
        #expect(!redirect.contains("<script"))
        // An alias of a tag no post has is no page; the sitemap lists no redirect.
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("tags/swift-lang").path))
        #expect(!(try fixture.output("sitemap.xml")).contains("golang"))
        #expect(!(try fixture.output("tags/index.html")).contains("golang"))
        // The post's link to the alias's address is a link to a page.
        let report = try await SiteChecker(siteRoot: fixture.site).check()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func aTagsOwnPageWinsOverAnAliasAddress() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            tags:
              aliases:
                c sharp: C#
            -- posts/2024-01-01-a.md --
            ---
            title: A
            tags: [C#, c-sharp]
            ---
            A.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        // "c-sharp" is a tag of its own at /tags/c-sharp-2/ or /tags/c-sharp/: never a redirect.
        let pages = try FileManager.default.contentsOfDirectory(
            atPath: fixture.output.appendingPathComponent("tags").path)
        for page in pages where page.hasPrefix("c-sharp") {
            #expect(!(try fixture.output("tags/\(page)/index.html")).contains("http-equiv"), "\(page)")
        }
    }
}
