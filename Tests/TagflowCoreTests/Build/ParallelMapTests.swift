import Testing

@testable import TagflowCore

@Suite struct ParallelMapTests {
    /// Results come back in input order, for lists shorter and longer than a batch, and of
    /// lengths that leave a short last batch.
    @Test(arguments: [0, 1, 2, 7, 100, 1_000, 10_007])
    func resultsAreInInputOrder(count: Int) async {
        let items = Array(0..<count)
        let results = await ParallelMap.map(items) { $0 * 3 }
        #expect(results == items.map { $0 * 3 })
    }
}

@Suite struct ParallelMapCursorTests {
    /// Batches cover every item once, in order; they never grow, hold at most 64 items, and the
    /// last ones hold one, so no worker is left with a long batch while the others wait.
    @Test(arguments: [(1, 2), (15, 2), (1_000, 2), (10_007, 2), (1_000, 8), (3, 16)])
    func batchesShrinkToSingleItems(count: Int, workers: Int) {
        let cursor = ParallelMap.Cursor(count: count, workers: workers)
        var batches: [Range<Int>] = []
        while let batch = cursor.claim() { batches.append(batch) }
        #expect(batches.first?.lowerBound == 0 && batches.last?.upperBound == count)
        #expect(zip(batches, batches.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(zip(batches, batches.dropFirst()).allSatisfy { $0.count >= $1.count })
        #expect(batches.allSatisfy { (1...64).contains($0.count) })
        // Once fewer items are left than eight per worker, each batch is one item.
        let tail = batches.filter { count - $0.lowerBound < 8 * workers }
        #expect(!tail.isEmpty && tail.allSatisfy { $0.count == 1 })
        #expect(cursor.claim() == nil)
    }
}
