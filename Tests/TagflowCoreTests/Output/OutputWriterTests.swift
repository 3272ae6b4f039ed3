import CTagflowSupport
import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

@Suite struct OutputWriterTests {
    @Test func writesAndReplacesAtomically() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let writer = OutputWriter(target: fixture.output)
        try await writer.write([OutputFile(path: "a/index.html", text: "one")], staticFiles: [])
        #expect(try fixture.output("a/index.html") == "one")
        #expect(
            FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent(OutputWriter.markerName).path))
        try await writer.write([OutputFile(path: "b.html", text: "two")], staticFiles: [])
        #expect(try fixture.output("b.html") == "two")
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("a/index.html").path))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: fixture.root.path)
        #expect(siblings.sorted() == ["out", "site"])
    }

    /// A mount point (a Docker volume) cannot be renamed: the site is staged inside it and its
    /// entries are replaced, the folder itself stays, and nothing is left beside or inside it.
    @Test func aMountPointIsWrittenIntoNotSwapped() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        try FileManager.default.createDirectory(at: fixture.output, withIntermediateDirectories: true)
        var before = stat()
        #expect(stat(fixture.output.path, &before) == 0)
        let writer = OutputWriter(target: fixture.output, isMountPoint: true)
        try await writer.write([OutputFile(path: "a/index.html", text: "one")], staticFiles: [])
        try await writer.write([OutputFile(path: "b/index.html", text: "two")], staticFiles: [])
        #expect(try fixture.output("b/index.html") == "two")
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("a").path))
        var after = stat()
        #expect(stat(fixture.output.path, &after) == 0)
        #expect(before.st_ino == after.st_ino, "the folder itself is the same")
        let inside = try FileManager.default.contentsOfDirectory(atPath: fixture.output.path).sorted()
        #expect(inside == [OutputWriter.markerName, "b"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).sorted() == ["out", "site"])
        // A build stopped half-way leaves its staging folder inside: the next one is still allowed in.
        try FileManager.default.createDirectory(
            at: fixture.output.appendingPathComponent(".out.tagflow-tmp-999999"), withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: fixture.output.appendingPathComponent(OutputWriter.markerName))
        try writer.validate(siteRoot: fixture.site)
        try await writer.write([OutputFile(path: "c.html", text: "three")], staticFiles: [])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.output.path).sorted() == [
                OutputWriter.markerName, "c.html",
            ])
        // A build killed after taking the old site out: the next one puts it back first.
        let retired = fixture.output.appendingPathComponent(".out.tagflow-old-999999")
        try FileManager.default.createDirectory(at: retired, withIntermediateDirectories: true)
        for name in [OutputWriter.markerName, "c.html"] {
            try FileManager.default.moveItem(
                at: fixture.output.appendingPathComponent(name), to: retired.appendingPathComponent(name))
        }
        try Data("half".utf8).write(to: fixture.output.appendingPathComponent("half-new.html"))
        writer.removeLeftovers()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.output.path).sorted() == [
                OutputWriter.markerName, "c.html",
            ])
        #expect(OutputWriter.isMountPoint(URL(fileURLWithPath: "/proc")), "a real mount point is found")
        #expect(!OutputWriter.isMountPoint(fixture.output))
    }

    /// A page kept as text is the same file as one made from its bytes, and is written as them.
    @Test func aFileOfTextIsTheFileOfItsBytes() async throws {
        let texts = ["", "one", "é—日本語 🏳️‍🌈", String(repeating: "<li>chip</li>", count: 5_000)]
        for text in texts {
            let fromText = OutputFile(path: "p/index.html", text: text)
            let fromBytes = OutputFile(path: "p/index.html", contents: Array(text.utf8))
            #expect(fromText == fromBytes && fromText.hashValue == fromBytes.hashValue)
            #expect(fromText.contents == Array(text.utf8) && fromText.byteCount == text.utf8.count)
            #expect(fromText != OutputFile(path: "q/index.html", text: text))
            #expect(fromText != OutputFile(path: "p/index.html", text: text + "!"))
            var changed = fromText
            changed.contents = Array("other".utf8)
            #expect(changed == OutputFile(path: "p/index.html", text: "other"))
        }
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let files = texts.enumerated().map { OutputFile(path: "t\($0.offset)/index.html", text: $0.element) }
        try await OutputWriter(target: fixture.output).write(files, staticFiles: [])
        for file in files {
            let written = try Data(contentsOf: fixture.output.appendingPathComponent(file.path))
            #expect(Array(written) == file.contents)
        }
    }

    /// A page's folder is made before its file (nearly always new), and a page whose folder was
    /// already made by another page, or that is not a folder's index, is written all the same.
    @Test func pagesAreWrittenWhateverFoldersExist() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let paths = [
            "tags/swift/page/2/index.html", "tags/swift/index.html", "index.html", "feed.xml",
            "posts/a/index.html", "posts/a/image-notes.txt", "deep/er/than/before/index.html",
        ]
        try await OutputWriter(target: fixture.output).write(
            paths.map { OutputFile(path: $0, text: $0) }, staticFiles: [])
        for path in paths { #expect(try fixture.output(path) == path) }
    }

    /// Files kept beside the site (the marker, the cache) are replaced through a file written
    /// beside them and renamed: their folders are made, and nothing else is left behind.
    @Test func replacesAFileWholeMakingItsFolders() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let path = fixture.root.appendingPathComponent("cache/deeper/manifest.json").path
        #expect(OutputWriter.replaceFile(at: path, with: Array("first".utf8)) == nil)
        #expect(OutputWriter.replaceFile(at: path, with: Array("second, longer".utf8)) == nil)
        #expect(OutputWriter.replaceFile(at: path, with: Array("third".utf8)) == nil)
        #expect(FileManager.default.contents(atPath: path) == Data("third".utf8))
        let folder = fixture.root.appendingPathComponent("cache/deeper").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["manifest.json"])
        // A path whose folder cannot be made says why and leaves nothing.
        try fixture.write("blocker", "a file, not a folder")
        let blocked = fixture.site.appendingPathComponent("blocker/manifest.json").path
        let failure = OutputWriter.replaceFile(at: blocked, with: Array("x".utf8))
        #expect((failure?.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ENOTDIR))
    }

    @Test func refusesAFolderItDidNotWrite() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        try FileManager.default.createDirectory(at: fixture.output, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: fixture.output.appendingPathComponent("thesis.txt"))
        #expect(throws: BuildFailure.self) { try OutputWriter(target: fixture.output).validate(siteRoot: fixture.site) }
        // An empty folder is fine.
        try FileManager.default.removeItem(at: fixture.output.appendingPathComponent("thesis.txt"))
        try OutputWriter(target: fixture.output).validate(siteRoot: fixture.site)
    }

    @Test func refusesTheSiteFolderAndItsParents() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        #expect(throws: BuildFailure.self) { try OutputWriter(target: fixture.site).validate(siteRoot: fixture.site) }
        #expect(throws: BuildFailure.self) { try OutputWriter(target: fixture.root).validate(siteRoot: fixture.site) }
        #expect(throws: BuildFailure.self) {
            try OutputWriter(target: URL(fileURLWithPath: "/")).validate(siteRoot: fixture.site)
        }
        #expect(throws: BuildFailure.self) {
            try OutputWriter(target: FileManager.default.homeDirectoryForCurrentUser).validate(siteRoot: fixture.site)
        }
        try OutputWriter(target: fixture.site.appendingPathComponent("_site")).validate(siteRoot: fixture.site)
    }

    @Test func removesLeftoversOfAKilledBuild() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        // A staging folder of a process that no longer exists (pid 999999 is above Linux's default pid_max).
        let stale = fixture.root.appendingPathComponent(".out.tagflow-tmp-999999")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try await OutputWriter(target: fixture.output).write([OutputFile(path: "x", text: "x")], staticFiles: [])
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    @Test func restoresAnOutputMovedAsideByAKilledBuild() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let retired = fixture.root.appendingPathComponent(".out.tagflow-old-999999")
        try FileManager.default.createDirectory(at: retired, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: retired.appendingPathComponent("index.html"))
        OutputWriter(target: fixture.output).removeLeftovers()
        #expect(try fixture.output("index.html") == "old")
    }

    @Test func aFailedWriteSaysWhyAndLeavesNoStaging() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        // A file where a folder must be: refused whatever the user's rights (tests may run as root).
        let blocker = fixture.root.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let failure = try #require(OutputWriter.writeFile(blocker.path + "/index.html", Array("x".utf8)))
        #expect(ContentLoader.reason(failure) == "Not a directory")

        let writer = OutputWriter(target: fixture.output)
        try await writer.write([OutputFile(path: "index.html", text: "old")], staticFiles: [])
        do {
            try await writer.write(
                [OutputFile(path: "a", text: "file"), OutputFile(path: "a/index.html", text: "page")], staticFiles: [])
            Issue.record("expected a failure")
        } catch {
            // "Not a directory" or "Is a directory", whichever file was written first.
            #expect(error.errors.first?.message.contains(" a directory") == true)
        }
        #expect(try fixture.output("index.html") == "old")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).sorted() == [
                "blocker", "out", "site",
            ])
    }

    @Test func filesAreMadeInsideTheOpenStagingFolderAndFailuresNameTheirWholePath() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let writer = OutputWriter(target: fixture.output)
        let staging = try writer.beginStaging()
        defer { OutputWriter.removeTree(staging.url) }
        #expect(OutputWriter.writeFile(OutputFile(path: "posts/a/index.html", text: "page"), into: staging) == nil)
        #expect(OutputWriter.writeFile(OutputFile(path: "feed.xml", text: "feed"), into: staging) == nil)
        let page = try String(contentsOf: staging.url.appendingPathComponent("posts/a/index.html"), encoding: .utf8)
        #expect(page == "page")
        #expect(FileManager.default.fileExists(atPath: staging.url.appendingPathComponent("feed.xml").path))
        // A file where a folder must be.
        let failure = try #require(
            OutputWriter.writeFile(OutputFile(path: "feed.xml/index.html", text: "x"), into: staging))
        #expect(failure.userInfo[NSFilePathErrorKey] as? String == staging.url.path + "/feed.xml/index.html")
        #expect(ContentLoader.reason(failure) == "Not a directory")
        // A folder where a file must be, at the top of the staging folder (no folder to make).
        let topLevel = try #require(OutputWriter.writeFile(OutputFile(path: "posts", text: "x"), into: staging))
        #expect(ContentLoader.reason(topLevel) == "Is a directory")
    }

    /// Makes `count` pages, `p0/index.html`…, in `folder`.
    static func makePages(_ count: Int, in folder: URL) throws {
        for index in 0..<count {
            let page = folder.appendingPathComponent("p\(index)")
            try FileManager.default.createDirectory(at: page, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: page.appendingPathComponent("index.html"))
        }
    }

    /// A large tree is removed on several threads, whole, without following links out of it.
    @Test(arguments: [1, 2, 4])
    func removesATreeOnSeveralThreads(threads: Int) throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let manager = FileManager.default
        let tree = fixture.root.appendingPathComponent("tree")
        let outside = fixture.root.appendingPathComponent("outside")
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep.txt"))
        // Enough entries two levels down to be shared out, a deeper tree, files at each level,
        // and links to a folder outside (at the top and two levels down).
        try Self.makePages(150, in: tree.appendingPathComponent("posts"))
        try manager.createDirectory(at: tree.appendingPathComponent("tags/a/page/2"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: tree.appendingPathComponent("tags/a/page/2/index.html"))
        try Data("x".utf8).write(to: tree.appendingPathComponent("index.html"))
        try manager.createSymbolicLink(at: tree.appendingPathComponent("link"), withDestinationURL: outside)
        try manager.createSymbolicLink(at: tree.appendingPathComponent("posts/link"), withDestinationURL: outside)

        #expect(tagflow_remove_tree_in_parallel(tree.path, Int32(threads)) == 0)
        #expect(!manager.fileExists(atPath: tree.path))
        #expect(try String(contentsOf: outside.appendingPathComponent("keep.txt"), encoding: .utf8) == "keep")
    }

    /// Removing a link to a large folder removes the link only: listing it to share out the work
    /// listed the linked folder, and its pages were deleted.
    @Test(arguments: [1, 2, 4])
    func removingALinkKeepsTheFolderItLeadsTo(threads: Int) throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let manager = FileManager.default
        let folder = fixture.root.appendingPathComponent("www")
        try Self.makePages(100, in: folder.appendingPathComponent("posts"))
        let link = fixture.root.appendingPathComponent("link")
        try manager.createSymbolicLink(at: link, withDestinationURL: folder)

        #expect(tagflow_remove_tree_in_parallel(link.path, Int32(threads)) == 0)
        #expect((try? manager.destinationOfSymbolicLink(atPath: link.path)) == nil)
        #expect(try manager.contentsOfDirectory(atPath: folder.appendingPathComponent("posts").path).count == 100)
        #expect(manager.fileExists(atPath: folder.appendingPathComponent("posts/p99/index.html").path))
    }

    /// An output folder that is a link (`_site` → a web server's folder) stays a link: the site is
    /// written into the folder it leads to, which is replaced whole, and nothing else is touched.
    @Test func anOutputThatIsALinkIsWrittenThroughIt() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let manager = FileManager.default
        let served = fixture.root.appendingPathComponent("www/blog")
        let link = fixture.root.appendingPathComponent("site/_site")
        try await OutputWriter(target: served).write(
            (0..<100).map { OutputFile(path: "posts/old-\($0)/index.html", text: "old") }, staticFiles: [])
        try Data("keep".utf8).write(to: fixture.root.appendingPathComponent("www/keep.txt"))
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: "../www/blog")

        let writer = OutputWriter(target: link)
        #expect(writer.target.path == served.standardizedFileURL.path)
        try await writer.write([OutputFile(path: "index.html", text: "new")], staticFiles: [])

        #expect(try manager.destinationOfSymbolicLink(atPath: link.path) == "../www/blog")
        #expect(try String(contentsOf: link.appendingPathComponent("index.html"), encoding: .utf8) == "new")
        #expect(!manager.fileExists(atPath: served.appendingPathComponent("posts").path))
        #expect(
            try manager.contentsOfDirectory(atPath: fixture.root.appendingPathComponent("www").path).sorted() == [
                "blog", "keep.txt",
            ])
    }
}
