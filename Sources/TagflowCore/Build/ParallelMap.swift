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
        // About eight batches per worker, and never more than 64 items in one, so the last batch
        // to finish is short.
        let batchSize = max(1, min(64, items.count / (workerCount * 8)))
        let cursor = Cursor()
        return await withTaskGroup(of: [Batch<Result>].self) { group in
            for _ in 0..<workerCount {
                group.addTask {
                    var batches: [Batch<Result>] = []
                    while true {
                        let start = cursor.claim(batchSize)
                        guard start < items.count else { break }
                        let end = min(items.count, start + batchSize)
                        batches.append(Batch(start: start, results: items[start..<end].map(transform)))
                    }
                    return batches
                }
            }
            var batches: [Batch<Result>] = []
            for await done in group { batches += done }
            batches.sort { $0.start < $1.start }
            return batches.flatMap(\.results)
        }
    }

    /// Results of the items from `start` on.
    private struct Batch<Result: Sendable>: Sendable {
        let start: Int
        let results: [Result]
    }

    /// The index of the next item no task has taken.
    private final class Cursor: Sendable {
        private let next = Atomic<Int>(0)

        /// Takes `count` items; returns the first one's index (past the end when none are left).
        func claim(_ count: Int) -> Int { next.wrappingAdd(count, ordering: .relaxed).oldValue }
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
