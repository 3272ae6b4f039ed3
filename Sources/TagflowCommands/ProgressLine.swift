import Foundation
import TagflowCore

/// Shows how far a long build is, on standard error.
///
/// On a terminal: one line redrawn in place (`render 5123/14798 pages`); elsewhere (CI logs) a
/// plain line with the seconds since the start, `[<seconds> s] render 0/14798 pages`, each time a
/// step starts. Short builds show nothing: lines appear only after `delay` (half a second on a
/// terminal, two seconds in a log).
struct ProgressLine: Sendable {
    let progress: BuildProgress
    let isTerminal: Bool
    let delay: Duration

    init(progress: BuildProgress, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.progress = progress
        self.isTerminal = isTerminal
        self.delay = isTerminal ? .milliseconds(500) : .seconds(2)
    }

    /// Runs `body`, drawing the progress line until it returns.
    func whileRunning<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        let drawer = Task { await draw() }
        defer { drawer.cancel() }
        let result = try await body()
        drawer.cancel()
        _ = await drawer.result
        return result
    }

    private func draw() async {
        let start = ContinuousClock.now
        guard (try? await Task.sleep(for: delay)) != nil else { return }
        var lastStep = ""
        var drewLine = false
        while !Task.isCancelled {
            let (step, done, total) = progress.snapshot
            let elapsed = String(format: "%.1f", (ContinuousClock.now - start).seconds)
            if isTerminal {
                Console.standardErrorRaw(
                    "\r\u{1B}[K" + Self.text(step: step, done: done, total: total) + " (\(elapsed) s)")
                drewLine = true
            } else if step != lastStep, !step.isEmpty {
                Console.standardError("[\(elapsed) s] \(Self.text(step: step, done: done, total: total))")
            }
            lastStep = step
            guard (try? await Task.sleep(for: isTerminal ? .milliseconds(100) : .milliseconds(250))) != nil else {
                break
            }
        }
        if drewLine { Console.standardErrorRaw("\r\u{1B}[K") }
    }

    /// `render 12/40 pages`, `content`, … for a step and its counts.
    static func text(step: String, done: Int, total: Int) -> String {
        let unit = ["content": "files", "render": "pages", "write": "files"][step] ?? "items"
        return total > 0 ? "\(step) \(done)/\(total) \(unit)" : step
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
