import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// `tags.hierarchy`: `lang/swift` is `swift` under `lang`; parent pages gather their children's
/// posts and show the children, child pages show the path to them.
@Suite struct TagHierarchyTests {
    static func site(hierarchy: Bool, _ posts: [(file: String, tags: String)]) -> String {
        "-- site.yml --\ntitle: T\n" + (hierarchy ? "tags:\n  hierarchy: true\n" : "")
            + posts.map { "-- posts/\($0.file).md --\n---\ntitle: \($0.file)\ntags: \($0.tags)\n---\nText.\n" }.joined()
    }

    static let nested: [(file: String, tags: String)] = [
        ("2024-01-01-a", "[lang/swift]"),
        ("2024-01-02-b", "[lang/rust, lang/swift/ui]"),
        ("2024-01-03-c", "[lang]"),
        ("2024-01-04-d", "[CI/CD]"),
    ]

    @Test func offByDefaultASlashIsPartOfOneTag() async throws {
        let fixture = try SiteFixture(Self.site(hierarchy: false, Self.nested))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("tags/ci-cd/index.html").contains("<h1>Tagged “CI/CD”</h1>"))
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("tags/ci").path))
        let swift = try fixture.output("tags/lang-swift/index.html")
        #expect(!swift.contains("breadcrumbs"))
        #expect(try fixture.output("tags/lang/index.html").contains("<p class=\"meta\">1 post"), "only its own post")
    }

    @Test func aParentListsItsChildrensPostsAndShowsThem() async throws {
        let fixture = try SiteFixture(Self.site(hierarchy: true, Self.nested))
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let lang = try fixture.output("tags/lang/index.html")
        #expect(lang.contains("<p class=\"meta\">3 posts"), "its own post and its children's, each once")
        for post in ["/posts/a/", "/posts/b/", "/posts/c/"] {
            #expect(lang.contains("<a href=\"\(post)\">"), "\(post)")
        }
        #expect(!lang.contains("<a href=\"/posts/d/\">"))
        #expect(!lang.contains("breadcrumbs"), "a tag at the root has no path to show")
        #expect(
            lang.contains(
                """
                <ul class="tag-index" aria-label="Tags under lang">
                <li><a href="/tags/lang-rust/" rel="tag">rust</a> <span class="count">1</span></li>
                <li><a href="/tags/lang-swift/" rel="tag">swift</a> <span class="count">2</span></li>
                </ul>
                """), "its children, by their last level, with counts that take in theirs: \(lang)")

        let ui = try fixture.output("tags/lang-swift-ui/index.html")
        #expect(
            ui.contains(
                #"<ol><li><a href="/tags/lang/" rel="tag">lang</a></li><li><a href="/tags/lang-swift/" rel="tag">swift</a></li><li aria-current="page">ui</li></ol>"#
            ), "\(ui)")
        #expect(try fixture.output("tags/lang-swift/index.html").contains("<p class=\"meta\">2 posts"))
        // A post shows the tags it lists, not the tags above them.
        let post = try fixture.output("posts/b/index.html")
        #expect(post.contains("/tags/lang-rust/") && !post.contains("href=\"/tags/lang/\""))
        // CI/CD nests too once the setting is on: the author asked for it.
        let ci = fixture.output.appendingPathComponent("tags/ci/index.html")
        #expect(FileManager.default.fileExists(atPath: ci.path))
    }

    @Test func theTagIndexShowsTheRootsAndAGroupUnderEach() async throws {
        let fixture = try SiteFixture(Self.site(hierarchy: true, Self.nested))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let index = try fixture.output("tags/index.html")
        let cloud = try #require(index.range(of: "<ul class=\"tag-index\">")).upperBound
        let roots = index[cloud...].components(separatedBy: "</ul>")[0]
        #expect(roots.contains(">lang</a> <span class=\"count\">3</span>") && roots.contains(">CI</a>"), "\(roots)")
        #expect(!roots.contains(">lang/swift</a>"), "the cloud shows the roots only")
        #expect(
            index.contains(
                """
                <section class="tag-group">
                <h2><a href="/tags/lang/" rel="tag">lang</a> <span class="count">3</span></h2>
                <ul class="tag-index">
                <li><a href="/tags/lang-rust/" rel="tag">rust</a> <span class="count">1</span></li>
                <li><a href="/tags/lang-swift/" rel="tag">swift</a> <span class="count">2</span></li>
                <li><a href="/tags/lang-swift-ui/" rel="tag">swift/ui</a> <span class="count">1</span></li>
                </ul>
                </section>
                """), "\(index)")
        #expect(index.contains("<h2><a href=\"/tags/ci/\" rel=\"tag\">CI</a>"))
    }

    @Test func withChipsTheChildrenAreAChipBlock() async throws {
        let fixture = try SiteFixture(Self.site(hierarchy: true, Self.nested))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        let lang = try fixture.output("tags/lang/index.html")
        let start = try #require(lang.range(of: "aria-label=\"Tags under lang\"")).upperBound
        let block = lang[start...].prefix { $0 != "\n" }
        #expect(block.contains(">rust <span") && block.contains(">swift <span"), "\(block)")
        #expect(!block.contains(">ui <span"), "children only, not grandchildren")
    }

    @Test(arguments: [
        ("[lang/]", "the tag 'lang/' has an empty level"),
        ("[/swift]", "the tag '/swift' has an empty level"),
        ("[lang//swift]", "the tag 'lang//swift' has an empty level"),
        ("[lang / swift]", "the tag 'lang / swift' has spaces around a '/'"),
        ("[a/b/c/d/e/f/g/h/i]", "the tag 'a/b/c/d/e/f/g/h/i' is 9 levels deep; at most 8 are allowed"),
    ])
    func malformedNestingIsAnErrorAtTheTagsLine(tags: String, message: String) async throws {
        let fixture = try SiteFixture(Self.site(hierarchy: true, [("2024-01-01-a", tags)]))
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            (error as? BuildFailure)?.errors.contains {
                $0.message == message && $0.location?.description == "posts/2024-01-01-a.md:3:1"
            } ?? false
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path), "nothing is written")
    }

    @Test func eightLevelsAreAllowed() async throws {
        let fixture = try SiteFixture(Self.site(hierarchy: true, [("2024-01-01-a", "[a/b/c/d/e/f/g/h]")]))
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let deepest = try fixture.output("tags/a-b-c-d-e-f-g-h/index.html")
        #expect(deepest.ranges(of: "rel=\"tag\">").count >= 7, "seven tags above it")
    }

    @Test func taxonomyGivesEachTagItsParent() {
        let posts = [
            makePost("b", day: 2, tags: ["Lang/Swift", "lang/swift/ui"]), makePost("a", day: 1, tags: ["lang/rust"]),
        ]
        let (taxonomy, _) = Taxonomy.build(posts: posts, hierarchy: true)
        #expect(taxonomy.tags.map(\.key.rawValue) == ["lang", "lang/rust", "lang/swift", "lang/swift/ui"])
        #expect(taxonomy.tags.map(\.parent) == [nil, 0, 0, 2])
        #expect(taxonomy.tags.map(\.postIndices) == [[0, 1], [1], [0], [0]])
        let (flat, _) = Taxonomy.build(posts: posts)
        #expect(flat.tags.map(\.key.rawValue) == ["lang/rust", "lang/swift", "lang/swift/ui"])
        #expect(flat.tags.allSatisfy { $0.parent == nil })
    }
}
