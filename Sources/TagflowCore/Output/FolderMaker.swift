import Foundation
import Synchronization
import TagflowConcurrency

/// Makes the folders of a build's pages on threads of their own, ahead of the threads that
/// render and write the pages.
///
/// On ext4 a `mkdir` holds its parent folder's lock while it makes a new inode and allocates a
/// directory block, and a thread that finds the lock taken spins on it. When the page threads
/// made their own folders, two of them at once in `posts/` or `tags/`, that spinning was a
/// visible share of a build's CPU time on disk (`perf record`). Now two threads make the folders,
/// one from each end of the job list, as the page threads take their jobs (``ParallelMap/Cursor``):
/// one works in `page/` and `posts/`, the other in `tags/`, so they seldom wait for each other,
/// and the page threads only create files, each in a folder of its own. One such thread made
/// builds faster, but the page threads caught up with it and made many `mkdir`s themselves,
/// waiting on it; two keep ahead of them (docs/performance.md, "Folders made ahead").
///
/// A page thread that gets to its page before its folder is made makes the folder itself, as
/// before (``OutputWriter/writeFile(_:into:folderIsMade:)`` makes missing folders either way),
/// and notes it (``noteMade(_:)``), so that the makers skip it. A folder a maker could not make
/// is made, or its error reported, by the page's own write.
final class FolderMaker: @unchecked Sendable {
    // @unchecked: `made` is an array of atomics, allocated in `init` and freed in `deinit`, when
    // no thread uses it any more (each maker thread holds the maker until it ends); `threads` is
    // only set in `init`.
    private let folders: [String?]
    private let made: UnsafeMutablePointer<Atomic<Bool>>
    /// The two maker threads, once started.
    private var threads: FileThreads.Running?

    /// Starts making `folders` in `folder` (an open folder's descriptor), on two threads.
    ///
    /// - Parameters:
    ///   - folders: Each job's folder, relative to `folder` (`posts/hello`), or `nil` for a page
    ///     at the top (`feed.xml`, `index.html`); in the order of the jobs.
    ///   - folder: The staging folder the pages are written into.
    ///   - startThread: Starts a thread, or says it could not (tests replace it); without
    ///     threads, nothing is made ahead and each page makes its own folder.
    init(
        folders: [String?], in folder: Int32,
        startThread: (@escaping @Sendable () -> Void) -> Bool = FileThreads.startThread
    ) {
        self.folders = folders
        made = .allocate(capacity: max(folders.count, 1))
        for index in folders.indices { (made + index).initialize(to: Atomic(false)) }
        let cursor = ParallelMap.Cursor(count: folders.count, workers: 2)
        threads = FileThreads.start(2, named: "tagflow-folders", startThread: startThread) { [self] worker in
            while let batch = cursor.claim(fromEnd: worker == 1) {
                for index in batch { make(index, in: folder) }
            }
        }
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

    /// Suspends until the makers' threads have ended.
    ///
    /// Call it when every page is written, before the staging folder is swapped in or removed.
    /// By then each folder is made or noted, and the makers only go through the rest of the list.
    func finish() async {
        await threads?.wait()
    }

    private func make(_ index: Int, in folder: Int32) {
        guard let path = folders[index], !made[index].load(ordering: .acquiring) else { return }
        OutputWriter.makeFolders(path, in: folder)
        made[index].store(true, ordering: .releasing)
    }
}
