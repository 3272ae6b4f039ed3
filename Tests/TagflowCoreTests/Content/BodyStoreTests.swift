import Foundation
import TagflowConcurrency
import TagflowMarkdown
import Testing

@testable import TagflowCore

/// The bodies' HTML waits for its pages in an unlinked temporary file, and reads back as it was
/// written.
@Suite struct BodyStoreTests {
    /// An empty folder of its own, removed by `body`'s end.
    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-bodies-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func textsReadBackAsTheyWereKept() throws {
        try withFolder { folder in
            let store = try #require(BodyStore(folder: folder.path))
            let texts = [
                "<p>Hello.</p>", "<p>naïve — 東京 🎉 مرحبا</p>", String(repeating: "<p>Long.</p>\n", count: 100_000),
                "",
            ]
            let kept = texts.map { BodyHTML($0, keptIn: store) }
            for (text, html) in zip(texts, kept) {
                #expect(try html.text() == text)
                #expect(html.isKeptInFile == !text.isEmpty)
                #expect(html.isEmpty == text.isEmpty)
            }
        }
    }

    @Test func theFileLeavesNothingInItsFolder() throws {
        try withFolder { folder in
            let store = try #require(BodyStore(folder: folder.path))
            let html = BodyHTML("<p>Kept.</p>", keptIn: store)
            #expect(html.isKeptInFile)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    #if os(Linux)
        /// The file is already gone from its folder, and a program `tagflow serve` starts does not
        /// inherit it.
        @Test func theFileIsClosedOnExec() throws {
            try withFolder { folder in
                let store = try #require(BodyStore(folder: folder.path))
                _ = BodyHTML("<p>Kept.</p>", keptIn: store)
                let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                    descriptor -> Int32? in
                    let target = try? FileManager.default.destinationOfSymbolicLink(
                        atPath: "/proc/self/fd/\(descriptor)")
                    guard let target, target.hasPrefix(folder.path + "/tagflow-bodies.") else { return nil }
                    #expect(target.hasSuffix("(deleted)"))
                    return Int32(descriptor)
                }
                #expect(descriptors.count == 1)
                for descriptor in descriptors { #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0) }
            }
        }
    #endif

    @Test func withoutAFolderTheBodiesStayInMemory() throws {
        #expect(BodyStore(folder: "/nonexistent-tagflow-folder/\(UUID())") == nil)
        let html = BodyHTML("<p>Here.</p>", keptIn: nil)
        #expect(!html.isKeptInFile)
        #expect(try html.text() == "<p>Here.</p>")
    }

    @Test func threadsKeepAndReadAtOnce() throws {
        try withFolder { folder in
            let store = try #require(BodyStore(folder: folder.path))
            let kept = Locked<[Int: BodyHTML]>([:])
            DispatchQueue.concurrentPerform(iterations: 400) { index in
                let html = BodyHTML(String(repeating: "<p>Post \(index).</p>", count: index % 50 + 1), keptIn: store)
                kept.withLock { $0[index] = html }
            }
            let all = kept.withLock { $0 }
            DispatchQueue.concurrentPerform(iterations: 400) { index in
                let expected = String(repeating: "<p>Post \(index).</p>", count: index % 50 + 1)
                #expect((try? all[index]?.text()) == expected)
            }
        }
    }

    @Test func bodiesAreEqualWhenTheirTextsAre() throws {
        try withFolder { folder in
            let first = try #require(BodyStore(folder: folder.path))
            let second = try #require(BodyStore(folder: folder.path))
            let text = "<p>Same.</p>"
            #expect(BodyHTML(text, keptIn: first) == BodyHTML(text, keptIn: second))
            #expect(BodyHTML(text, keptIn: first) == BodyHTML(text))
            #expect(BodyHTML(text, keptIn: first).hashValue == BodyHTML(text).hashValue)
            #expect(BodyHTML(text, keptIn: first) != BodyHTML("<p>Other.</p>", keptIn: first))
        }
    }

    @Test func aBuildKeepsItsPostsBodiesInAFile() throws {
        try withFolder { root in
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("posts"), withIntermediateDirectories: true)
            try "---\ntitle: Hello\ndate: 2024-01-02\n---\n\nSome *text*.\n".write(
                to: root.appendingPathComponent("posts/2024-01-02-hello.md"), atomically: true, encoding: .utf8)
            let loader = SiteBuilder.contentLoader(BuildContext(siteRoot: root, options: BuildOptions()))
            guard case .post(let post, _) = loader.loadFile("posts/2024-01-02-hello.md", kind: .post).content else {
                Issue.record("the post did not load")
                return
            }
            #expect(post.body.html.isKeptInFile)
            #expect(try post.body.html.text() == "<p>Some <em>text</em>.</p>\n")
        }
    }
}
