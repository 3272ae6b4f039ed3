import Foundation
import Testing

@testable import TagflowCore

#if canImport(Glibc)
    import Glibc
#endif

/// `ReadAhead` hands files that are not in memory to the system's read-ahead, and leaves files
/// that are alone.
@Suite struct ReadAheadTests {
    @Test func theSampleSpreadsOverTheList() {
        let paths = (0..<1_000).map { "/posts/\($0).md" }
        let sample = ReadAhead.sample(of: paths)
        #expect(sample.count == ReadAhead.sampleCount)
        #expect(sample.first == "/posts/0.md")
        #expect(sample.last == "/posts/937.md")  // 15 × 1000 / 16
        #expect(Set(sample).count == sample.count)
        #expect(ReadAhead.sample(of: ["/a", "/b"]) == ["/a", "/b"])
    }

    #if os(Linux)
        /// Files pushed out of memory are all hinted, and come back into memory without anyone
        /// reading them; once they are in memory, none is hinted.
        @Test func filesOutOfMemoryAreReadAheadAndFilesInMemoryAreNot() async throws {
            // Beside the build products rather than in TMPDIR, which may be a tmpfs (whose files
            // cannot leave memory).
            let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let folder = packageRoot.appending(path: ".build/read-ahead-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let paths = (0..<40).map { folder.appending(path: "post-\($0).md").path }
            for path in paths {
                try Data(repeating: UInt8(ascii: "a"), count: 16_384).write(to: URL(filePath: path))
                let descriptor = open(path, O_RDONLY)
                try #require(descriptor >= 0)
                // Written back first: only clean pages can be dropped.
                fsync(descriptor)
                posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
                close(descriptor)
            }
            try #require(
                paths.allSatisfy { !ReadAhead.allInMemory([$0]) },
                "the files stayed in memory after POSIX_FADV_DONTNEED, so this file system cannot test read-ahead")

            #expect(ReadAhead.hint(paths) == paths.count)
            // Whether the kernel then reads them in, and how soon, is its own business (on a CI
            // machine busy with a build it took over a minute): read them here, and a second hint
            // must find nothing left to ask for.
            for path in paths { _ = FileManager.default.contents(atPath: path) }
            #expect(ReadAhead.allInMemory(paths))
            #expect(ReadAhead.hint(paths) == 0)
        }
    #endif
}
