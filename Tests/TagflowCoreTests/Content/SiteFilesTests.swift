import Foundation
import Testing

@testable import TagflowCore

@Suite struct SiteFilesTests {
    /// A folder with a file, a folder, a link to a file, one to a folder outside it, a broken link and
    /// a hidden file.
    private func makeTree() throws -> URL {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("tagflow-sitefiles-\(UUID().uuidString)")
        let posts = root.appendingPathComponent("posts")
        try manager.createDirectory(at: posts.appendingPathComponent("2024"), withIntermediateDirectories: true)
        try Data("# A\n".utf8).write(to: posts.appendingPathComponent("a.md"))
        try Data("# B\n".utf8).write(to: posts.appendingPathComponent("2024/b.md"))
        try Data("# Hidden\n".utf8).write(to: posts.appendingPathComponent(".hidden.md"))
        try manager.createSymbolicLink(atPath: posts.appendingPathComponent("c.md").path, withDestinationPath: "a.md")
        try manager.createDirectory(at: root.appendingPathComponent("drafts"), withIntermediateDirectories: true)
        try Data("# D\n".utf8).write(to: root.appendingPathComponent("drafts/d.md"))
        try manager.createSymbolicLink(
            atPath: posts.appendingPathComponent("more").path, withDestinationPath: "../drafts")
        try manager.createSymbolicLink(
            atPath: posts.appendingPathComponent("gone.md").path, withDestinationPath: "missing.md")
        return root
    }

    /// The listing reads each entry's kind from the folder and asks the file system only about
    /// links; it must find what a `stat` of every name finds. (The temporary folder's file system
    /// must fill in `d_type`, as tmpfs, ext4, overlayfs and APFS do.)
    @Test func entriesGiveEachNameItsKind() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let entries = try SiteFiles.entries(of: root.appendingPathComponent("posts").path)
        let kinds = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.kind) })
        #expect(
            kinds == [
                "a.md": .file, "2024": .folder, ".hidden.md": .file, "c.md": .other, "more": .other,
                "gone.md": .other,
            ])
    }

    @Test func listingFollowsLinksAndReportsBrokenOnes() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let (files, diagnostics) = SiteFiles.markdownFiles(under: "posts", in: root)
        #expect(files == ["posts/2024/b.md", "posts/a.md", "posts/c.md", "posts/more/d.md"])
        #expect(diagnostics.map(\.error.location?.path) == ["posts/gone.md"])
        let all = SiteFiles.allFiles(under: "posts", in: root).files
        #expect(all == ["posts/.hidden.md", "posts/2024/b.md", "posts/a.md", "posts/c.md", "posts/more/d.md"])
    }

    @Test func aMissingFolderListsNothingButCannotBeOpened() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = SiteFiles.markdownFiles(under: "pages", in: root)
        #expect(missing.files.isEmpty && missing.diagnostics.isEmpty)
        #expect(throws: (any Error).self) { try SiteFiles.entries(of: root.appendingPathComponent("pages").path) }
    }

    /// A name that is not UTF-8 (possible on Linux) is reported and skipped, not listed under a
    /// repaired name that cannot be opened.
    @Test func aNameThatIsNotUTF8IsReportedAndSkipped() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        // "bad", a lone continuation byte, ".md".
        let name: [UInt8] = [0x2F, 0x62, 0x61, 0x64, 0xBF, 0x2E, 0x6D, 0x64, 0]
        let path = (Array(root.appendingPathComponent("posts").path.utf8) + name).map { CChar(bitPattern: $0) }
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
        try #require(descriptor >= 0 || errno == EILSEQ, "could not create the file: \(errno)")
        guard descriptor >= 0 else { return }  // a file system that takes UTF-8 names only
        close(descriptor)
        let (files, diagnostics) = SiteFiles.markdownFiles(under: "posts", in: root)
        #expect(files == ["posts/2024/b.md", "posts/a.md", "posts/c.md", "posts/more/d.md"])
        #expect(diagnostics.count == 2 && diagnostics.allSatisfy { $0.severity == .warning })
    }
}
