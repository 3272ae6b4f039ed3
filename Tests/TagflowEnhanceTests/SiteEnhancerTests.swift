import Foundation
import TagflowChips
import Testing

@testable import TagflowEnhance

@Suite struct SiteEnhancerTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-enhance-\(UUID())")
        init(_ files: [String: String]) throws {
            for (path, text) in files { try write(path, Data(text.utf8)) }
        }
        func write(_ path: String, _ data: Data) throws {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        func read(_ path: String) -> String? {
            (try? Data(contentsOf: url.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
        }
        deinit {
            chmod(url.path, 0o755)
            try? FileManager.default.removeItem(at: url)
        }
    }

    static func enhancer(_ folder: Folder, rules: [ListRule] = [], basePath: String? = nil) -> SiteEnhancer {
        let renderer = ChipRenderer()
        return SiteEnhancer(
            folder: folder.url, page: PageEnhancer(renderer: renderer, rules: rules),
            stylesheet: renderer.stylesheet(), basePath: basePath)
    }

    @Test func rewritesOnlyPagesWithListsAndLinksTheStylesheetRelatively() async throws {
        let folder = try Folder([
            "index.html": "<html><head></head><body><ul data-tagflow><li>a</li></ul></body></html>",
            "posts/one/index.html": "<html><head></head><body><ul data-tagflow><li>b</li></ul></body></html>",
            "about.html": "<html><body>no list</body></html>",
            "style.css": "ul[data-tagflow]{}",
        ])
        let aboutBefore = try FileManager.default.attributesOfItem(
            atPath: folder.url.appendingPathComponent("about.html").path)
        let report = await Self.enhancer(folder).run()
        #expect(report.pages == 3 && report.rewritten == 2 && report.lists == 2 && report.errors.isEmpty)
        #expect(folder.read("index.html")?.contains(#"href="assets/tagflow-chips.css""#) == true)
        #expect(folder.read("posts/one/index.html")?.contains(#"href="../../assets/tagflow-chips.css""#) == true)
        #expect(folder.read(SiteEnhancer.stylesheetPath)?.contains(".tf-chips") == true)
        let aboutAfter = try FileManager.default.attributesOfItem(
            atPath: folder.url.appendingPathComponent("about.html").path)
        #expect(aboutBefore[.systemFileNumber] as? Int == aboutAfter[.systemFileNumber] as? Int, "not rewritten")
        // A second run: the same bytes, nothing written.
        let snapshot = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).sorted().map {
            ($0, folder.read($0))
        }
        let again = await Self.enhancer(folder).run()
        #expect(again.rewritten == 0 && again.lists == 0)
        let after = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).sorted().map {
            ($0, folder.read($0))
        }
        #expect(snapshot.map(\.0) == after.map(\.0) && snapshot.map(\.1) == after.map(\.1))
    }

    @Test func aBasePathLinksTheStylesheetFromTheRoot() async throws {
        let folder = try Folder(["a/b.html": "<head></head><ul data-tagflow><li>a</li></ul>"])
        _ = await Self.enhancer(folder, basePath: "/blog/").run()
        #expect(folder.read("a/b.html")?.contains(#"href="/blog/assets/tagflow-chips.css""#) == true)
    }

    @Test func invalidUTF8IsLeftWithAWarning() async throws {
        let folder = try Folder([:])
        try folder.write(
            "bad.html", Data([0x3C, 0x75, 0x6C, 0x20, 0xFF, 0x3E]) + Data("<ul data-tagflow><li>a</li></ul>".utf8))
        let report = await Self.enhancer(folder).run()
        #expect(report.warnings == ["bad.html: warning: not valid UTF-8; left as it is"])
        #expect(report.rewritten == 0)
    }

    @Test func aSelectorThatFindsNothingIsReported() async throws {
        let folder = try Folder(["index.html": "<ul class=tags><li>a</li></ul>"])
        let rules = [ListRule(selector: try Selector("ul.nothing"), origin: "--selector 'ul.nothing'")]
        #expect(await Self.enhancer(folder, rules: rules).run().unmatched == ["--selector 'ul.nothing'"])
    }

    @Test(.enabled(if: getuid() != 0, "root writes into read-only folders"))
    func aReadOnlyFolderIsAnErrorAndNothingIsLost() async throws {
        let folder = try Folder(["index.html": "<ul data-tagflow><li>a</li></ul>"])
        chmod(folder.url.path, 0o555)
        let report = await Self.enhancer(folder).run()
        #expect(!report.errors.isEmpty)
        #expect(folder.read("index.html") == "<ul data-tagflow><li>a</li></ul>")
    }

    @Test func aFileThatCannotBeReadIsAnError() async throws {
        let folder = try Folder([:])
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        // A dangling link named like a page: listed, then unreadable.
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("gone.html").path, withDestinationPath: "/nonexistent/x.html")
        let report = await Self.enhancer(folder).run()
        #expect(report.errors.isEmpty || report.errors == ["gone.html: cannot read the file"])
        let missing = await Self.enhancer(try Folder([:])).run()
        #expect(!missing.errors.isEmpty, "a missing folder is an error")
    }
}
