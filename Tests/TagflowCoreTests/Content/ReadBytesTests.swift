import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// `ContentLoader.readBytes(atPath:)`, which reads every post and page with POSIX calls.
@Suite struct ReadBytesTests {
    @Test func readsEveryByteOfFilesOfAnySize() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        var state: UInt64 = 0x853C_49E6_748F_EA9B
        for size in [0, 1, 4095, 4096, 4097, 100_000] {
            let bytes = (0..<size).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            try fixture.write("file-\(size)", bytes: bytes)
            let read = try ContentLoader.readBytes(atPath: fixture.site.appendingPathComponent("file-\(size)").path)
            #expect(read == bytes, "\(size) bytes")
        }
    }

    /// A file whose size `stat` does not tell (Linux's `/proc` files say 0) is read to its end.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func readsFilesOfUnknownSizeToTheirEnd() throws {
        let read = try ContentLoader.readBytes(atPath: "/proc/self/status")
        let text = String(decoding: read, as: UTF8.self)
        #expect(text.hasPrefix("Name:") && text.contains("\nPid:") && text.hasSuffix("\n"))
    }

    /// Failures carry the POSIX reason, which diagnostics print.
    @Test func failuresSayWhy() throws {
        let fixture = try SiteFixture("-- posts/a.md --\nA\n")
        defer { fixture.remove() }
        func reason(_ path: String) -> String? {
            do {
                _ = try ContentLoader.readBytes(atPath: path)
                return nil
            } catch {
                return ContentLoader.reason(error)
            }
        }
        #expect(reason(fixture.site.appendingPathComponent("missing.md").path) == "No such file or directory")
        #expect(reason(fixture.site.appendingPathComponent("posts").path) == "Is a directory")
    }

    /// Posts are read relative to the site folder held open; errors still name the whole path.
    @Test func readsRelativeToAnOpenFolder() throws {
        let fixture = try SiteFixture("-- posts/a.md --\nA\n")
        defer { fixture.remove() }
        let folder = try OpenFolder(path: fixture.site.path)
        let read = try ContentLoader.readBytes(atPath: "posts/a.md", in: folder.descriptor)
        #expect(read == Array(try Data(contentsOf: fixture.site.appendingPathComponent("posts/a.md"))))
        #expect(read.starts(with: Array("A\n".utf8)))
        let whole = fixture.site.path + "/posts/b.md"
        do {
            _ = try ContentLoader.readBytes(atPath: "posts/b.md", in: folder.descriptor, fullPath: whole)
            Issue.record("expected a failure")
        } catch {
            #expect(error.userInfo[NSFilePathErrorKey] as? String == whole)
            #expect(ContentLoader.reason(error) == "No such file or directory")
        }
        // A file is not a folder to hold open.
        do {
            _ = try OpenFolder(path: fixture.site.path + "/posts/a.md")
            Issue.record("expected a failure")
        } catch {
            #expect(ContentLoader.reason(error) == "Not a directory")
            #expect(error.userInfo[NSFilePathErrorKey] as? String == fixture.site.path + "/posts/a.md")
        }
    }
}
