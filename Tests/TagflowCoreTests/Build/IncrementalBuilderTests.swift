import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// A rebuild after an edit writes exactly what a full build of the edited site writes, and
/// renders only the pages the edit reaches.
@Suite struct IncrementalBuilderTests {
    /// A small blog: paginated lists, shared tags (spellings that differ only in case and
    /// punctuation), a chip block in a post, pages in the menu, a static file.
    final class Blog {
        let root: URL
        var site: URL { root.appendingPathComponent("site") }
        var output: URL { root.appendingPathComponent("preview") }
        var posts: [String: Post] = [:]
        var next = 0

        struct Post {
            var title: String
            var date: String
            var tags: [String]
            var body: String
            var draft = false
            var slug: String?
            var aliases: [String] = []
            var series: String?
            var categories: [String] = []
        }

        static let tagPool = ["Swift", "swift", "C", "C++", "C#", "async", "async/await", "Layout", "CSS", "日本語"]

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-incremental-\(UUID())")
            try write("site.yml", "title: Edits\nposts_per_page: 3\nfeed_entries: 4\n")
            try write("pages/about.md", "---\ntitle: About\n---\nAbout.\n")
            try write("static/robots.txt", "User-agent: *\n")
            for index in 0..<18 {
                try add(
                    Post(
                        title: "Post \(index)", date: "2024-03-\(10 + index % 9)",
                        tags: [Self.tagPool[index % 10], Self.tagPool[(index * 3 + 1) % 10]],
                        body: index == 4 ? "```chips\nSwift\nLayout\n```\n\nChips." : "Text \(index).",
                        series: index % 5 == 0 ? "Tour" : nil))
            }
        }

