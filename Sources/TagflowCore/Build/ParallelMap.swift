import Foundation

/// Maps work over a list on all cores: at most one task per core, each taking a contiguous
/// chunk, with results in input order (so output never depends on scheduling).
enum ParallelMap {
    static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    static func map<Element: Sendable, Result: Sendable>(
        _ items: [Element], _ transform: @escaping @Sendable (Element) -> Result
    ) async -> [Result] {
        let chunkCount = min(coreCount, items.count)
        guard chunkCount > 1 else { return items.map(transform) }
        let chunkSize = (items.count + chunkCount - 1) / chunkCount
        return await withTaskGroup(of: (Int, [Result]).self) { group in
            for chunk in 0..<chunkCount {
                let range = (chunk * chunkSize)..<min(items.count, (chunk + 1) * chunkSize)
                guard !range.isEmpty else { continue }
                let slice = Array(items[range])
                group.addTask { (chunk, slice.map(transform)) }
            }
            var parts = [[Result]](repeating: [], count: chunkCount)
            for await (index, part) in group { parts[index] = part }
            return parts.flatMap { $0 }
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
