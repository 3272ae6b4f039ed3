import Dispatch
import Foundation
import Synchronization
import Testing

@testable import TagflowCore

@Suite struct ReleaseLaterTests {
    /// What a ``Tracked`` saw when it was freed.
    private final class Outcome: Sendable {
        /// Opened by the caller once `release` has returned.
        let callerReturned = DispatchSemaphore(value: 0)
        /// `nil` until the value is freed; then whether the caller had returned by then.
        let freedAfterCallerReturned = Mutex<Bool?>(nil)
    }

    /// Waits in `deinit` until the caller has returned (at most 10 s), and notes whether it had.
    private final class Tracked: Sendable {
        let outcome: Outcome

        init(_ outcome: Outcome) { self.outcome = outcome }

        deinit {
            let returned = outcome.callerReturned.wait(timeout: .now() + 10) == .success
            outcome.freedAfterCallerReturned.withLock { $0 = returned }
        }
    }

    /// The caller does not wait for the value to be freed (`SiteBuilder.build` returns without
    /// waiting for its model), and the value is freed all the same.
    ///
    /// The caller is a thread of its own, so that freeing on the caller's path blocks it (until
    /// the time-out) rather than a thread of the task pool.
    @Test func theCallerDoesNotWaitAndTheValueIsFreed() async throws {
        let outcome = Outcome()
        let caller = Thread {
            ReleaseLater.release(Tracked(outcome))
            outcome.callerReturned.signal()
        }
        caller.start()
        let deadline = ContinuousClock.now + .seconds(60)
        while outcome.freedAfterCallerReturned.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let result = outcome.freedAfterCallerReturned.withLock { $0 }
        #expect(result == true, "nil: never freed; false: freed before the caller returned")
    }
}
