import Foundation
import TagflowConcurrency
package import TagflowCore

/// What the preview server knows about the site right now, shared by the rebuild loop and every request.
///
/// ```swift
/// let state = PreviewState()
/// state.buildSucceeded()
/// state.current.buildID     // "3f9a…-1"
/// for await id in state.subscribe() { … }   // the current build ID, then every new one
/// ```
///
/// The build ID changes after every finished build, good or bad; pages carry the ID they were served with and
/// reload when the server announces another. The state stays in memory: the output folder holds only the last
/// good build, and the errors are added to pages as they are served.
package final class PreviewState: Sendable {
    /// A consistent view of the state.
    package struct Snapshot: Sendable {
        /// Identifies the latest finished build; changes after each one.
        package var buildID: String
        /// Whether the output folder holds a good build.
        package var hasOutput: Bool
        /// The diagnostics of the latest build when it failed; empty when it succeeded.
        package var failure: [Diagnostic]
        /// Whether a build is running.
        package var isBuilding: Bool
        /// How many builds have finished.
        package var generation: Int
    }

    private struct Storage {
        var snapshot: Snapshot
        var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextSubscriber = 0
        var isFinished = false
    }

    private let session: String
    private let storage: Locked<Storage>

    /// Creates the state of a server that has not built anything yet.
    package init() {
        let session = String(UUID().uuidString.prefix(8)).lowercased()
        self.session = session
        storage = Locked(
            Storage(
                snapshot: Snapshot(
                    buildID: "\(session)-0", hasOutput: false, failure: [], isBuilding: false, generation: 0)))
    }

    /// The state now.
    package var current: Snapshot { storage.withLock { $0.snapshot } }

    /// Notes that a build started.
    package func buildStarted() {
        storage.withLock { $0.snapshot.isBuilding = true }
    }

    /// Notes that a build succeeded and wrote the output folder, and tells every open page.
    package func buildSucceeded() {
        finishBuild { snapshot in
            snapshot.hasOutput = true
            snapshot.failure = []
        }
    }

    /// Notes that a build failed (the output folder keeps the last good build), and tells every open page.
    package func buildFailed(_ diagnostics: [Diagnostic]) {
        finishBuild { snapshot in
            snapshot.failure = diagnostics
        }
    }

    private func finishBuild(_ change: (inout Snapshot) -> Void) {
        storage.withLock { storage in
            change(&storage.snapshot)
            storage.snapshot.isBuilding = false
            storage.snapshot.generation += 1
            storage.snapshot.buildID = "\(session)-\(storage.snapshot.generation)"
            for continuation in storage.subscribers.values { continuation.yield(storage.snapshot.buildID) }
        }
    }

    /// Sends the current build ID again on every open stream; a page reloads only for another ID.
    ///
    /// A page that is closed says nothing: its connection is found closed only when something is
    /// written to it, so without this a stream kept its descriptor until the next rebuild, and
    /// browsing without saving ran the server out of descriptors.
    package func keepAlive() {
        storage.withLock { storage in
            for continuation in storage.subscribers.values { continuation.yield(storage.snapshot.buildID) }
        }
    }

    /// The current build ID, then each new one (and again at each ``keepAlive()``), until ``finish()``.
    package func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        let key: Int? = storage.withLock { storage in
            guard !storage.isFinished else { return nil }
            let key = storage.nextSubscriber
            storage.nextSubscriber += 1
            storage.subscribers[key] = continuation
            continuation.yield(storage.snapshot.buildID)
            return key
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.storage.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// How many event streams are open.
    package var subscriberCount: Int { storage.withLock { $0.subscribers.count } }

    /// Ends every event stream, so that open connections close and the server can stop.
    package func finish() {
        let continuations = storage.withLock { storage in
            storage.isFinished = true
            defer { storage.subscribers = [:] }
            return Array(storage.subscribers.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
