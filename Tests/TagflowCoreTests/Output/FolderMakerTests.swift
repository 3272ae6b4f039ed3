import Foundation
import Synchronization
import TagflowConcurrency
import TagflowTesting
import Testing

@testable import TagflowCore

/// The threads that make a build's page folders ahead of the pages (``FolderMaker``).
@Suite struct FolderMakerTests {
    /// A staging folder of a fresh output, removed by `done`.
    private func staging() throws -> (folder: OutputWriter.StagingFolder, done: () -> Void) {
        let fixture = try SiteFixture("")
        let folder = try OutputWriter(target: fixture.output).beginStaging()
        let done = {
            OutputWriter.removeTree(folder.url)
            fixture.remove()
        }
        return (folder, done)
    }

    private func exists(_ path: String, in staging: OutputWriter.StagingFolder) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: staging.url.path + "/" + path, isDirectory: &isFolder)
            && isFolder.boolValue
    }

    /// Every folder is made, a nested one before its parent's own job included; a page at the
    /// top has none.
    @Test func makesEveryFolder() async throws {
        let (staging, done) = try staging()
        defer { done() }
        let folders: [String?] = [
            nil, "tags", "page/2", "posts/a", "posts/b", nil, "tags/swift/page/2", "tags/swift", "tags/日本語",
        ]
        let maker = FolderMaker(folders: folders, in: staging.descriptor)
        await maker.finish()
        for (index, folder) in folders.enumerated() {
            #expect(maker.isMade(index) == (folder != nil))
            if let folder { #expect(exists(folder, in: staging), "\(folder)") }
        }
    }

    /// A folder a page thread made (and noted) first is skipped: the maker does not make it again.
    @Test func skipsTheFoldersOfPagesWrittenFirst() async throws {
        let (staging, done) = try staging()
        defer { done() }
        nonisolated(unsafe) var bodies: [@Sendable () -> Void] = []
        let maker = FolderMaker(folders: ["posts/a", "posts/b", "posts/c"], in: staging.descriptor) {
            bodies.append($0)
            return true
        }
        #expect(!maker.isMade(1))
        maker.noteMade(1)
        #expect(maker.isMade(1))
        for body in bodies { body() }
        await maker.finish()
        #expect(exists("posts/a", in: staging) && exists("posts/c", in: staging))
        #expect(!exists("posts/b", in: staging))
    }

    /// With one of its two threads refused, the other makes every folder.
    @Test func oneThreadMakesEveryFolderWhenTheOtherIsRefused() async throws {
        let (staging, done) = try staging()
        defer { done() }
        let folders = (0..<200).map { "posts/p\($0)" }
        let started = Atomic<Int>(0)
        let maker = FolderMaker(folders: folders, in: staging.descriptor) { body in
            started.add(1, ordering: .relaxed).oldValue == 0 && FileThreads.startThread(body)
        }
        await maker.finish()
        #expect(folders.allSatisfy { exists($0, in: staging) })
    }

    /// Without threads (the system refused them) nothing is made ahead, and every page's write
    /// makes its folder, also when told the folder is made and it is not.
    @Test func withoutAThreadEachPageMakesItsFolder() async throws {
        let (staging, done) = try staging()
        defer { done() }
        let maker = FolderMaker(folders: ["posts/a", "tags/swift/page/2"], in: staging.descriptor) { _ in false }
        #expect(!maker.isMade(0) && !maker.isMade(1))
        await maker.finish()
        let pages = [
            (OutputFile(path: "posts/a/index.html", text: "a"), false),
            (OutputFile(path: "tags/swift/page/2/index.html", text: "page 2"), true),
        ]
        for (page, folderIsMade) in pages {
            #expect(OutputWriter.writeFile(page, into: staging, folderIsMade: folderIsMade) == nil)
            let written = try String(contentsOfFile: staging.url.path + "/" + page.path, encoding: .utf8)
            #expect(Array(written.utf8) == page.contents)
        }
    }

    @Test func theFolderOfAFile() {
        #expect(OutputWriter.folder(of: "posts/hello/index.html") == "posts/hello")
        #expect(OutputWriter.folder(of: "tags/swift/page/2/index.html") == "tags/swift/page/2")
        #expect(OutputWriter.folder(of: "feed.xml") == nil)
    }
}
