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
}
