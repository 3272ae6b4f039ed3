import Foundation
import Synchronization

/// Maps work over a list on all cores: one task per core, each taking small batches of the list
/// in turn, with results in input order (so output never depends on scheduling).
///
/// Batches rather than one contiguous half per core: pages differ in cost (a tag page lists ten
/// posts, the sitemap lists them all), and with fixed halves one core sat idle while the other
/// finished its half.
enum ParallelMap {
    static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    static func map<Element: Sendable, Result: Sendable>(
        _ items: [Element], _ transform: @escaping @Sendable (Element) -> Result
    ) async -> [Result] {
        let workerCount = min(coreCount, items.count)
        guard workerCount > 1 else { return items.map(transform) }
        let cursor = Cursor(count: items.count, workers: workerCount)
        let results = Slots<Result>(count: items.count)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workerCount {
                group.addTask {
                    while let batch = cursor.claim() {
                        for index in batch { results.initialize(index, to: transform(items[index])) }
                    }
                }
            }
        }
        return results.moveToArray()
    }

    /// Room for one result per item, each written once, in place, by the task that took the item.
    ///
    /// Gathering each task's results and joining them copied every result once more and freed
    /// the copies: for 10 000 loaded posts, a dozen references each, that was 10 ms on one core
    /// between reading and rendering.
    private final class Slots<Result: Sendable>: @unchecked Sendable {
        // @unchecked: each slot is initialised by exactly one task (the cursor hands out each index
        // once), and the slots are read only after the task group, which orders every write before.
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

    /// Hands out the items in batches that shrink as the list runs out (guided scheduling).
    ///
    /// A batch is an eighth of what is left per worker, at most 64 items and at least one. With
    /// batches of a fixed size (a sixteenth of the list), a worker that took the last one kept
    /// working while the others had nothing left: 62 posts of a 1 000-post build, 5 ms on one
    /// core at the end of reading, and again at the end of rendering. Now the last batches are
    /// single items.
    final class Cursor: Sendable {
        private let next = Atomic<Int>(0)
        private let count: Int
        private let divisor: Int

        init(count: Int, workers: Int) {
            self.count = count
            divisor = max(1, workers) * 8
        }

        /// The indices of the next batch; `nil` when every item is taken.
        func claim() -> Range<Int>? {
            var start = next.load(ordering: .relaxed)
            while start < count {
                let size = max(1, min(64, (count - start) / divisor))
                let (exchanged, original) = next.compareExchange(
                    expected: start, desired: start + size, ordering: .relaxed)
                if exchanged { return start..<(start + size) }
                start = original
            }
            return nil
        }
    }

    static func map<A: Sendable, B: Sendable, Result: Sendable>(
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
