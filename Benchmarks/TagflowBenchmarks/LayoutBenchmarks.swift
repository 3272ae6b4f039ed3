import Benchmark
import TagflowLayout

/// Chip-like sizes from a fixed seed: widths 30 to 160 px in 1/64 px steps, 28 px tall.
func chipSizes(_ count: Int, seed: UInt64 = 0x7A6F_1057) -> [LayoutSize] {
    var state = seed
    return (0..<count).map { _ in
        // SplitMix64: deterministic and fast, no Foundation.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return LayoutSize(width: LayoutUnit(rawValue: 1_920 + Int(z % 8_320)), height: LayoutUnit(pixels: 28))
    }
}

/// Flow layout benchmarks: the direct entry point at 10 to 1,000,000 items (start aligned, the
/// throughput target), the costlier options, the "+N more" re-layout and the SwiftUI-shaped API.
///
/// Items per second = items × the throughput column (layouts per second).
func layoutBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .instructions, .mallocCountTotal, .cpuTotal]
    let width = LayoutUnit(pixels: 640)
    let flow = FlowLayout(spacing: LayoutUnit(pixels: 8))

    for (count, scaling) in [(10, BenchmarkScalingFactor.mega), (100, .kilo), (10_000, .one), (1_000_000, .one)] {
        Benchmark(
            "FlowLayout start \(count) items",
            configuration: .init(metrics: metrics, scalingFactor: scaling, maxDuration: .seconds(2))
        ) { benchmark, sizes in
            for _ in benchmark.scaledIterations {
                blackHole(flow.layout(sizes: sizes, in: width))
            }
        } setup: {
            chipSizes(count)
        }
    }

    Benchmark(
        "FlowLayout space-evenly baseline rtl 10000 items",
        configuration: .init(metrics: metrics, maxDuration: .seconds(2))
    ) { benchmark, items in
        let fancy = FlowLayout(
            spacing: LayoutUnit(pixels: 8),
            justification: .spaceEvenly,
            alignment: .firstBaseline,
            direction: .rightToLeft
        )
        for _ in benchmark.scaledIterations {
            blackHole(fancy.layout(items, in: width))
        }
    } setup: {
        chipSizes(10_000).map { FlowItem(size: $0, firstBaseline: LayoutUnit(rawValue: 1_216)) }
    }

    Benchmark(
        "FlowLayout 500 chips, 3 lines, +N more",
        configuration: .init(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(2))
    ) { benchmark, items in
        let limited = flow.withLineLimit(3)
        for _ in benchmark.scaledIterations {
            blackHole(
                limited.layout(items, in: width) { hidden in
                    FlowItem(
                        size: LayoutSize(
                            width: LayoutUnit(pixels: 30 + 8 * String(hidden).count), height: LayoutUnit(pixels: 28)))
                }
            )
        }
    } setup: {
        chipSizes(500).map { FlowItem(size: $0) }
    }

    Benchmark(
        "Layout protocol place 10000 subviews",
        configuration: .init(metrics: metrics, maxDuration: .seconds(2))
    ) { benchmark, subviews in
        let proposal = ProposedSize(width: width, height: nil)
        for _ in benchmark.scaledIterations {
            blackHole(flow.place(subviews, proposal: proposal))
        }
    } setup: {
        chipSizes(10_000).map { FixedSizeSubview($0) }
    }
}
