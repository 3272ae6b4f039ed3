import Synchronization
import TagflowConcurrency

/// How far a build is.
///
/// The step it is in and, for the steps that go item by item (content files, pages, written
/// files), how many items are done. Read it from another task to draw a progress
/// line; the build only counts.
public final class BuildProgress: Sendable {
    private let state = Locked<(step: String, total: Int)>(("", 0))
    private let done = Atomic<Int>(0)

    /// Creates a tracker for one build.
    public init() {}

    /// The current step, how many of its items are done, and how many there are (0: not counted).
    public var snapshot: (step: String, done: Int, total: Int) {
        let (step, total) = state.withLock { $0 }
        return (step, done.load(ordering: .relaxed), total)
    }

    /// Starts a step of `total` items.
    func begin(_ step: String, total: Int = 0) {
        state.withLock { $0 = (step, total) }
        done.store(0, ordering: .relaxed)
    }

    /// Counts the items of the current step as they finish (from any task).
    func advance(by count: Int = 1) {
        done.add(count, ordering: .relaxed)
    }

    /// Sets the item count of the current step, once it is known.
    func setTotal(_ total: Int) {
        state.withLock { $0.total = total }
    }
}
