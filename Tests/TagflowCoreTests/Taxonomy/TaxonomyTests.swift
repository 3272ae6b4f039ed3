import TagflowMarkdown
import Testing

@testable import TagflowCore

func makePost(_ slug: String, day: Int, tags: [String], draft: Bool = false) -> Post {
    Post(
        sourcePath: "posts/\(slug).md", title: slug, date: ContentDate(secondsSince1970: Int64(day) * 86_400),
        updated: nil, slug: Slug(rawValue: slug), tags: tags, isDraft: draft, summary: "", description: "",
        template: nil, params: YAMLMapping(),
        body: ContentBody(RenderedMarkdown(html: "", headings: [], firstParagraph: "", wordCount: 0, embeds: [])))
}

@Suite struct TaxonomyTests {
    @Test func mostUsedSpellingWinsAndTiesGoToTheEarliestPost() {
        let site = Site(
            config: SiteConfig(),
            posts: [
                makePost("a", day: 1, tags: ["swift", "Flow Layout"]),
                makePost("b", day: 2, tags: ["Swift", "flow layout"]),
                makePost("c", day: 3, tags: ["Swift"]),
            ], pages: [])
        let swift = site.taxonomy[TagKey("SWIFT")]
        #expect(swift?.name == "Swift")
        #expect(swift?.count == 3)
        // One each: "Flow Layout" came first in date order.
        #expect(site.taxonomy[TagKey("flow layout")]?.name == "Flow Layout")
    }

    @Test func tagPostsAreNewestFirst() {
        let site = Site(
            config: SiteConfig(),
            posts: [makePost("old", day: 1, tags: ["x"]), makePost("new", day: 9, tags: ["x"])], pages: [])
        let tag = site.taxonomy[TagKey("x")]
        #expect(tag.map { $0.postIndices.map { site.posts[$0].slug.rawValue } } == ["new", "old"])
    }

    @Test func slugCollisionsGetADeterministicSuffixAndAWarning() {
        let posts = [makePost("a", day: 1, tags: ["#hashtag", "hashtag", "C", "C++", "C#"])]
        let (taxonomy, diagnostics) = Taxonomy.build(posts: posts)
        #expect(taxonomy[TagKey("#hashtag")]?.slug.rawValue == "hashtag")
        #expect(taxonomy[TagKey("hashtag")]?.slug.rawValue == "hashtag-2")
        #expect(Set(taxonomy.tags.map(\.slug)).count == taxonomy.tags.count)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.error.message.contains("/tags/hashtag/") == true)
        let (again, _) = Taxonomy.build(posts: posts)
        #expect(again == taxonomy)
    }

    /// `tagflow serve` counts again only the tags an edit reaches: the result must be what a build
    /// of the edited posts gives, names, slugs, suffixes and warnings included.
    @Test func retaggingGivesWhatABuildOfTheEditedPostsGives() {
        // Spellings that share an identity, slugs that collide, a tag that comes and goes.
        let pool = ["Swift", "swift", "SWIFT", "C", "C++", "C#", "#hashtag", "hashtag", "日本語", "x", "Layout"]
        var generator = SeededGenerator(seed: 7)
        func tags() -> [String] {
            var chosen: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let tag = pool[Int.random(in: 0..<pool.count, using: &generator)]
                if !chosen.contains(where: { TagKey($0) == TagKey(tag) }) { chosen.append(tag) }
            }
            return chosen
        }
        func post(_ index: Int, line: Int) -> Post {
            var post = makePost("p\(index)", day: 100 - index, tags: tags())
            post.tagsLocation = SourceLocation(path: post.sourcePath, line: line)
            return post
        }
        var rounds = 0
        var retaggedTags = 0
        for _ in 0..<400 {
            let previous = (0..<Int.random(in: 1...12, using: &generator)).map { post($0, line: 3) }
            var posts = previous
            let changed = Set(
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    Int.random(in: 0..<posts.count, using: &generator)
                })
            for index in changed { posts[index] = post(index, line: Int.random(in: 2...5, using: &generator)) }
            let (taxonomy, _) = Taxonomy.build(posts: previous)
            let previousTagKeys = Dictionary(uniqueKeysWithValues: changed.map { ($0, previous[$0].tagKeys) })
            let (retagged, warnings) = taxonomy.retagged(posts: posts, previousTagKeys: previousTagKeys)
            let (expected, expectedWarnings) = Taxonomy.build(posts: posts)
            #expect(retagged == expected, "\(previous.map(\.tags)) → \(posts.map(\.tags))")
            #expect(warnings.map(\.description) == expectedWarnings.map(\.description))
            rounds += 1
            if retagged.tags.map(\.key) != taxonomy.tags.map(\.key) { retaggedTags += 1 }
        }
        // Not vacuous: most rounds add or remove tags.
        #expect(rounds == 400 && retaggedTags > 200)
    }
}

@Suite struct PaginationTests {
    @Test func splitsIntoPages() {
        let pages = Pagination.pages(itemCount: 21, perPage: 10)
        #expect(pages.map(\.range) == [0..<10, 10..<20, 20..<21])
        #expect(pages.allSatisfy { $0.pageCount == 3 })
        #expect(Pagination.pages(itemCount: 0, perPage: 10).map(\.range) == [0..<0])
        #expect(Pagination.pages(itemCount: 10, perPage: 10).count == 1)
    }

    @Test func pagePaths() {
        #expect(Pagination.path(of: 1, firstPagePath: "/") == "/")
        #expect(Pagination.path(of: 2, firstPagePath: "/") == "/page/2/")
        #expect(Pagination.path(of: 3, firstPagePath: "/tags/swift/") == "/tags/swift/page/3/")
    }
}
