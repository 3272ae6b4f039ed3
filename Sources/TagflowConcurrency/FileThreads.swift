internal import CTagflowThreads
import Dispatch

/// Threads of their own for work that waits on the file system (writing pages, making folders,
/// asking the kernel to read ahead), beside the shared pool that does the CPU work.
///
/// ```swift
/// let threads = FileThreads.start(4, named: "tagflow-files") { worker in write(share: worker) }
/// await threads.wait()   // suspends the task; no thread is blocked
/// ```
///
/// A thread that waits for the disk blocks: on the cooperative pool, whose threads are one per
/// core, that core would then stand idle, so blocking work gets threads of its own. Each is named
/// (for `top -H`, `perf` and debuggers), and their end is awaited, not waited for: the last one
/// resumes the waiting task through a dispatch group, which ThreadSanitizer follows.
package enum FileThreads {
    /// Threads started by ``start(_:named:startThread:_:)``.
    package final class Running: Sendable {
        private let group: DispatchGroup
        /// How many threads the system gave.
        package let count: Int

        fileprivate init(group: DispatchGroup, count: Int) {
            self.group = group
            self.count = count
        }

        /// Suspends until every thread has ended.
        package func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                group.notify(queue: .global()) { continuation.resume() }
            }
        }
    }

    /// Starts `count` threads, each running `body` with its number (0 up to `count`).
    ///
    /// A thread the system refuses (a process or container limit on threads) is left out, and
    /// its number never runs: ``Running/count`` says how many did start.
    ///
    /// - Parameters:
    ///   - count: How many threads.
    ///   - name: Their name (at most 15 bytes on Linux).
    ///   - startThread: Starts a thread, or says it could not (tests replace it).
    ///   - body: The work of one thread.
    /// - Returns: The threads, to ``Running/wait()`` for.
    package static func start(
        _ count: Int, named name: String, startThread: (@escaping @Sendable () -> Void) -> Bool = startThread,
        _ body: @escaping @Sendable (Int) -> Void
    ) -> Running {
        let group = DispatchGroup()
        var started = 0
        for worker in 0..<count {
            group.enter()
            let didStart = startThread {
                _ = tagflow_name_current_thread(name)
                body(worker)
                group.leave()
            }
            if didStart { started += 1 } else { group.leave() }
        }
        return Running(group: group, count: started)
    }

    /// Runs `body` on a new thread with the system's default stack; `false` (and `body` never
    /// runs) when the system refuses one.
    ///
    /// Not Foundation's `Thread`: its `start()` cannot say that the thread could not be made, and
    /// a task waiting for that thread would wait forever.
    package static func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        let result = tagflow_start_thread(
            { context in
                guard let context else { return }
                Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
            }, box)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            return false
        }
        return true
    }

    private final class ThreadBody: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
