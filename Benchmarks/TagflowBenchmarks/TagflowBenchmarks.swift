import Benchmark

/// Every benchmark of the package, one group per stage of a build: front matter and Markdown,
/// taxonomy, chip layout and text measuring, then whole builds (render, write).
let benchmarks: @Sendable () -> Void = {
    markdownBenchmarks()
    taxonomyBenchmarks()
    layoutBenchmarks()
    metricsBenchmarks()
    buildBenchmarks()
}
