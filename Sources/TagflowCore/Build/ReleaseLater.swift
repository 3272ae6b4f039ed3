/// Lets go of a finished build's values on a background task, so that the caller does not wait
/// while they are freed.
///
/// ```swift
/// ReleaseLater.release(consume context)
/// return report  // at once; the model is freed beside whatever the caller does next
/// ```
///
/// A 10 000-post build ends holding its whole model: posts, summaries, kept renderings, page keys.
/// Freeing them object by object took a measurable share of the build's CPU time, all of it on one
/// core after the last page was written, which `tagflow build` then waited for before it could
/// exit. Handed to a task of its own, the freeing overlaps with what the caller does next, and a
/// command that exits right away leaves it to the operating system, which takes the whole address
/// space back at once.
enum ReleaseLater {
    /// Takes `value` and drops it on a detached task.
    ///
    /// Pass the last reference (`consume` a local): a copy the caller keeps would be freed on the
    /// caller's path anyway, whichever reference goes last.
    static func release<Value: Sendable>(_ value: consuming Value) {
        let box = Box(value)
        // Not `.background`: on macOS that class is throttled, and a process that builds again
        // at once (tests, benchmarks, a library user) would hold several sites before they are freed.
        Task.detached(priority: .utility) { box.drop() }
    }

    /// Holds the value until ``drop()`` so that it is released on the task, not when the
    /// closure that captured it is destroyed (which may be on the caller's thread).
    private final class Box<Value: Sendable>: @unchecked Sendable {
        // @unchecked: `value` is written by `init` and once by `drop()`, which only the one task
        // that owns the box calls.
        private var value: Value?

        init(_ value: consuming Value) { self.value = value }

        func drop() { value = nil }
    }
}