        func write(_ path: String, _ text: String) throws {
            let url = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func remove(_ path: String) throws {
            try FileManager.default.removeItem(at: site.appendingPathComponent(path))
        }

        @discardableResult
        func add(_ post: Post) throws -> String {
            let path = "posts/p\(next).md"
            next += 1
            posts[path] = post
            try save(path)
            return path
        }

        func save(_ path: String) throws {
            guard let post = posts[path] else { return }
            var front = "title: \(post.title)\ndate: \(post.date)\n"
            front += "tags: [\(post.tags.map { "'\($0)'" }.joined(separator: ", "))]\n"
            if post.draft { front += "draft: true\n" }
            if let slug = post.slug { front += "slug: \(slug)\n" }
            if !post.aliases.isEmpty { front += "aliases: [\(post.aliases.joined(separator: ", "))]\n" }
            if let series = post.series { front += "series: \(series)\n" }
            if !post.categories.isEmpty { front += "categories: [\(post.categories.joined(separator: ", "))]\n" }
            try write(path, "---\n\(front)---\n\(post.body)\n")
        }

        /// The warnings of the last ``fullBuild()``.
        var fullBuildWarnings: [String] = []
        /// The plugins of ``fullBuild()``.
        var plugins: [Plugin] = [.chips]

        /// The output of a full build of the site as it is now.
        func fullBuild() async throws -> [String: Data] {
            let folder = root.appendingPathComponent("full-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let report = try await SiteBuilder(siteRoot: site, plugins: plugins).build(to: folder)
            fullBuildWarnings = report.warnings.map(\.description)
            return folderContents(folder)
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    static func rebuilt(_ builder: IncrementalBuilder, _ paths: Set<String>?) async throws -> BuildReport {
        try await builder.build(changedPaths: paths).get()
    }

    /// A theme that shows each tag's count in the tag lists of posts.
    static let countingTagList = "{{#tags}}<span class=\"count\">{{count}}</span>{{/tags}}\n{{{tags_html}}}\n"

    /// A plugin that draws a post's tags with their counts (and says so, by the default).
    struct CountingTagLists: TagListRenderer {
        func html(for tags: [TagLink], role: TagListRole) -> String? {
            guard role == .post || role == .summary else { return nil }
            return "<p>" + tags.map { "\($0.name) \($0.count)" }.joined(separator: ", ") + "</p>"
        }
    }

    /// A plugin that shows counts in related tags only, and says its posts' tags show none.
    struct CountingRelatedTags: TagListRenderer {
        var drawsCountsInPostLists: Bool { false }

        func html(for tags: [TagLink], role: TagListRole) -> String? {
            switch role {
            case .post, .summary: return "<p>" + tags.map(\.name).joined(separator: ", ") + "</p>"
            case .related: return "<p>" + tags.map { "\($0.name) \($0.count)" }.joined(separator: ", ") + "</p>"
            default: return nil
            }
        }
    }

    /// A footer that shows every post and every tag on every page.
    static let siteListsFooter =
        "<footer>{{#site.posts}}{{title}} {{date_display}}{{#tags}} {{name}}{{/tags}};{{/site.posts}}"
        + "{{#site.tags}}{{name}} {{count}} {{url}};{{/site.tags}}</footer>\n"

    /// The pages a theme can have, each of which prints its whole context (`{{.}}`): a page's
    /// key must then take in every value a template can read, including any a later version
    /// adds to a context.
    static let everyPageTemplate = [
        "404", "archive", "atom", "home", "page", "post", "series-list", "series", "sitemap", "tag", "tags", "term",
        "terms",
    ]

    /// With the built-in theme and chips, which show no counts in posts' tag lists, with a
    /// template or a plugin that does (a post's entries then depend on its tags' counts), with
    /// a plugin that shows them in related tags only, with a footer that shows `site.posts`
    /// and `site.tags` on every page (so every page depends on every post and tag), and with
    /// templates that print every value their pages are given.
    @Test(arguments: [
        "chips", "counting template", "counting plugin", "counting related tags", "site lists", "every value",
    ])
    func everyKindOfEditRebuildsWhatAFullBuildWrites(theme: String) async throws {
        let blog = try Blog()
        if theme == "counting template" { try blog.write("templates/tag-list.mustache", Self.countingTagList) }
        if theme == "site lists" { try blog.write("templates/footer.mustache", Self.siteListsFooter) }
        if theme == "every value" {
            for name in Self.everyPageTemplate { try blog.write("templates/\(name).mustache", "{{.}}\n") }
        }
        let plugins: [Plugin] =
            switch theme {
            case "counting plugin": [Plugin(name: "counting") { $0.tagListRenderer = CountingTagLists() }]
            case "counting related tags": [Plugin(name: "related") { $0.tagListRenderer = CountingRelatedTags() }]
            default: [.chips]
            }
        blog.plugins = plugins
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: plugins)
        let first = try await Self.rebuilt(builder, nil)
        #expect(first.rewrittenFileCount == nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        if theme == "site lists" {
            let about = try String(contentsOf: blog.output.appendingPathComponent("about/index.html"), encoding: .utf8)
            #expect(about.contains("Post 17 ") && about.contains(" /tags/swift/;"), "\(about)")
        }

        var generator = SeededGenerator(seed: 42)
        var kinds: [String: Int] = [:]
        for step in 0..<64 {
            let paths = blog.posts.keys.sorted()
            let path = paths[Int.random(in: 0..<paths.count, using: &generator)]
            var post = blog.posts[path]!
            var changed: Set<String> = [path]
            let kind = [
                "body", "title", "date", "add tag", "drop tag", "respell tag", "new post", "delete post",
                "draft", "slug", "page", "new page", "alias", "series", "list page", "paragraph",
            ][step % 16]
            switch kind {
            case "body": post.body += " More \(step)."
            // Past the summary (the first paragraph): only the post's page and the site feed show it.
            case "paragraph": post.body += "\n\nMore \(step)."
            case "title": post.title = "Retitled \(step)"
            case "date": post.date = "2024-0\(1 + step % 9)-2\(step % 8)"
            case "add tag": post.tags.append(Blog.tagPool[Int.random(in: 0..<10, using: &generator)] + "\(step % 3)")
            case "drop tag": post.tags = Array(post.tags.dropFirst())
            case "respell tag": post.tags = post.tags.map { $0.uppercased() }
            case "draft": post.draft.toggle()
            case "slug": post.slug = "moved-\(step)"
            case "alias": post.aliases.append("/old/\(step).html")
            case "series": post.series = post.series == nil ? "Tour" : nil
            default: break
            }
            switch kind {
            case "new post":
                changed = [
                    try blog.add(
                        Blog.Post(
                            title: "New \(step)", date: "2024-05-0\(1 + step % 9)", tags: ["Swift", "New"],
                            body: "New."))
                ]
            case "delete post":
                blog.posts[path] = nil
                try blog.remove(path)
            case "page":
                try blog.write("pages/about.md", "---\ntitle: About \(step)\n---\nAbout.\n")
                changed = ["pages/about.md"]
            case "new page":
                try blog.write("pages/extra\(step).md", "---\ntitle: Extra \(step)\n---\nExtra.\n")
                changed = ["pages/extra\(step).md"]
            case "list page":
                // A page of the site's own at `/series/` takes the address of the list of series,
                // which each series' page links to; then it goes again.
                let listPage = "pages/series.md"
                if FileManager.default.fileExists(atPath: blog.site.appendingPathComponent(listPage).path) {
                    try blog.remove(listPage)
                } else {
                    try blog.write(listPage, "---\ntitle: My series\n---\nMine.\n")
                }
                changed = [listPage]
            default:
                blog.posts[path] = post
                try blog.save(path)
            }
            let inPlaceBefore = await builder.inPlaceRebuildCount
            let report = try await Self.rebuilt(builder, changed)
            #expect(report.rewrittenFileCount != nil, "\(kind) took a full build")
            // Only a new order or new files assemble the site again.
            if ["body", "title", "add tag", "drop tag", "respell tag", "paragraph"].contains(kind) {
                #expect(await builder.inPlaceRebuildCount == inPlaceBefore + 1, "\(kind) assembled the site again")
            }
            let expected = try await blog.fullBuild()
            let actual = folderContents(blog.output)
            let differing = Set(expected.keys).union(actual.keys).filter { expected[$0] != actual[$0] }.sorted()
            #expect(differing.isEmpty, "after step \(step) (\(kind) of \(path)): \(differing.prefix(5))")
            #expect(report.warnings.map(\.description) == blog.fullBuildWarnings, "after step \(step) (\(kind))")
            #expect(report.fileCount == expected.count - 1, "the marker is not counted")
            kinds[kind, default: 0] = report.rewrittenFileCount ?? -1
            if !differing.isEmpty { break }
        }
        // A fixed typo reaches its page, the lists that show the post's summary and the feed; not
        // the other posts or tags.
        let total = folderContents(blog.output).count
        if theme != "site lists" { #expect((kinds["body"] ?? total) < total / 4) }
    }

    /// An edit past a post's summary changes what its page and the site's feed (which carries
    /// whole posts) show, and no list: the home page, the archive, the tags' pages and their feeds
    /// (summaries only) keep their files.
    @Test func anEditPastTheSummaryRewritesThePostAndTheSiteFeedOnly() async throws {
        let blog = try Blog()
        // The newest post: the site's feed carries it whole, its tags' feeds its summary.
        let path = try #require(blog.posts.max { $0.value.date < $1.value.date }?.key)
        let edit = try await rebuild(blog, afterEditing: path) { $0.body += "\n\nA second paragraph." }
        let page = try #require(edit.rewritten.first { $0.hasPrefix("posts/") })
        #expect(edit.rewritten == [page, "feed.xml"], "\(edit.rewritten.sorted())")
        #expect(edit.report.rewrittenFileCount == edit.rewritten.count)
    }

    /// The built-in archive lists posts without their tags: a tag added to a post leaves it as it
    /// is, while the lists that show the post's tags (its series' page) are rendered again.
    @Test func aTagEditLeavesListsThatShowNoTagsAsTheyAre() async throws {
        let blog = try Blog()
        let path = try #require(blog.posts.first { $0.value.title == "Post 5" }?.key)
        let added = try #require(Blog.tagPool.first { blog.posts[path]?.tags.contains($0) == false })
        let edit = try await rebuild(blog, afterEditing: path) { $0.tags.append(added) }
        #expect(edit.before["archive/index.html"] != nil)
        #expect(!edit.rewritten.contains("archive/index.html"), "\(edit.rewritten.sorted())")
        #expect(
            edit.rewritten.isSuperset(of: ["posts/p5/index.html", "series/tour/index.html"]),
            "\(edit.rewritten.sorted())")
    }

    /// A new tag moves the pages of the tags after it in the site's order; they are found by their
    /// paths and, where nothing they show changed, not rendered again.
    @Test func aNewTagLeavesTheTagPagesItMovesAsTheyAre() async throws {
        let blog = try Blog()
        let path = try #require(blog.posts.first { $0.value.title == "Post 5" }?.key)
        let edit = try await rebuild(blog, afterEditing: path) { $0.tags.append("A brand new tag") }
        let tagPages = Set(edit.before.keys.filter { $0.hasPrefix("tags/") && $0 != "tags/index.html" })
        #expect(edit.before["tags/a-brand-new-tag/index.html"] == nil)
        #expect(edit.rewritten.contains("tags/a-brand-new-tag/index.html"))
        #expect(tagPages.subtracting(edit.rewritten).count > tagPages.count / 2, "\(edit.rewritten.sorted())")
    }

    /// A tag renamed in its only post: the same pages, a tag's page and feed at another address.
    @Test func aRenamedTagMovesItsPagesWhenNoPageComesOrGoes() async throws {
        let blog = try Blog()
        let path = try #require(blog.posts.first { $0.value.title == "Post 5" }?.key)
        blog.posts[path]?.tags.append("Zz first")
        try blog.save(path)
        let edit = try await rebuild(blog, afterEditing: path) {
            $0.tags = $0.tags.map { $0 == "Zz first" ? "Zz second" : $0 }
        }
        #expect(edit.before["tags/zz-first/index.html"] != nil)
        #expect(edit.rewritten.isSuperset(of: ["tags/zz-second/index.html", "tags/zz-second/feed.xml"]))
    }

    /// Two tags of one slug, each the target of an alias: the tag in that place is now the other,
    /// so the alias redirect is at the other alias's address.
    @Test func aTagSwappedForOneOfTheSameSlugMovesItsAliasRedirect() async throws {
        let blog = try Blog()
        try blog.write(
            "site.yml",
            "title: Edits\nposts_per_page: 3\nfeed_entries: 4\ntags:\n  aliases:\n"
                + "    q old: Q++\n    q older: Q plus plus\n")
        let path = try #require(blog.posts.first { $0.value.title == "Post 5" }?.key)
        blog.posts[path]?.tags.append("Q++")
        try blog.save(path)
        let edit = try await rebuild(blog, afterEditing: path) {
            $0.tags = $0.tags.map { $0 == "Q++" ? "Q plus plus" : $0 }
        }
        #expect(edit.before["tags/q-old/index.html"] != nil)
        #expect(edit.rewritten.contains("tags/q-older/index.html"))
    }

    /// A tag swapped in place for another of the same slug is recorded as the tag it is now: a
    /// later edit that moves every tag carries the swapped tag's pages to it, and leaves them as
    /// they are.
    @Test func aTagSwappedInPlaceIsRecordedAsTheTagItIsNow() async throws {
        let blog = try Blog()
        let path = try #require(blog.posts.first { $0.value.title == "Post 5" }?.key)
        blog.posts[path]?.tags.append("Q++")
        try blog.save(path)
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: blog.plugins)
        _ = try await Self.rebuilt(builder, nil)
        let swap = try await rebuild(blog, builder, afterEditing: path) {
            $0.tags = $0.tags.map { $0 == "Q++" ? "Q plus plus" : $0 }
        }
        #expect(swap.rewritten.contains("tags/q-plus-plus/feed.xml"))
        let other = try #require(blog.posts.first { $0.value.title == "Post 7" }?.key)
        let newTag = try await rebuild(blog, builder, afterEditing: other) { $0.tags.append("A brand new tag") }
        #expect(!newTag.rewritten.contains("tags/q-plus-plus/feed.xml"), "\(newTag.rewritten.sorted())")
    }

