internal import CTagflowSupport
import Foundation
import Synchronization

/// Makes the folders of a build's pages on a thread of its own, ahead of the threads that render
/// and write the pages.
///
/// On ext4 a `mkdir` holds its parent folder's lock while it makes a new inode and a directory
/// block, and a thread that finds the lock taken spins on it. When the page threads made their
/// own folders, two of them at once in `posts/` or `tags/`, that spinning was 4-5% of the CPU
/// time of a 1 000-post build on disk (`perf record`). One thread making the folders in turn
/// never waits for another, and the page threads only create files, each in a folder of its own:
/// 0.96 of the build's wall time on disk, 0.98 into tmpfs (`scripts/ab.py`).
///
/// The folders are made in the order the page threads take their jobs, from both ends of the
/// list (``ParallelMap/Cursor``). A page thread that gets to its page before the maker made its
/// folder makes the folder itself, as before (``OutputWriter/writeFile(_:into:folderIsMade:)``
/// makes missing folders either way), and notes it (``noteMade(_:)``), so the maker skips it. A
/// folder the maker could not make is made, or its error reported, by the page's own write.
final class FolderMaker: @unchecked Sendable {
    // @unchecked: `made` is an array of atomics, allocated in `init` and freed in `deinit`, when
    // no thread uses it any more (the maker's thread holds the maker until it ends).
    private let folders: [String?]
    private let made: UnsafeMutablePointer<Atomic<Bool>>
    private let started = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts making `folders` in `folder` (an open folder's descriptor).
    ///
    /// - Parameters:
    ///   - folders: Each job's folder, relative to `folder` (`posts/hello`), or `nil` for a page
    ///     at the top (`feed.xml`, `index.html`); in the order of the jobs.
    ///   - folder: The staging folder the pages are written into.
    ///   - startThread: Starts a thread, or says it could not (tests replace it); without a
    ///     thread, nothing is made ahead and each page makes its own folder.
    init(
        folders: [String?], in folder: Int32,
        startThread: (@escaping @Sendable () -> Void) -> Bool = ParallelMap.startThread
    ) {
        self.folders = folders
        made = .allocate(capacity: max(folders.count, 1))
        for index in folders.indices { (made + index).initialize(to: Atomic(false)) }
        let didStart = startThread { [self] in
            // Named for `top -H`, `perf` and debuggers, as the page threads are.
            _ = tagflow_name_current_thread("tagflow-folders")
            makeAll(in: folder)
            ended.signal()
        }
        started.store(didStart, ordering: .releasing)
    }

    deinit {
        made.deinitialize(count: folders.count)
        made.deallocate()
    }

    /// Whether the folder of job `index` is made (by the maker or by a page thread).
    func isMade(_ index: Int) -> Bool {
        folders[index] != nil && made[index].load(ordering: .acquiring)
    }

    /// Notes that the page of job `index` is written, its folder made with it.
    func noteMade(_ index: Int) {
        made[index].store(true, ordering: .releasing)
    }

    /// Waits for the maker's thread to end.
    ///
    /// Call it once, when every page is written, before the staging folder is swapped in or
    /// removed. By then each folder is made or noted, and the maker only goes through the rest of
    /// its list.
    func finish() {
        if started.load(ordering: .acquiring) { ended.wait() }
    }

    /// Makes each folder in turn, one from the start of the list and one from its end.
    private func makeAll(in folder: Int32) {
        var low = 0
        var high = folders.count - 1
        var fromEnd = false
        while low <= high {
            let index: Int
            if fromEnd {
                index = high
                high -= 1
            } else {
                index = low
                low += 1
            }
            fromEnd.toggle()
            guard let path = folders[index], !made[index].load(ordering: .acquiring) else { continue }
            OutputWriter.makeFolders(path, in: folder)
            made[index].store(true, ordering: .releasing)
        }
    }
}
