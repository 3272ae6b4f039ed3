import Foundation
import Synchronization
import TagflowConcurrency
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

    /// On threads of its own too, results come back in input order.
    @Test(arguments: [0, 1, 2, 7, 100, 1_000, 10_007])
    func resultsOnFileThreadsAreInInputOrder(count: Int) async {
        let items = Array(0..<count)
        let results = await ParallelMap.mapWaitingOnFiles(items) { $0 * 3 }
        #expect(results == items.map { $0 * 3 })
    }

    /// When the system refuses threads (a process or container limit), the map still does all
    /// the work, in order: on the threads it got, or on the calling task's thread with none.
    @Test(arguments: [0, 1, 3])
    func refusedThreadsLeaveTheWorkToTheOthers(threadsAllowed: Int) async {
        let allowed = Atomic<Int>(threadsAllowed)
        let items = Array(0..<1_000)
        let results = await ParallelMap.mapWaitingOnFiles(
            items, threadCount: 4,
            startThread: { body in
                guard allowed.subtract(1, ordering: .relaxed).oldValue > 0 else { return false }
                return FileThreads.startThread(body)
            }
        ) { $0 * 3 }
        #expect(results == items.map { $0 * 3 })
    }

    /// A thread starts and runs its body.
    @Test func startsAThread() async {
        let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let started = FileThreads.startThread { continuation.resume(returning: true) }
            if !started { continuation.resume(returning: false) }
        }
        #expect(ran)
    }

    /// Work that waits runs on threads of its own, one per core unless asked for more.
    ///
    /// Four items that each wait until all four are in progress finish, on any machine. On the
    /// shared pool (one task per core) they would wait for each other until the timeout on a
    /// machine with fewer than four cores. Each thread is named, for `top -H` and `perf`.
    @Test func fileThreadsAreThreadsOfTheirOwn() async {
        let threadCount = 4
        #expect(ParallelMap.fileThreadCount == ParallelMap.coreCount)
        let inProgress = Atomic<Int>(0)
        let results = await ParallelMap.mapWaitingOnFiles(Array(0..<threadCount), threadCount: threadCount) {
            item -> Bool in
            #if os(Linux)
                let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
                guard name == "tagflow-files\n" else { return false }
            #endif
            inProgress.add(1, ordering: .relaxed)
            let deadline = ContinuousClock.now + .seconds(20)
            while inProgress.load(ordering: .relaxed) < threadCount {
                if ContinuousClock.now > deadline { return false }
                usleep(1_000)
            }
            return true
        }
        #expect(results == Array(repeating: true, count: threadCount))
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

    /// Taken from both ends in turn (as two workers take them), the batches still cover every
    /// item once; each end's batches are contiguous and shrink.
    @Test(arguments: [1, 2, 15, 1_000, 10_007])
    func batchesFromBothEndsCoverEveryItemOnce(count: Int) {
        let cursor = ParallelMap.Cursor(count: count, workers: 2)
        var fromStart: [Range<Int>] = []
        var fromEnd: [Range<Int>] = []
        var turn = 0
        while true {
            let isEnd = turn % 3 == 1  // uneven turns, as workers of uneven speed take them
            guard let batch = cursor.claim(fromEnd: isEnd) else { break }
            if isEnd { fromEnd.append(batch) } else { fromStart.append(batch) }
            turn += 1
        }
        let all = (fromStart + fromEnd).sorted { $0.lowerBound < $1.lowerBound }
        #expect(all.first?.lowerBound == 0 && all.last?.upperBound == count)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(zip(fromStart, fromStart.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(zip(fromEnd, fromEnd.dropFirst()).allSatisfy { $0.lowerBound == $1.upperBound })
        #expect((fromStart + fromEnd).allSatisfy { (1...64).contains($0.count) })
        #expect(cursor.claim(fromEnd: true) == nil && cursor.claim() == nil)
    }
}
