import Foundation
import Synchronization

/// Maps work over a list on all cores: one task per core, each taking small batches of the list
/// in turn, with results in input order (so output never depends on scheduling).
///
/// Work that waits on the file system runs on more threads than cores
/// (``mapWaitingOnFiles(_:threadCount:startThread:_:)``).
///
/// Batches rather than one contiguous half per core: pages differ in cost (a tag page lists ten
/// posts, the sitemap lists them all), and with fixed halves one core sat idle while the other
/// finished its half.
package enum ParallelMap {
    package static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    package static func map<Element: Sendable, Result: Sendable>(
        _ items: [Element], _ transform: @escaping @Sendable (Element) -> Result
    ) async -> [Result] {
        let workerCount = min(coreCount, items.count)
        guard workerCount > 1 else { return items.map(transform) }
        let cursor = Cursor(count: items.count, workers: workerCount)
        let results = Slots<Result>(count: items.count)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<workerCount {
                group.addTask { work(worker, items, cursor, results, transform) }
            }
        }
        return results.moveToArray()
    }

    /// How many threads ``mapWaitingOnFiles(_:threadCount:startThread:_:)`` runs: one per core.
    ///
    /// Twice as many let another thread render while one waits for the disk, but made no
    /// measurable difference into tmpfs or into a journaled ext4 (docs/performance.md, "Threads
    /// that wait on the disk"), so nothing is tuned.
    package static var fileThreadCount: Int { coreCount }

    /// Like ``map(_:_:)``, for work that waits on the file system (making folders, writing
    /// files): on threads of its own, ``fileThreadCount`` of them, rather than one task per core
    /// on the shared pool.
    ///
    /// Making a folder or a file can wait for the disk, and a thread of the shared pool that
    /// waits holds one of the pool's few threads, which the rest of the program needs. The calling
    /// task is suspended, not blocked, until the threads are done.
    ///
    /// A thread the system refuses (a process or container limit on threads) is done without:
    /// the others take its share, and with none at all the work runs on the calling task's thread.
    ///
    /// - Parameters:
    ///   - items: The work, one item at a time.
    ///   - threadCount: How many threads to run (no more than there are items).
    ///   - startThread: Starts a thread, or says it could not (tests replace it).
    ///   - transform: The work on one item; called once per item, on any of the threads.
    /// - Returns: `transform`'s results, in the order of `items`.
    package static func mapWaitingOnFiles<Element: Sendable, Result: Sendable>(
        _ items: [Element], threadCount: Int = fileThreadCount,
        startThread: (@escaping @Sendable () -> Void) -> Bool = FileThreads.startThread,
        _ transform: @escaping @Sendable (Element) -> Result
    ) async -> [Result] {
        let workerCount = min(threadCount, items.count)
        guard workerCount > 1 else { return items.map(transform) }
        let cursor = Cursor(count: items.count, workers: workerCount)
        let results = Slots<Result>(count: items.count)
        let threads = FileThreads.start(workerCount, named: "tagflow-files", startThread: startThread) { worker in
            work(worker, items, cursor, results, transform)
        }
        if threads.count == 0 { work(0, items, cursor, results, transform) }
        await threads.wait()
        return results.moveToArray()
    }

    /// One worker's share: batches from the cursor until none is left.
    ///
    /// Every other worker takes from the end of the list (see ``Cursor``).
    private static func work<Element, Result>(
        _ worker: Int, _ items: [Element], _ cursor: Cursor, _ results: Slots<Result>,
        _ transform: (Element) -> Result
    ) {
        let fromEnd = worker % 2 == 1
        while let batch = cursor.claim(fromEnd: fromEnd) {
            for index in batch { results.initialize(index, to: transform(items[index])) }
        }
    }

    /// Room for one result per item, each written once, in place, by the task that took the item.
    ///
    /// Gathering each task's results and joining them copied every result once more and freed
    /// the copies, all on one core between reading and rendering.
    private final class Slots<Result: Sendable>: @unchecked Sendable {
        // @unchecked: each slot is initialised by exactly one worker (the cursor hands out each
        // index once), and the slots are read only after the workers are done (the task group, or
        // the file threads' dispatch group), which orders every write before.
        private let base: UnsafeMutablePointer<Result>
        private let count: Int
        private var moved = false

        init(count: Int) {
            self.count = count
            base = .allocate(capacity: count)
        }

        func initialize(_ index: Int, to value: consuming Result) {
            (base + index).initialize(to: value)
        }

        /// The results, moved (not copied) into an array; call once, after every slot is written.
        func moveToArray() -> [Result] {
            precondition(!moved, "the results were already taken")
            moved = true
            return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
                if let destination = buffer.baseAddress { destination.moveInitialize(from: base, count: count) }
                initialized = count
            }
        }

        deinit {
            // Every slot was written (`transform` cannot throw); the results leave by `moveToArray`.
            if !moved { base.deinitialize(count: count) }
            base.deallocate()
        }
    }

    /// Hands out the items in batches that shrink as the list runs out (guided scheduling), from
    /// its start and from its end.
    ///
    /// A batch is an eighth of what is left per worker, at most 64 items and at least one. With
    /// batches of a fixed size (a sixteenth of the list), a worker that took the last one kept
    /// working alone while the others had nothing left, at the end of reading and again at the
    /// end of rendering. Now the last batches are single items.
    ///
    /// Workers taking from the two ends work on different kinds of page until they meet (the
    /// render jobs are in kind order): one makes its folders in `posts/` while the other makes
    /// them in `tags/`. Taking from one end, both made folders in the same parent at once, and the
    /// kernel's lock on it made one wait for the other, spinning (docs/performance.md, "Both cores
    /// to the end of each stage").
    package final class Cursor: Sendable {
        /// The items not taken yet: the first in the low 32 bits, the end in the high 32.
        private let untaken: Atomic<UInt64>
        private let divisor: Int

        package init(count: Int, workers: Int) {
            precondition(count >= 0 && count < Int(UInt32.max), "too many items for a cursor")
            untaken = Atomic(UInt64(count) << 32)
            divisor = max(1, workers) * 8
        }

        /// The indices of the next batch from the start (or the end) of what is left; `nil` when
        /// every item is taken.
        package func claim(fromEnd: Bool = false) -> Range<Int>? {
            var state = untaken.load(ordering: .relaxed)
            while true {
                let start = Int(state & 0xFFFF_FFFF)
                let end = Int(state >> 32)
                guard start < end else { return nil }
                let size = max(1, min(64, (end - start) / divisor))
                let batch = fromEnd ? (end - size)..<end : start..<(start + size)
                let left = fromEnd ? (start, end - size) : (start + size, end)
                let (exchanged, original) = untaken.compareExchange(
                    expected: state, desired: UInt64(left.1) << 32 | UInt64(left.0), ordering: .relaxed)
                if exchanged { return batch }
                state = original
            }
        }
    }

    package static func map<A: Sendable, B: Sendable, Result: Sendable>(
        _ items: [(A, B)], _ transform: @escaping @Sendable (A, B) -> Result
    ) async -> [Result] {
        let pairs = items.map { Pair(first: $0.0, second: $0.1) }
        return await map(pairs) { transform($0.first, $0.second) }
    }

    private struct Pair<A: Sendable, B: Sendable>: Sendable {
        let first: A
        let second: B
    }
}
