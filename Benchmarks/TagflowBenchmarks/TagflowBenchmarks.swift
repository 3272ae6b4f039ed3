import Benchmark

/// Every benchmark of the package, one group per stage of a build: front matter and Markdown,
/// taxonomy, chip layout and text measuring, then whole builds (render, write).
///
/// Allocation counts are what CI checks (`scripts/bench-thresholds.sh check`, against
/// `Benchmarks/Thresholds`): unlike times, they are the same on a busy machine as on a quiet one.
/// A benchmark whose count grows by more than the tolerance here fails the check.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.thresholds = [.mallocCountTotal: .init(relative: [.p90: 5.0])]
    markdownBenchmarks()
    taxonomyBenchmarks()
    layoutBenchmarks()
    metricsBenchmarks()
    buildBenchmarks()
}
