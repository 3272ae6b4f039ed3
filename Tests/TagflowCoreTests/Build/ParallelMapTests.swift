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
