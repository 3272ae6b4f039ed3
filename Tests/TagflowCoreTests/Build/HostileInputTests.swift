import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Hostile or extreme input that is not a broken site: it must build (or be refused) cleanly,
/// never crash, and never let text from a post escape into markup.
@Suite struct HostileInputTests {
    @Test func aTenMegabytePostBuilds() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: Big\n")
        defer { fixture.remove() }
        let paragraph = String(repeating: "All work and no play makes *Jack* a dull boy. ", count: 20) + "\n\n"
        var body = "---\ntitle: Big\ndate: 2024-01-01\n---\n"
        while body.utf8.count < 10 * 1024 * 1024 { body += paragraph }
        try fixture.write("posts/big.md", body)
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.postCount == 1)
        let page = try fixture.output("posts/big/index.html")
        #expect(page.utf8.count > 10 * 1024 * 1024)
        #expect(page.contains("<em>Jack</em>"))
    }

    /// Every tag page lists its posts with their tags, so a post's tags cost the square of their
    /// number: 100,000 tags are refused at the `tags:` line; the most allowed still build.
    @Test func aPostWithAHundredThousandTagsIsRefusedAndManyBuild() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: Tags\n")
        defer { fixture.remove() }
        let tags = (0..<100_000).map { "t\($0)" }.joined(separator: ", ")
        try fixture.write("posts/many.md", "---\ntitle: Many\ndate: 2024-01-01\ntags: [\(tags)]\n---\nBody\n")
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(
            failure?.description.hasPrefix("posts/many.md:4:1: error: a post may have at most 1000 tags, not 100000")
                == true)
        let allowed = (0..<200).map { "t\($0)" }.joined(separator: ", ")
        try fixture.write("posts/many.md", "---\ntitle: Many\ndate: 2024-01-01\ntags: [\(allowed)]\n---\nBody\n")
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.tagCount == 200)
        #expect(try fixture.output("tags/t199/index.html").contains("Many"))
    }

    /// Markup in a title or a tag is text everywhere it appears: element content, attributes,
    /// the feed and the sitemap (XML) and any inline style.
    @Test func markupInTitlesAndTagsIsEscapedEverywhere() async throws {
        let title = #"Quotes " and ' and <script>alert(1)</script> and </style> & more"#
        let tag = #"<script>x</script>"#
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: "Site </title><script>alert(2)</script>"
            base_url: https://example.org/
            -- posts/evil.md --
            ---
            title: '\(title.replacingOccurrences(of: "'", with: "''"))'
            date: 2024-01-01
            tags: ['\(tag)', '"quoted"', "it's", '</style>', 'a&b']
            summary: '</summary><script>alert(3)</script>'
            ---
            Body.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let files = folderContents(fixture.output)
        #expect(files.count > 8)
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("<script"), "\(path) has a raw <script>")
            #expect(
                !text.contains("</style>") || text.components(separatedBy: "</style>").count == 2,
                "\(path) has a raw </style> from content")
            if path.hasSuffix(".html") { #expect(!text.contains("</summary>"), "\(path) has a raw </summary>") }
            #expect(!text.contains("\"quoted\""), "\(path) has an unescaped quote")
            if path.hasSuffix(".xml") {
                let parser = XMLParser(data: data)
                #expect(parser.parse(), "\(path) is well-formed XML: \(String(describing: parser.parserError))")
            }
        }
        let post = try fixture.output("posts/evil/index.html")
        #expect(post.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(post.contains("content=\"Quotes &quot; and"), "the title is escaped inside an attribute")
        #expect(try fixture.output("feed.xml").contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    /// Tags that differ only in punctuation are distinct tags with distinct URLs, and every link
    /// to them leads to a page that exists.
    @Test func punctuationOnlyDifferentTagsGetDistinctWorkingURLs() async throws {
        let names = ["async", "async/await", "C", "C++", "C#", ".NET", "NET", "Q&A", "QA"]
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: T\n-- posts/p.md --\n---\ntitle: P\ndate: 2024-01-01\ntags: [\(list)]\n---\nHi\n")
        defer { fixture.remove() }
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.tagCount == names.count)
        #expect(report.warnings.isEmpty)
        let post = try fixture.output("posts/p/index.html")
        let links = post.components(separatedBy: "href=\"/tags/").dropFirst().map { $0.prefix { $0 != "\"" } }
        let tagLinks = Set(links.filter { !$0.isEmpty })
        #expect(tagLinks.count == names.count, "\(tagLinks.sorted())")
        for link in tagLinks {
            let path = fixture.output.appendingPathComponent("tags/\(link)index.html").path
            #expect(FileManager.default.fileExists(atPath: path), "/tags/\(link) exists")
        }
    }

    /// The output must never be the site folder or one of its parents.
    @Test func anOutputThatIsOrContainsTheSiteIsRefused() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n-- posts/2024-01-01-a.md --\n---\ntitle: A\n---\n")
        defer { fixture.remove() }
        let before = folderContents(fixture.root)
        for target in [fixture.site, fixture.root, fixture.site.appendingPathComponent("posts/..")] {
            await #expect(throws: BuildFailure.self) { try await SiteBuilder(siteRoot: fixture.site).build(to: target) }
        }
        // Nor inside a folder the build reads: the next build would copy the output into itself.
        for folder in ["static/out", "posts/out", "templates"] {
            let target = fixture.site.appendingPathComponent(folder)
            await #expect(throws: BuildFailure.self) { try await SiteBuilder(siteRoot: fixture.site).build(to: target) }
        }
        // Through a symbolic link too.
        let link = fixture.root.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fixture.site)
        await #expect(throws: BuildFailure.self) { try await SiteBuilder(siteRoot: fixture.site).build(to: link) }
        try FileManager.default.removeItem(at: link)
        #expect(folderContents(fixture.root) == before)
    }

    /// A folder that links back to itself is read once, with a warning naming it; a file link
    /// loop and a dangling link are skipped with a warning.
    @Test func symbolicLinkLoopsInContentAreReportedNotFollowed() async throws {
        let fixture = try SiteFixture(
            "-- site.yml --\ntitle: T\n-- posts/2024-01-01-a.md --\n---\ntitle: A\n---\nHi\n")
        defer { fixture.remove() }
        let posts = fixture.site.appendingPathComponent("posts")
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: posts.appendingPathComponent("again").path, withDestinationPath: ".")
        try manager.createSymbolicLink(atPath: posts.appendingPathComponent("x.md").path, withDestinationPath: "y.md")
        try manager.createSymbolicLink(atPath: posts.appendingPathComponent("y.md").path, withDestinationPath: "x.md")
        try manager.createSymbolicLink(
            atPath: posts.appendingPathComponent("gone.md").path, withDestinationPath: "nowhere.md")
        let report = try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(report.postCount == 1)
        let text = report.warnings.map(\.description).joined(separator: "\n")
        #expect(text.contains("posts/again: warning: symbolic link loop"), "\(text)")
        #expect(text.contains("posts/x.md: warning:"), "\(text)")
        #expect(text.contains("posts/gone.md: warning: broken symbolic link"), "\(text)")
    }

    static let isRoot = getuid() == 0 || geteuid() == 0

    /// `chmod 000` only stops a user who is not root; as root it proves nothing, so it is off there
    /// (`unreadableFilesFailEvenAsRoot` covers that case).
    @Test(.enabled(if: !isRoot, "chmod 000 does not stop root from reading"))
    func anUnreadableFileOrFolderFailsTheBuild() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-01-01-secret.md --
            ---
            title: Secret
            ---
            -- posts/locked/2024-01-02-inner.md --
            ---
            title: Inner
            ---
            """)
        defer {
            chmod(fixture.site.appendingPathComponent("posts/locked").path, 0o755)
            fixture.remove()
        }
        chmod(fixture.site.appendingPathComponent("posts/2024-01-01-secret.md").path, 0)
        chmod(fixture.site.appendingPathComponent("posts/locked").path, 0)
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        let text = failure?.description ?? ""
        #expect(text.contains("posts/2024-01-01-secret.md: error: cannot read file: Permission denied"), "\(text)")
        #expect(text.contains("posts/locked: error: cannot read folder: Permission denied"), "\(text)")
    }

    /// A link to `/proc/self/mem` (whose reads fail for anyone, root included) resolves outside
    /// the site, so it is refused before it is read.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem")))
    func unreadableFilesOutsideTheSiteAreRefusedEvenAsRoot() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n-- posts/2024-01-01-a.md --\n---\ntitle: A\n---\n")
        defer { fixture.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: fixture.site.appendingPathComponent("posts/2024-01-02-mem.md").path,
            withDestinationPath: "/proc/self/mem")
        let failure = await #expect(throws: BuildFailure.self) {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        }
        #expect(
            failure?.description.hasPrefix("posts/2024-01-02-mem.md: error: symbolic link to '/proc/") == true,
            "\(failure?.description ?? "")")
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
    }
}
