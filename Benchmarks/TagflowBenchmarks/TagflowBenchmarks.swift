import Benchmark

/// Every benchmark of the package; each library adds its own group.
let benchmarks: @Sendable () -> Void = {
    layoutBenchmarks()
    metricsBenchmarks()
}
