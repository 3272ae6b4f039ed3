import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// A build with nothing changed stops early; any change to what a build reads makes it build.
@Suite struct BuildCacheTests {
    static let site = """
        -- site.yml --
        title: Cached
        -- posts/2024-01-01-a.md --
        ---
        title: A
        tags: [x]
        ---
        Body A.
        -- templates/footer.mustache --
        <footer>mine</footer>
        -- static/robots.txt --
        User-agent: *
        """

    static func build(_ fixture: SiteFixture, _ options: BuildOptions = BuildOptions(useCache: true)) async throws
        -> BuildReport
    {
        try await SiteBuilder(siteRoot: fixture.site, options: options, plugins: [.chips]).build(to: fixture.output)
    }

    /// Builds once, applies `change`, and returns whether the next build did any work.
    static func rebuilds(after change: (SiteFixture) throws -> Void) async throws -> Bool {
        let fixture = try SiteFixture(site)
        defer { fixture.remove() }
        _ = try await build(fixture)
        try change(fixture)
        return try await !build(fixture).isUpToDate
    }

    @Test func nothingChangedWritesNothing() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let first = try await Self.build(fixture)
        #expect(!first.isUpToDate)
        let before = folderContents(fixture.output)
        let modified =
            try FileManager.default.attributesOfItem(
                atPath: fixture.output.appendingPathComponent("index.html").path)[.modificationDate] as? Date
        let second = try await Self.build(fixture)
        #expect(second.isUpToDate)
        #expect(second.pageCount == first.pageCount && second.postCount == 1 && second.tagCount == 1)
        #expect(folderContents(fixture.output) == before)
        let after =
            try FileManager.default.attributesOfItem(
                atPath: fixture.output.appendingPathComponent("index.html").path)[.modificationDate] as? Date
        #expect(modified == after, "the output was not rewritten")
    }

    /// An output folder reached through a link (`_site` → a web server's folder) is the folder the
    /// cache records, so a second build with nothing changed stops at once there too.
    @Test func aLinkedOutputFolderIsUpToDate() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let served = fixture.output.deletingLastPathComponent().appendingPathComponent("served")
        defer { try? FileManager.default.removeItem(at: served) }
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let link = fixture.output.deletingLastPathComponent().appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: served)
        defer { try? FileManager.default.removeItem(at: link) }
        let builder = SiteBuilder(siteRoot: fixture.site, options: BuildOptions(useCache: true), plugins: [.chips])
        let first = try await builder.build(to: link)
        #expect(!first.isUpToDate)
        #expect(first.output.standardizedFileURL.path == served.resolvingSymlinksInPath().path)
        #expect(try await builder.build(to: link).isUpToDate)
    }

    @Test func anEditedPostIsBuilt() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        try fixture.write("posts/2024-01-01-a.md", "---\ntitle: A edited\ntags: [x]\n---\nBody A.\n")
        #expect(try await !Self.build(fixture).isUpToDate)
        #expect(try fixture.output("posts/a/index.html").contains("A edited"))
    }

    @Test func everyInputCounts() async throws {
        #expect(try await Self.rebuilds { try $0.write("posts/2024-01-02-b.md", "---\ntitle: B\n---\n") })
        #expect(
            try await Self.rebuilds {
                try FileManager.default.removeItem(at: $0.site.appendingPathComponent("posts/2024-01-01-a.md"))
            })
        #expect(try await Self.rebuilds { try $0.write("site.yml", "title: Renamed\n") })
        #expect(try await Self.rebuilds { try $0.write("templates/footer.mustache", "<footer>other</footer>") })
        #expect(try await Self.rebuilds { try $0.write("static/robots.txt", "User-agent: *\nDisallow: /x\n") })
        #expect(try await Self.rebuilds { try $0.write("static/new.txt", "new") })
        // The output folder replaced or removed behind Tagflow's back.
        #expect(try await Self.rebuilds { try FileManager.default.removeItem(at: $0.output) })
        #expect(
            try await Self.rebuilds {
                try Data(OutputWriter.markerText.utf8).write(to: $0.output.appendingPathComponent(".tagflow-output"))
            })
    }

    @Test func sameBytesWrittenAgainIsNoChange() async throws {
        #expect(
            try await !Self.rebuilds {
                try $0.write("posts/2024-01-01-a.md", "---\ntitle: A\ntags: [x]\n---\nBody A.\n")
            })
    }

    @Test func otherOptionsOrOutputBuild() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        #expect(try await !Self.build(fixture, BuildOptions(includeDrafts: true, useCache: true)).isUpToDate)
        #expect(try await !Self.build(fixture, BuildOptions(baseURL: "/blog/", useCache: true)).isUpToDate)
        #expect(try await !Self.build(fixture, BuildOptions(useCache: false)).isUpToDate)
        let elsewhere = fixture.root.appendingPathComponent("elsewhere")
        let report = try await SiteBuilder(
            siteRoot: fixture.site, options: BuildOptions(useCache: true), plugins: [.chips]
        )
        .build(to: elsewhere)
        #expect(!report.isUpToDate)
    }

    @Test func aCacheFromAnotherVersionIsIgnored() async throws {
        #expect(
            try await Self.rebuilds { fixture in
                let url = fixture.site.appendingPathComponent(".tagflow-cache/manifest.json")
                let text = try String(contentsOf: url, encoding: .utf8)
                try text.replacingOccurrences(
                    of: "\"tagflow\" : \"\(TagflowVersion.current)\"", with: "\"tagflow\" : \"0.0.1\""
                )
                .write(to: url, atomically: true, encoding: .utf8)
            })
        #expect(
            try await Self.rebuilds {
                try FileManager.default.removeItem(at: $0.site.appendingPathComponent(".tagflow-cache"))
            })
        #expect(try await Self.rebuilds { try $0.write(".tagflow-cache/manifest.json", "{ not json") })
    }

    @Test func warningsAreShownAgainAndStrictStillFails() async throws {
        let fixture = try SiteFixture(
            Self.site.replacingOccurrences(of: "title: Cached", with: "title: Cached\ncolour: red"))
        defer { fixture.remove() }
        let first = try await Self.build(fixture)
        let second = try await Self.build(fixture)
        #expect(second.isUpToDate)
        #expect(second.warnings.map(\.description) == first.warnings.map(\.description))
        #expect(
            second.warnings.first?.description.contains("site.yml:2:1: warning: unknown config key 'colour'") == true)
        await #expect(throws: BuildFailure.self) {
            try await Self.build(fixture, BuildOptions(strict: true, useCache: true))
        }
    }

    @Test func aFailedBuildForgetsTheCache() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        try fixture.write("posts/2024-01-01-a.md", "---\ntitle: [unclosed\n---\n")
        await #expect(throws: BuildFailure.self) { try await Self.build(fixture) }
        #expect(
            !FileManager.default.fileExists(
                atPath: fixture.site.appendingPathComponent(".tagflow-cache/manifest.json").path))
        try fixture.write("posts/2024-01-01-a.md", "---\ntitle: A\ntags: [x]\n---\nBody A.\n")
        #expect(try await !Self.build(fixture).isUpToDate)
    }

    @Test func theCacheFolderIsNeverPublished() async throws {
        // `paths.static: .` is refused; a static folder holding a cache folder of its own is not.
        let fixture = try SiteFixture(Self.site + "-- static/.tagflow-cache/manifest.json --\n{}\n")
        defer { fixture.remove() }
        _ = try await Self.build(fixture)
        _ = try await Self.build(fixture, BuildOptions(includeDrafts: true, useCache: true))
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent(".tagflow-cache").path))
    }

    /// A build with nothing to compare with digests its inputs from what the loader read; the
    /// next build, which reads every file to compare, must find the same digest.
    @Test func theLoadersDigestsAreTheFilesDigests() async throws {
        let fixture = try SiteFixture(
            Self.site + """

                -- posts/2023/2023-05-01-older.md --
                ---
                title: Older
                ---
                In a folder.
                -- pages/about.md --
                ---
                title: About
                ---
                Me.
                """)
        defer { fixture.remove() }
        let options = BuildOptions(useCache: true)
        let context = try await SiteBuilder(siteRoot: fixture.site, options: options, plugins: [.chips]).run()
        let content = try #require(context.contentInputs)
        #expect(content.map(\.path) == ["posts/2023/2023-05-01-older.md", "posts/2024-01-01-a.md", "pages/about.md"])
        let fromLoader = try #require(
            await BuildInputs.digest(
                siteRoot: fixture.site, config: context.config, options: options, plugins: ["chips"], content: content))
        let fromFiles = try #require(
            await BuildInputs.digest(
                siteRoot: fixture.site, config: context.config, options: options, plugins: ["chips"]))
        #expect(fromLoader.all.description == fromFiles.all.description)
        #expect(fromLoader.frame.description == fromFiles.frame.description)
        // And the content counts: a changed digest changes `all`, not `frame`.
        var changed = content
        changed[0].digest.update("edited")
        let edited = try #require(
            await BuildInputs.digest(
                siteRoot: fixture.site, config: context.config, options: options, plugins: ["chips"], content: changed))
        #expect(edited.all.description != fromFiles.all.description)
        #expect(edited.frame.description == fromFiles.frame.description)
    }

    @Test func pageRecordsReadBackAsWritten() throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let cache = BuildCache(siteRoot: fixture.site)
        cache.write(
            BuildCache.Manifest(
                format: BuildCache.formatVersion, tagflow: TagflowVersion.current, inputs: "i", frame: "f",
                output: fixture.output.path, pages: 3, files: 3, bytes: 6, posts: 1, tags: 1, warnings: []))
        func key(_ text: String) -> DigestValue {
            var digest = Digest()
            digest.update(text)
            return digest.value
        }
        let records: [(path: String, record: PageRecord)] = [
            ("index.html", .init(inputs: [PageInput(.menu), PageInput(.homePage, 1)], key: key("k1"), bytes: 1)),
            ("tags/café/index.html", .init(inputs: [PageInput(.tagPage, 0, 1)], key: key("k2"), bytes: 2)),
            (
                "a b/index.html",
                .init(
                    inputs: [PageInput(.termPage, 2, 30_000, 7), PageInput(.listExists, -1)], key: key("k3"), bytes: 3)
            ),
            ("c/index.html", .init(inputs: [], key: key("k4"), bytes: 4)),
        ]
        let identities = SiteIdentities(
            posts: ["posts/a.md", "posts/b c.md"], pages: ["pages/about.md"], tags: ["café", "swift"],
            series: ["intro"], terms: [[], ["guides"]])
        cache.writePages(records, identities: identities)
        let read = try #require(cache.readPages())
        #expect(read.pages.elementsEqual(records) { $0.path == $1.path && $0.record == $1.record })
        #expect(read.identities == identities)
        // More than the megabyte written at a time.
        let many: [(path: String, record: PageRecord)] = (0..<30_000).map { index in
            (
                "posts/p\(index)/index.html",
                .init(
                    inputs: [PageInput(.summary, index), PageInput(.tagPage, index % 7, 2)], key: key("\(index)"),
                    bytes: index)
            )
        }
        cache.writePages(many, identities: identities)
        let readMany = try #require(cache.readPages())
        #expect(readMany.pages.elementsEqual(many) { $0.path == $1.path && $0.record == $1.record })
        cache.writePages(records, identities: identities)
        // Cut short (a full disk): not read at all.
        let file = fixture.site.appendingPathComponent(".tagflow-cache/pages.tsv")
        let whole = try Data(contentsOf: file)
        try whole.prefix(whole.count - 3).write(to: file)
        #expect(cache.readPages() == nil)
        try whole.prefix(60).write(to: file)
        #expect(cache.readPages() == nil)
        // A path that cannot be recorded: no record at all, so the next build renders everything.
        cache.writePages(records + [("a\tb.html", .init(inputs: [], key: key("k5"), bytes: 5))], identities: identities)
        #expect(cache.readPages() == nil)
        // Nor a name.
        var tabbed = identities
        tabbed.tags.append("a\tb")
        cache.writePages(records, identities: tabbed)
        #expect(cache.readPages() == nil)
        // Nor when a page has no key, or no inputs.
        cache.writePages(records + [("b.html", .init(inputs: [], key: nil, bytes: 4))], identities: identities)
        #expect(cache.readPages() == nil)
        cache.writePages(records + [("b.html", .init(inputs: nil, key: key("k5"), bytes: 4))], identities: identities)
        #expect(cache.readPages() == nil)
    }

    @Test func digestValuesReadBackFromTheirText() {
        var digest = Digest()
        digest.update("a page")
        let value = digest.value
        #expect(value.description.count == 32)
        #expect(DigestValue(value.description) == value)
        #expect(DigestValue(String(value.description.dropLast())) == nil)
        #expect(DigestValue(String(repeating: "g", count: 32)) == nil)
    }
}
