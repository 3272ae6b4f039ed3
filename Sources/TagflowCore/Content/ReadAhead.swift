internal import CTagflowSupport
import Foundation
import Synchronization
import TagflowConcurrency

/// Asks the operating system to start reading a list of files before they are read, when they
/// are not in memory, so that a build does not wait for the disk one file at a time.
///
/// ```swift
/// let readAhead = ReadAhead(paths: files)   // hint(_:unless:) on a thread of its own
/// let loaded = await ParallelMap.map(files, load)
/// readAhead.stop()
/// ```
///
/// Each worker reads one file and waits for the disk before it parses it: with two cores, two
/// reads were in flight at a time, and a build whose posts the kernel had evicted took much
/// longer than one whose posts were in memory (docs/performance.md, "Reading"). A thread of this
/// type first looks whether a few files spread over the list are in memory (``sampleCount``
/// `mincore` calls, which never wait). If they all are, it stops: hinting files that are in
/// memory costs an `open` and a `close` each, which a large build would notice. Otherwise it
/// walks the list in the workers' order and hands each file to the system's read-ahead, which
/// queues the reads together without waiting for them, and the workers find the bytes in memory.
///
/// A hint only: it never changes what is read. When residency cannot be told, every file is
/// hinted.
final class ReadAhead: Sendable {
    /// How many files are looked at to decide whether the list is in memory.
    static let sampleCount = 16

    private let stopped = Atomic<Bool>(false)

    /// Starts ``hint(_:unless:)`` on a new thread; `paths` are absolute, in the order they will
    /// be read.
    init(paths: [String]) {
        guard paths.count > 1 else { return }
        // Not waited for: it ends when the list is done or the files are read (``stop()``).
        _ = FileThreads.start(1, named: "tagflow-ahead") { [self] _ in
            Self.hint(paths) { stopped.load(ordering: .relaxed) }
        }
    }

    /// Stops handing files to the read-ahead (the files are read).
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Hands each file of `paths` to the read-ahead, in order, unless the sample is all in memory,
    /// until `isStopped` says to stop.
    ///
    /// - Returns: How many files were handed to the read-ahead.
    @discardableResult
    static func hint(_ paths: [String], unless isStopped: () -> Bool = { false }) -> Int {
        guard !allInMemory(sample(of: paths)) else { return 0 }
        var hinted = 0
        for path in paths {
            if isStopped() { break }
            if tagflow_read_ahead(path) == 0 { hinted += 1 }
        }
        return hinted
    }

    /// Up to ``sampleCount`` paths spread evenly over `paths`, the first included.
    static func sample(of paths: [String]) -> [String] {
        let count = min(sampleCount, paths.count)
        return (0..<count).map { paths[$0 * paths.count / count] }
    }

    /// Whether every file of `paths` is known to be in memory.
    static func allInMemory(_ paths: [String]) -> Bool {
        paths.allSatisfy { tagflow_file_is_cached($0) == 1 }
    }
}
