import Foundation
import TagflowTesting
import Testing

@testable import TagflowCommands

@Suite struct CheckCommandTests {
    static let site = """
        -- site.yml --
        title: T
        base_url: https://me.example/blog/
        -- posts/2024-01-01-a.md --
        ---
        title: A
        ---
        See [b](/posts/b/) and [the docs](https://example.com/never/checked/).
        -- posts/2024-01-02-b.md --
        ---
        title: B
        ---
        Back to [a](../a/#top).
        """

    @Test func cleanSiteExitsWithZeroAndWritesNothing() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let before = folderContents(fixture.root)
        #expect(await TagflowCLI.run(["check", fixture.site.path, "--strict", "--quiet"]) == 0)
        #expect(folderContents(fixture.root) == before)
    }

    @Test func brokenLinkExitsWithOne() async throws {
        let fixture = try SiteFixture(Self.site.replacingOccurrences(of: "(/posts/b/)", with: "(/posts/c/)"))
        defer { fixture.remove() }
        #expect(await TagflowCLI.run(["check", fixture.site.path, "-q"]) == 1)
    }

    @Test func strictMakesWarningsFail() async throws {
        // No site.yml is a warning.
        let fixture = try SiteFixture("-- posts/2024-01-01-a.md --\n---\ntitle: A\n---\nHi\n")
        defer { fixture.remove() }
        #expect(await TagflowCLI.run(["check", fixture.site.path, "-q"]) == 0)
        #expect(await TagflowCLI.run(["check", fixture.site.path, "--strict"]) == 1)
    }

    @Test func draftsAreCheckedWhenAsked() async throws {
        let fixture = try SiteFixture(
            Self.site + "\n-- posts/2024-01-03-draft.md --\n---\ntitle: D\ndraft: true\n---\n[x](/nowhere/)\n")
        defer { fixture.remove() }
        #expect(await TagflowCLI.run(["check", fixture.site.path, "-q"]) == 0)
        #expect(await TagflowCLI.run(["check", fixture.site.path, "--drafts", "-q"]) == 1)
    }

    @Test func baseURLOptionMovesTheSite() async throws {
        let fixture = try SiteFixture(
            Self.site.replacingOccurrences(of: "title: T\n", with: "title: T\nmarkdown:\n  unsafe: true\n")
                + "\n-- pages/about.md --\n---\ntitle: About\n---\n<a href=\"/blog/posts/a/\">a</a>\n")
        defer { fixture.remove() }
        // Raw HTML is not rewritten: it is right under /blog/ only.
        #expect(await TagflowCLI.run(["check", fixture.site.path, "-q"]) == 0)
        #expect(await TagflowCLI.run(["check", fixture.site.path, "--base-url", "https://me.example/", "-q"]) == 1)
        #expect(await TagflowCLI.run(["check", fixture.site.path, "--base-url", "/blog/", "-q"]) == 0)
    }

    @Test(arguments: [
        ["check", "--no-such-flag"], ["check", "--base-url", "ftp://x"], ["check", "a", "b"],
    ])
    func badUsageExitsWithTwo(arguments: [String]) async {
        #expect(await TagflowCLI.run(arguments) == 2)
    }

    @Test func missingSiteExitsWithOne() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        #expect(await TagflowCLI.run(["check", fixture.root.appendingPathComponent("nope").path]) == 1)
    }

    @Test func binaryPrintsTheFileAndLineOfABrokenLink() throws {
        let fixture = try SiteFixture(Self.site.replacingOccurrences(of: "(/posts/b/)", with: "(/posts/c/)"))
        defer { fixture.remove() }
        let (status, stderr) = try BinaryTests().run(["check", fixture.site.path], environment: ["NO_COLOR": "1"])
        #expect(status == 1)
        #expect(
            stderr.hasPrefix(
                "posts/2024-01-01-a.md:4:9: error: broken link 'b' → /blog/posts/c/: the site has no page or file at"),
            "\(stderr)")
        #expect(stderr.contains("error: check failed: 1 error"))
        #expect(!FileManager.default.fileExists(atPath: fixture.site.appendingPathComponent("_site").path))
    }
}
