import TagflowConcurrency
import Testing

@testable import TagflowCore

/// The one lock type (``Locked``) and the file threads' completion (``FileThreads``).
@Suite struct LockedTests {
    /// Increments from many tasks at once are all counted: each runs under the lock.
    @Test func incrementsFromManyTasksAreAllCounted() async {
        let counter = Locked(0)
        _ = await ParallelMap.map(Array(0..<10_000)) { _ in counter.withLock { $0 += 1 } }
        #expect(counter.withLock { $0 } == 10_000)
    }

    /// An error thrown inside the lock reaches the caller, and the lock is free again.
    @Test func anErrorLeavesTheLockFree() {
        struct Refused: Error {}
        let names = Locked<[String]>([])
        #expect(throws: Refused.self) {
            try names.withLock { (names: inout [String]) throws(Refused) in
                names.append("kept")
                throw Refused()
            }
        }
        #expect(names.withLock { $0 } == ["kept"])
    }

    /// Waiting for file threads resumes once every started thread has ended; threads the system
    /// refused are not waited for.
    @Test func waitingEndsWhenEveryStartedThreadHasEnded() async {
        let done = Locked<Set<Int>>([])
        let offered = Locked(0)
        let threads = FileThreads.start(
            4, named: "tagflow-test",
            startThread: { body in
                let offer = offered.withLock { count in
                    count += 1
                    return count
                }
                // The third thread is refused.
                return offer != 3 && FileThreads.startThread(body)
            }
        ) { worker in done.withLock { _ = $0.insert(worker) } }
        await threads.wait()
        #expect(threads.count == 3)
        #expect(done.withLock { $0 } == [0, 1, 3])
    }
}