    /// What a rebuild after an edit did: its report, the files before the edit (by inode) and the
    /// files it wrote (new, or replaced in place).
    private typealias Edit = (report: BuildReport, before: [String: UInt64], rewritten: Set<String>)

    /// Builds `blog` with a new ``IncrementalBuilder``, then edits the post at `path` and
    /// rebuilds (``rebuild(_:_:afterEditing:_:)``).
    private func rebuild(_ blog: Blog, afterEditing path: String, _ edit: (inout Blog.Post) -> Void)
        async throws -> Edit
    {
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: blog.plugins)
        _ = try await Self.rebuilt(builder, nil)
        return try await rebuild(blog, builder, afterEditing: path, edit)
    }

    /// Edits the post at `path` and rebuilds with `builder`; the output must equal a full build's,
    /// and the rebuild must be one in place.
    private func rebuild(
        _ blog: Blog, _ builder: IncrementalBuilder, afterEditing path: String, _ edit: (inout Blog.Post) -> Void
    ) async throws -> Edit {
        let before = fileIdentities(blog.output)
        var post = try #require(blog.posts[path])
        edit(&post)
        blog.posts[path] = post
        try blog.save(path)
        let report = try await Self.rebuilt(builder, [path])
        #expect(report.rewrittenFileCount != nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        let after = fileIdentities(blog.output)
        return (report, before, Set(after.keys.filter { after[$0] != before[$0] }))
    }

    /// Each file's inode: a file replaced in place gets a new one.
    private func fileIdentities(_ folder: URL) -> [String: UInt64] {
        var identities: [String: UInt64] = [:]
        for path in folderContents(folder).keys {
            var info = stat()
            if stat(folder.appendingPathComponent(path).path, &info) == 0 { identities[path] = UInt64(info.st_ino) }
        }
        return identities
    }

    @Test func aBrokenPostFailsAndTheNextFixRebuildsFromTheFilesAsTheyAre() async throws {
        let blog = try Blog()
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let good = folderContents(blog.output)

        try blog.write("posts/p1.md", "---\ntitle: [unclosed\n---\nBroken.\n")
        let failure = try #require(await builder.build(changedPaths: ["posts/p1.md"]).failure)
        #expect(failure.errors.contains { $0.location?.path == "posts/p1.md" })
        #expect(folderContents(blog.output) == good)

        // Another edit while the first file is still broken: still failing, nothing written.
        blog.posts["posts/p2.md"]?.title = "Edited while broken"
        try blog.save("posts/p2.md")
        #expect(await builder.build(changedPaths: ["posts/p2.md"]).failure != nil)
        #expect(folderContents(blog.output) == good)

        // Fixing the first file brings in both edits.
        try blog.save("posts/p1.md")
        let report = try await Self.rebuilt(builder, ["posts/p1.md"])
        #expect(report.rewrittenFileCount != nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        #expect(
            try String(contentsOf: blog.output.appendingPathComponent("posts/p2/index.html"), encoding: .utf8)
                .contains("Edited while broken"))
    }

    /// A failed rebuild leaves files the pages were not rendered from: the next rebuild must not
    /// replace posts in place from them (a duplicate slug once crashed it; a broken block was lost).
    @Test func aFailedRebuildIsNotForgottenByTheNextOne() async throws {
        let blog = try Blog()
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let good = folderContents(blog.output)

        // p1 takes p2's URL: an error, and still one after a body-only edit of p1.
        blog.posts["posts/p1.md"]?.slug = "p2"
        try blog.save("posts/p1.md")
        #expect(
            await builder.build(changedPaths: ["posts/p1.md"]).failure?.description.contains("also the slug") == true)
        blog.posts["posts/p1.md"]?.body += " Edited."
        try blog.save("posts/p1.md")
        #expect(
            await builder.build(changedPaths: ["posts/p1.md"]).failure?.description.contains("also the slug") == true)
        #expect(folderContents(blog.output) == good)
        blog.posts["posts/p1.md"]?.slug = nil
        try blog.save("posts/p1.md")
        _ = try await Self.rebuilt(builder, ["posts/p1.md"])
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))

        // A block that fails to render, then an edit of another post: still the same error.
        blog.posts["posts/p5.md"]?.body = "```chips\n -> /nowhere/\n```"
        try blog.save("posts/p5.md")
        #expect(await builder.build(changedPaths: ["posts/p5.md"]).failure?.description.contains("chips block") == true)
        blog.posts["posts/p6.md"]?.body += " Edited."
        try blog.save("posts/p6.md")
        #expect(await builder.build(changedPaths: ["posts/p6.md"]).failure?.description.contains("chips block") == true)

        // A new post with a broken block, fixed: the pages are a full build's.
        blog.posts["posts/p5.md"]?.body = "Fixed."
        try blog.save("posts/p5.md")
        let added = try blog.add(Blog.Post(title: "Newest", date: "2025-01-01", tags: ["Swift"], body: "```chips\n```"))
        #expect(await builder.build(changedPaths: ["posts/p5.md", added]).failure != nil)
        blog.posts[added]?.body = "```chips\nSwift\n```"
        try blog.save(added)
        _ = try await Self.rebuilt(builder, [added])
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
    }

    @Test func changesOutsidePostsAndPagesRebuildEverything() async throws {
        let blog = try Blog()
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        for (path, text) in [
            ("site.yml", "title: Renamed\nposts_per_page: 4\n"), ("static/robots.txt", "User-agent: x\n"),
            ("templates/post.mustache", "{{<base}}{{$content}}<main>{{{post.content}}}</main>{{/content}}{{/base}}"),
            ("posts/notes.txt", "not a post"),
        ] {
            try blog.write(path, text)
            let report = try await Self.rebuilt(builder, [path])
            #expect(report.rewrittenFileCount == nil, "\(path) is not a post or page")
            #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        }
    }

    /// A page that links to a post by its file name follows the post to its new URL.
    @Test func aLinkByFileNameFollowsTheSlug() async throws {
        let blog = try Blog()
        try blog.write("pages/about.md", "---\ntitle: About\n---\nSee [the third](../posts/p3.md#top).\n")
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let about = blog.output.appendingPathComponent("about/index.html")
        #expect(try String(contentsOf: about, encoding: .utf8).contains(#"<a href="/posts/p3/#top">the third</a>"#))
        blog.posts["posts/p3.md"]?.slug = "moved"
        try blog.save("posts/p3.md")
        let report = try await Self.rebuilt(builder, ["posts/p3.md"])
        #expect(report.rewrittenFileCount != nil)
        #expect(try String(contentsOf: about, encoding: .utf8).contains(#"<a href="/posts/moved/#top">the third</a>"#))
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
    }

    /// A tag edit keeps the site's order and counts only the tags it reaches again; a tag's URL
    /// can still move (a colliding tag comes or goes) or meet a static file.
    @Test func tagEditsMoveTagURLsAsAFullBuildDoes() async throws {
        let blog = try Blog()
        try blog.write("static/tags/claimed/index.html", "static\n")
        blog.posts["posts/p0.md"]?.tags = ["hashtag", "Swift"]
        blog.posts["posts/p1.md"]?.tags = ["#hashtag"]
        try blog.save("posts/p0.md")
        try blog.save("posts/p1.md")
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let moved = blog.output.appendingPathComponent("tags/hashtag-2/index.html")
        #expect(FileManager.default.fileExists(atPath: moved.path))

        // A tag page that would land on a static file is an error, as in a full build, and the
        // output stays as it was; the next edit assembles the site again (not in place: the
        // failed edit's file is not the version the pages were rendered from).
        enum Outcome { case inPlace, assembled, fails }
        let edits: [([String], Outcome)] = [
            (["Swift"], .inPlace), (["#hashtag", "C"], .inPlace), (["claimed"], .fails), (["C", "Layout"], .assembled),
            (["Layout", "#hashtag"], .inPlace),
        ]
        for (tags, outcome) in edits {
            blog.posts["posts/p1.md"]?.tags = tags
            try blog.save("posts/p1.md")
            let inPlaceBefore = await builder.inPlaceRebuildCount
            let before = folderContents(blog.output)
            if outcome == .fails {
                let result = await builder.build(changedPaths: ["posts/p1.md"])
                let failure = try #require(result.failure, "\(tags)")
                #expect(
                    failure.description.contains(
                        "static/tags/claimed/index.html: error: static file has the same path as the generated page 'tags/claimed/index.html'"
                    ), "\(failure.description)")
                #expect(folderContents(blog.output) == before, "a failed rebuild leaves the output as it was")
                continue
            }
            let report = try await Self.rebuilt(builder, ["posts/p1.md"])
            #expect(report.rewrittenFileCount != nil, "\(tags)")
            #expect(await builder.inPlaceRebuildCount == inPlaceBefore + (outcome == .inPlace ? 1 : 0), "\(tags)")
            #expect(folderContents(blog.output) == (try await blog.fullBuild()), "\(tags)")
            #expect(report.warnings.map(\.description) == blog.fullBuildWarnings, "\(tags)")
            // "hashtag" takes /tags/hashtag/ while "#hashtag" is gone.
            #expect(FileManager.default.fileExists(atPath: moved.path) == tags.contains("#hashtag"), "\(tags)")
        }
    }

    /// With `tags.hierarchy`, an edit of nested tags assembles the site again and writes what a
    /// full build writes (parents' posts, children blocks, breadcrumbs); a malformed tag fails as
    /// it does in a full build; other edits stay in place and reach the parents' pages.
    @Test func nestedTagEditsRebuildWhatAFullBuildWrites() async throws {
        let blog = try Blog()
        try blog.write("site.yml", "title: Edits\nposts_per_page: 3\nfeed_entries: 4\ntags:\n  hierarchy: true\n")
        blog.posts["posts/p0.md"]?.tags = ["lang/swift", "Swift"]
        try blog.save("posts/p0.md")
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        for tags in [["lang/rust/async"], ["lang"], ["lang/swift", "lang/swift/ui"], ["lang//swift"], ["async/await"]] {
            blog.posts["posts/p1.md"]?.tags = tags
            try blog.save("posts/p1.md")
            let before = folderContents(blog.output)
            let result = await builder.build(changedPaths: ["posts/p1.md"])
            if tags == ["lang//swift"] {
                let failure = try #require(result.failure)
                #expect(failure.description.contains("the tag 'lang//swift' has an empty level"), "\(failure)")
                #expect(folderContents(blog.output) == before, "a failed rebuild leaves the output as it was")
                continue
            }
            let report = try result.get()
            #expect(folderContents(blog.output) == (try await blog.fullBuild()), "\(tags)")
            #expect(report.warnings.map(\.description) == blog.fullBuildWarnings, "\(tags)")
        }
        let inPlaceBefore = await builder.inPlaceRebuildCount
        blog.posts["posts/p0.md"]?.title = "Renamed"
        try blog.save("posts/p0.md")
        _ = try await Self.rebuilt(builder, ["posts/p0.md"])
        #expect(await builder.inPlaceRebuildCount == inPlaceBefore + 1)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        let lang = try String(contentsOf: blog.output.appendingPathComponent("tags/lang/index.html"), encoding: .utf8)
        #expect(lang.contains(">Renamed</a>"), "the parent lists its child's post under its new title")
    }

    /// Categories: an edit of a post's categories assembles the site again and writes what a full
    /// build writes; other edits stay in place and reach the category pages and feeds.
    @Test func categoryEditsRebuildWhatAFullBuildWrites() async throws {
        let blog = try Blog()
        for (index, categories) in [["Guides"], ["Guides", "News"], ["News"]].enumerated() {
            blog.posts["posts/p\(index).md"]?.categories = categories
            try blog.save("posts/p\(index).md")
        }
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        for categories in [["Guides", "Reviews"], [], ["news"]] {
            blog.posts["posts/p1.md"]?.categories = categories
            try blog.save("posts/p1.md")
            let inPlace = await builder.inPlaceRebuildCount
            _ = try await Self.rebuilt(builder, ["posts/p1.md"])
            #expect(await builder.inPlaceRebuildCount == inPlace, "the site is assembled again: \(categories)")
            #expect(folderContents(blog.output) == (try await blog.fullBuild()), "\(categories)")
        }
        let inPlaceBefore = await builder.inPlaceRebuildCount
        blog.posts["posts/p0.md"]?.title = "Renamed"
        try blog.save("posts/p0.md")
        _ = try await Self.rebuilt(builder, ["posts/p0.md"])
        #expect(await builder.inPlaceRebuildCount == inPlaceBefore + 1)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        let guides = try String(
            contentsOf: blog.output.appendingPathComponent("categories/guides/index.html"), encoding: .utf8)
        #expect(guides.contains(">Renamed</a>"))
    }

    /// A new file the listing refuses (a link to a post outside the site folder) is found out by
    /// reading the listing again, which a rebuild does when files come or go: the rebuild is then
    /// a full build, which reports it and leaves the output as it was.
    @Test func aNewFileTheListingRefusesIsReportedByAFullBuild() async throws {
        let blog = try Blog()
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let good = folderContents(blog.output)
        let outside = blog.root.appendingPathComponent("outside.md")
        try Data("---\ntitle: Outside\ndate: 2024-03-12\n---\nNot in the site.\n".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            at: blog.site.appendingPathComponent("posts/outside.md"), withDestinationURL: outside)
        let failure = await builder.build(changedPaths: ["posts/outside.md"]).failure
        #expect(failure?.description.contains("outside the site folder") == true)
        #expect(folderContents(blog.output) == good)
    }

    /// A tag added to a post changes the tag's count: the pages of the tag's other posts are
    /// written again only when the theme shows counts in posts' tag lists. (Related posts are
    /// off: the edit makes the two posts related, which is a change of the page by itself.)
    @Test(arguments: [false, true]) func aTagCountReachesPostsOnlyWhereItIsShown(countsShown: Bool) async throws {
        let blog = try Blog()
        try blog.write("site.yml", "title: Edits\nposts_per_page: 3\nfeed_entries: 4\nrelated:\n  limit: 0\n")
        if countsShown { try blog.write("templates/tag-list.mustache", Self.countingTagList) }
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        func page(_ post: String) -> URL { blog.output.appendingPathComponent("posts/\(post)/index.html") }
        func fileNumber(_ post: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: page(post).path)[.systemFileNumber] as? Int
        }
        func day(_ path: String) -> Int { Int(blog.posts[path]?.date.suffix(2) ?? "") ?? 0 }
        let paths = blog.posts.keys.sorted()
        let holder = try #require(paths.first { blog.posts[$0]?.tags.contains("CSS") == true })
        let holderSlug = String(holder.dropFirst("posts/".count).dropLast(".md".count))
        let before = try fileNumber(holderSlug)
        // Two days apart: posts of the day between stand between them, so neither links the other.
        let edited = try #require(
            paths.first { blog.posts[$0]?.tags.contains("CSS") == false && abs(day($0) - day(holder)) >= 2 })
        blog.posts[edited]?.tags.append("CSS")
        try blog.save(edited)
        let report = try await Self.rebuilt(builder, [edited])
        #expect(report.rewrittenFileCount != nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        #expect(try String(contentsOf: page(holderSlug), encoding: .utf8).contains("count") == countsShown)
        #expect((try fileNumber(holderSlug) != before) == countsShown, "\(holderSlug) after \(edited)")
    }

    /// A page that shows a count in a post's tag list for the first time (a post that takes a
    /// template that does) makes the rebuild a full build: the keys had left counts out.
    @Test func aFirstCountShownTakesAFullBuild() async throws {
        let blog = try Blog()
        try blog.write(
            "templates/counted.mustache",
            "{{<base}}{{$content}}{{#post}}" + Self.countingTagList + "{{/post}}{{/content}}{{/base}}")
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        // A tag added to p3 changes counts that no page shows yet: a rebuild in place.
        blog.posts["posts/p3.md"]?.tags.append("Layout")
        try blog.save("posts/p3.md")
        let inPlaceBefore = await builder.inPlaceRebuildCount
        #expect(try await Self.rebuilt(builder, ["posts/p3.md"]).rewrittenFileCount != nil)
        #expect(await builder.inPlaceRebuildCount == inPlaceBefore + 1)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        // p5 takes the template that shows them.
        try blog.write(
            "posts/p5.md", "---\ntitle: Counted\ndate: 2024-03-15\ntemplate: counted\ntags: [Layout]\n---\nText.\n")
        let report = try await Self.rebuilt(builder, ["posts/p5.md"])
        #expect(report.rewrittenFileCount == nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        // From then on, counts are in the keys.
        blog.posts["posts/p3.md"]?.tags.removeLast()
        try blog.save("posts/p3.md")
        #expect(try await Self.rebuilt(builder, ["posts/p3.md"]).rewrittenFileCount != nil)
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
    }

    /// A tag edit changes the renderer in place before it renders: when the rendering fails, the
    /// next rebuild must still give what a full build gives.
    @Test func aFailedTagEditIsNotForgottenByTheNextOne() async throws {
        let blog = try Blog()
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let good = folderContents(blog.output)
        blog.posts["posts/p2.md"]?.tags.append("Brand new")
        blog.posts["posts/p2.md"]?.body = "```chips\n -> /nowhere/\n```"
        try blog.save("posts/p2.md")
        #expect(await builder.build(changedPaths: ["posts/p2.md"]).failure?.description.contains("chips block") == true)
        #expect(folderContents(blog.output) == good)
        // Another tag edit, of another post, while p2 is still broken: still failing.
        blog.posts["posts/p7.md"]?.tags = ["Brand new"]
        try blog.save("posts/p7.md")
        #expect(await builder.build(changedPaths: ["posts/p7.md"]).failure != nil)
        // Fixed: both tag edits are in, as a full build has them.
        blog.posts["posts/p2.md"]?.body = "Fixed."
        try blog.save("posts/p2.md")
        _ = try await Self.rebuilt(builder, ["posts/p2.md"])
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
        blog.posts["posts/p7.md"]?.tags = ["Swift"]
        try blog.save("posts/p7.md")
        _ = try await Self.rebuilt(builder, ["posts/p7.md"])
        #expect(folderContents(blog.output) == (try await blog.fullBuild()))
    }

    @Test func aPostThatWouldReplaceAStaticFileFailsAsAFullBuildDoes() async throws {
        let blog = try Blog()
        try blog.write("static/posts/claimed/index.html", "static\n")
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let before = folderContents(blog.output)
        blog.posts["posts/p3.md"]?.slug = "claimed"
        try blog.save("posts/p3.md")
        let failure = try #require(await builder.build(changedPaths: ["posts/p3.md"]).failure)
        #expect(
            failure.description.contains(
                "static file has the same path as the generated page 'posts/claimed/index.html'"))
        #expect(folderContents(blog.output) == before)
        await #expect(throws: BuildFailure.self) { try await blog.fullBuild() }
    }

    @Test func everyJobKnowsTheFileItWrites() async throws {
        let blog = try Blog()
        let context = try await SiteBuilder(siteRoot: blog.site, plugins: [.chips]).run()
        let site = try #require(context.site)
        let renderer = SiteRenderer(
            site: site, theme: try #require(context.theme), hooks: context.plugins,
            images: ContentImages(staticFiles: [], config: site.config))
        for job in renderer.jobs { #expect(renderer.outputPath(of: job) == renderer.render(job).file.path) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

extension IncrementalBuilderTests {
    /// A page bundle's files follow its `index.md`: added, edited and deleted under `tagflow serve`,
    /// the preview holds what a full build writes, and no photo outlives its post.
    @Test func bundlesFollowTheirIndexUnderServe() async throws {
        let blog = try Blog()
        let builder = IncrementalBuilder(siteRoot: blog.site, output: blog.output, plugins: [.chips])
        _ = try await Self.rebuilt(builder, nil)
        let steps: [(String, () throws -> Set<String>)] = [
            (
                "added",
                {
                    try blog.write("posts/2024-04-01-trip/index.md", "---\ntitle: Trip\n---\n![Sea](sea.txt)\n")
                    try blog.write("posts/2024-04-01-trip/sea.txt", "waves\n")
                    return ["posts/2024-04-01-trip/index.md", "posts/2024-04-01-trip/sea.txt"]
                }
            ),
            (
                "edited",
                {
                    try blog.write("posts/2024-04-01-trip/index.md", "---\ntitle: Trip!\n---\nNo photo.\n")
                    return ["posts/2024-04-01-trip/index.md"]
                }
            ),
            (
                "deleted",
                {
                    try blog.remove("posts/2024-04-01-trip/index.md")
                    return ["posts/2024-04-01-trip/index.md"]
                }
            ),
        ]
        for (step, edit) in steps {
            let changed = try edit()
            _ = try await Self.rebuilt(builder, changed)
            #expect(folderContents(blog.output) == (try await blog.fullBuild()), "\(step)")
        }
        #expect(!FileManager.default.fileExists(atPath: blog.output.appendingPathComponent("posts/trip").path))
    }
}
