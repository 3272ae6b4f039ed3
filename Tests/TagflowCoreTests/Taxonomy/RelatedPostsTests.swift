import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

@Suite struct RelatedPostsTests {
    /// Tags as posts' lists of tag numbers; the tags' posts follow from them.
    static func related(_ postTags: [[Int]], limit: Int = 5) async -> [[Int]] {
        let tagCount = (postTags.flatMap { $0 }.max() ?? -1) + 1
        var tagPosts = Array(repeating: [Int](), count: tagCount)
        for (post, tags) in postTags.enumerated() { for tag in tags { tagPosts[tag].append(post) } }
        return await RelatedPosts.all(postTags: postTags, tagPosts: tagPosts, limit: limit)
    }

    @Test func rarerSharedTagsCountMore() async {
        // Tag 0 is on every post but the last; tag 1 only on posts 0 and 3.
        let lists = await Self.related([[0, 1], [0], [0], [1], [0], [2]])
        #expect(lists[0] == [3, 1, 2, 4])
        #expect(lists[3] == [0])
        #expect(lists[5] == [])
    }

    @Test func moreSharedTagsRankHigherAndTiesGoToTheNearerPost() async {
        // Of 8 posts: tag 0 on 5, tag 1 on 3, tag 2 on 2.
        let lists = await Self.related([[0, 1, 2], [0], [0, 1], [0, 1], [2], [3], [3], [0]])
        // 2 and 3 share tags 0 and 1 (a tie: 2 is nearer), 4 the rarer 2, then 1 and 7 tag 0.
        #expect(lists[0] == [2, 3, 4, 1, 7])
    }

    @Test func theLimitCutsAndZeroTurnsThemOff() async {
        let tags = Array(repeating: [0, 1], count: 12)
        #expect(await Self.related(tags + [[1]], limit: 3)[0] == [1, 2, 3])
        #expect(await Self.related(tags + [[1]], limit: 0).allSatisfy(\.isEmpty))
    }

    @Test func aTagOnEveryPostRelatesNothing() async {
        #expect(await Self.related([[0], [0], [0]]).allSatisfy(\.isEmpty))
    }

    /// 10 000 posts, two thirds with one common tag, and groups of 50 with a rare one: each post's
    /// candidates are its group and the posts of the common tag nearest in date, not all 10 000.
    @Test func aCommonTagLimitsTheCandidatesToTheNearestPosts() async {
        let postTags = (0..<10_000).map { post in (post % 3 == 0 ? [] : [0]) + [1 + post / 50] }
        let lists = await Self.related(postTags, limit: 5)
        // Post 5000 has both: its group's posts with the common tag first, nearest first.
        #expect(lists[5000] == [5_002, 5_003, 5_005, 5_006, 5_008])
        // Post 0 lacks the common tag: its group, nearest first.
        #expect(lists[0] == [1, 2, 3, 4, 5])
        #expect(lists.allSatisfy { $0.count == 5 })
    }

    /// After some posts list other tags, updating only the posts that list a changed tag gives
    /// the lists made afresh, on sites with rare and common tags (walked whole, and cut to the
    /// nearest posts), tags added and tags gone.
    @Test(arguments: 0..<40)
    func updatedListsEqualListsMadeAfresh(seed: UInt64) async {
        var random = SeededGenerator(seed: seed)
        let postCount = Int.random(in: 1...900, using: &random)
        // Tag 0 is common (past the limit of a tag walked whole in larger sites); the others rare.
        func tags() -> [Int] {
            (Int.random(in: 0..<3, using: &random) == 0 ? [] : [0])
                + (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 1...40, using: &random) }
        }
        var postTags = (0..<postCount).map { _ in Array(Set(tags())).sorted() }
        let before = await Self.related(postTags, limit: 5)
        var retagged: Set<Int> = []
        var changedTags: Set<Int> = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let post = Int.random(in: 0..<postCount, using: &random)
            let new = Int.random(in: 0..<4, using: &random) == 0 ? [41] : Array(Set(tags())).sorted()
            // The tags the post gained or lost: only their posts changed.
            changedTags.formUnion(Set(postTags[post]).symmetricDifference(new))
            postTags[post] = new
            retagged.insert(post)
        }
        let tagCount = (postTags.flatMap { $0 }.max() ?? -1) + 1
        var tagPosts = Array(repeating: [Int](), count: max(tagCount, 42))
        for (post, tags) in postTags.enumerated() { for tag in tags { tagPosts[tag].append(post) } }
        let afresh = await RelatedPosts.all(postTags: postTags, tagPosts: tagPosts, limit: 5)
        let updated = await RelatedPosts.updated(
            before, retagged: retagged, changedTags: changedTags, postTags: postTags, tagPosts: tagPosts, limit: 5)
        #expect(updated == afresh, "seed \(seed)")
    }

    @Test func postPagesShowRelatedPostsWithTheTagsTheyShare() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-01-01-a.md --
            ---
            title: A
            tags: [Swift, Layout, Rare]
            ---
            A.
            -- posts/2024-01-02-b.md --
            ---
            title: B
            tags: [Swift, Rare]
            ---
            B.
            -- posts/2024-01-03-c.md --
            ---
            title: C
            tags: [Swift, Layout]
            ---
            C.
            -- posts/2024-01-04-d.md --
            ---
            title: D
            tags: [Other]
            ---
            D.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let page = try fixture.output("posts/a/index.html")
        let related = try #require(
            page.range(of: #"<aside class="related-posts""#).map { String(page[$0.lowerBound...]) })
        let b = try #require(related.range(of: #"href="/posts/b/""#)).lowerBound
        let c = try #require(related.range(of: #"href="/posts/c/""#)).lowerBound
        #expect(b < c, "B shares the rarer tag")
        #expect(!related.contains("/posts/d/"))
        let bEntry = String(related[b..<c])
        #expect(bEntry.contains(">Rare<") && bEntry.contains(">Swift<") && !bEntry.contains(">Layout<"))
        #expect(!(try fixture.output("posts/d/index.html")).contains("related-posts"))

        try fixture.write("site.yml", "title: T\nrelated:\n  limit: 0\n")
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(!(try fixture.output("posts/a/index.html")).contains("related-posts"))
    }

    @Test func aLimitOutOfRangeIsAnErrorAtItsLine() {
        for value in ["many", "-1", "101"] {
            do {
                _ = try SiteConfig.parse("title: T\nrelated:\n  limit: \(value)\n")
                Issue.record("expected an error for \(value)")
            } catch {
                #expect(error.errors.map(\.message) == ["'related.limit' must be a whole number from 0 to 100"])
                #expect(error.errors.first?.location?.line == 3)
            }
        }
    }
}
