import Benchmark
import Foundation
import TagflowChipPlugin
import TagflowCore

/// Whole builds of the 1,000-post corpus with the chips plugin, as `tagflow build` runs them:
/// `SiteBuilder.run()` (read, load, taxonomy, render into memory; nothing written), and
/// `build(to:)` into a temporary folder, which renders each page straight into the staging folder
/// and then swaps it in.
///
/// Besides whole-build pages per second, each reports its last stage alone from the build's own
/// step timings: `render` for `run()`, `render` + `write` for `build(to:)`. The writer has no public
/// entry point of its own, so the cost of writing is the difference between those two rates.
func buildBenchmarks() {
    let posts = Corpus.size
    func configuration(_ rates: [BenchmarkMetric]) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .cpuTotal, .peakMemoryResident] + rates,
            warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 5)
    }
    let output = FileManager.default.temporaryDirectory
        .appendingPathComponent("tagflow-benchmarks/output-\(ProcessInfo.processInfo.processIdentifier)")

    Benchmark(
        "Build: SiteBuilder.run() \(posts) posts (render, no write)",
        configuration: configuration([.pagesPerSecond, .renderStepPagesPerSecond])
    ) { benchmark, site in
        for _ in benchmark.scaledIterations {
            let start = ContinuousClock.now
            let context = try await SiteBuilder(siteRoot: site, plugins: [.chips]).run()
            let elapsed = ContinuousClock.now - start
            let pages = context.files.count { $0.path.hasSuffix(".html") }
            benchmark.measure(.pagesPerSecond, items: pages, in: elapsed)
            if let render = context.timings.first(where: { $0.step == "render" }) {
                benchmark.measure(.renderStepPagesPerSecond, items: pages, in: .seconds(render.seconds))
            }
            blackHole(context)
        }
    } setup: {
        try Corpus.folder(posts: posts)
    }

    Benchmark(
        "Build: SiteBuilder.build(to:) \(posts) posts (render + write)",
        configuration: configuration([.pagesPerSecond, .renderAndWriteStepsPagesPerSecond])
    ) { benchmark, site in
        for _ in benchmark.scaledIterations {
            let report = try await SiteBuilder(siteRoot: site, plugins: [.chips]).build(to: output)
            benchmark.measure(.pagesPerSecond, items: report.pageCount, in: .seconds(report.seconds))
            let steps = report.timings.filter { $0.step == "render" || $0.step == "write" }
            let seconds = steps.reduce(0) { $0 + $1.seconds }
            benchmark.measure(.renderAndWriteStepsPagesPerSecond, items: report.pageCount, in: .seconds(seconds))
            blackHole(report)
        }
    } setup: {
        try Corpus.folder(posts: posts)
    } teardown: {
        try? FileManager.default.removeItem(at: output)
    }
}
