import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// A post dated after the build's time waits for its date, unless `--future` asks for it.
@Suite struct ScheduledPostsTests {
    /// 2024-06-01T02:00:00Z.
    static let now = ContentDate(secondsSince1970: 1_717_207_200)

    static let site = """
        -- site.yml --
        title: T
        base_url: https://example.org/
        -- posts/2024-05-01-old.md --
        ---
        title: Old
        ---
        Old.
        -- posts/tokyo.md --
        ---
        title: Tokyo
        date: 2024-06-01T10:00:00+09:00
        ---
        An hour ago in UTC, though the date looks ahead.
        -- posts/next.md --
        ---
        title: Next
        date: 2024-06-01T04:00:00Z
        ---
        Due in two hours.
        -- posts/later.md --
        ---
        title: Later
        date: 2024-07-01
        ---
        Next month.
        -- posts/draft.md --
        ---
        title: Draft
        date: 2024-05-02
        draft: true
        ---
        Draft.

        """

    static func options(at now: ContentDate, future: Bool = false, cache: Bool = false) -> BuildOptions {
        var options = BuildOptions(includeFuture: future, useCache: cache)
        options.now = now
        return options
    }

    @Test func scheduledPostsWaitAndAreCounted() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site, options: Self.options(at: Self.now))
            .build(to: fixture.output)
        #expect(report.postCount == 2)
        #expect(
            report.heldBack
                == HeldBackPosts(drafts: 1, scheduled: 2, nextScheduled: ContentDate(secondsSince1970: 1_717_214_400)))
        #expect(
            FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("posts/tokyo/index.html").path)
        )
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("posts/next").path))
    }

    @Test func futureShowsThemMarkedAndKeepsThemOutOfTheFeedAndSitemap() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site, options: Self.options(at: Self.now, future: true))
            .build(to: fixture.output)
        #expect(report.postCount == 4)
        #expect(report.heldBack.scheduled == 0 && report.heldBack.drafts == 1)
        func read(_ path: String) throws -> String {
            try String(contentsOf: fixture.output.appendingPathComponent(path), encoding: .utf8)
        }
        #expect(try read("posts/next/index.html").contains(#"<span class="draft">Scheduled</span>"#))
        #expect(try !read("posts/tokyo/index.html").contains("Scheduled"))
        #expect(try read("index.html").components(separatedBy: "Scheduled").count == 3)
        #expect(try !read("feed.xml").contains("Next") && read("feed.xml").contains("Tokyo"))
        #expect(try !read("sitemap.xml").contains("/posts/later/") && read("sitemap.xml").contains("/posts/tokyo/"))
    }

    /// "Up to date" holds until the next scheduled post falls due; then the build publishes it.
    @Test func theCacheExpiresWhenAScheduledPostFallsDue() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let first = try await SiteBuilder(siteRoot: fixture.site, options: Self.options(at: Self.now, cache: true))
            .build(to: fixture.output)
        #expect(!first.isUpToDate)
        let again = try await SiteBuilder(
            siteRoot: fixture.site, options: Self.options(at: ContentDate(secondsSince1970: 1_717_214_399), cache: true)
        ).build(to: fixture.output)
        #expect(again.isUpToDate)
        #expect(again.heldBack.scheduled == 2 && again.heldBack.drafts == 1, "told again from the cache")
        let due = try await SiteBuilder(
            siteRoot: fixture.site, options: Self.options(at: ContentDate(secondsSince1970: 1_717_214_400), cache: true)
        ).build(to: fixture.output)
        #expect(!due.isUpToDate)
        #expect(due.postCount == 3 && due.heldBack.scheduled == 1)
        let home = try String(contentsOf: fixture.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(home.contains("/posts/next/"))
    }
}
