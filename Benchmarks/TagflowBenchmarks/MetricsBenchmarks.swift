import Benchmark
import Foundation
import TagflowMetrics

/// Labels for the measuring benchmarks: English tags (kerning, the `kern` table, ligature
/// candidates) and a mixed-script set, generated from a fixed seed.
enum MetricsBenchmarkInput {
    static let words = [
        "swift", "Rust", "AVATAR", "Typography", "office", "workflow", "C++", "C#", ".NET", "Node.js",
        "kubernetes", "WAVY", "Tokyo", "Yacht", "async/await", "machine learning", "To be", "fluffy",
        "LLVM", "WebAssembly", "AV", "Victory", "Waltz", "12:30", "3x4", "profiling", "Concurrency",
    ]
    static let mixed = [
        "naïve café", "Привет мир", "Αθήνα", "漢字 日本語", "カタカナ", "한국어", "👍🏽 thumbs", "🇯🇵 Japan",
        "e\u{301}te\u{301}", "ゲーム·Жук", "👨‍👩‍👧‍👦 family",
    ]
    /// Arabic (joining, lam-alef, marks), Persian with ZWNJ, Hebrew, mixed directions with numbers,
    /// CJK punctuation that is trimmed, and emoji sequences.
    static let scripts = [
        "برمجة", "الذكاء الاصطناعي", "مَرْحَبًا", "لغة عربية", "کتاب\u{200C}ها", "שלום עולם", "C++ עם Swift",
        "גרסה 2.0", "تحديث 1.4.2", "「はい。」", "（上）、（下）", "🧑🏻‍💻 کد", "🇮🇱 ישראל",
    ]
    /// DejaVu Sans with Noto Sans CJK and Noto Color Emoji, when Debian's font packages are installed.
    static func systemStack() -> FontStack? {
        let paths = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        ]
        var tables: [MetricsTable] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path),
                let table = try? MetricsTable(fontFile: Array(data))
            else { return nil }
            tables.append(table)
        }
        return FontStack(tables)
    }

    /// `count` labels of one to three words.
    static func labels(_ count: Int, from pool: [String], seed: UInt64) -> [String] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in
            (0...(next() % 3)).map { _ in pool[next() % pool.count] }.joined(separator: " ")
        }
    }
}

/// Benchmarks of TagflowMetrics: measuring throughput (characters per second, reported as
/// throughput per 1 000 characters) with kerning and ligatures, and table load time.
func metricsBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .instructions, .mallocCountTotal], scalingFactor: .kilo)

    let english = MetricsBenchmarkInput.labels(1000, from: MetricsBenchmarkInput.words, seed: 1)
    let englishCharacters = english.reduce(0) { $0 + $1.count }
    Benchmark(
        "Metrics: measure English tags (\(englishCharacters) chars per iteration)", configuration: configuration
    ) { benchmark in
        let stack = FontStack.default
        for _ in benchmark.scaledIterations {
            for label in english { blackHole(stack.measure(label, size: 13)) }
        }
    }

    let mixed = MetricsBenchmarkInput.labels(1000, from: MetricsBenchmarkInput.mixed, seed: 2)
    let mixedCharacters = mixed.reduce(0) { $0 + $1.count }
    Benchmark(
        "Metrics: measure mixed-script labels (\(mixedCharacters) chars per iteration)", configuration: configuration
    ) { benchmark in
        let stack = FontStack.default
        for _ in benchmark.scaledIterations {
            for label in mixed { blackHole(stack.measure(label, size: 13, letterSpacing: 0.5)) }
        }
    }

    // Right-to-left, joined and trimmed text needs real fonts: registered only where they are installed.
    if let stack = MetricsBenchmarkInput.systemStack() {
        let scripts = MetricsBenchmarkInput.labels(1000, from: MetricsBenchmarkInput.scripts, seed: 3)
        let scriptCharacters = scripts.reduce(0) { $0 + $1.count }
        Benchmark(
            "Metrics: measure Arabic, Hebrew, CJK-punctuation and emoji labels (\(scriptCharacters) chars per iteration)",
            configuration: configuration
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                for label in scripts { blackHole(stack.measure(label, size: 16)) }
            }
        }
    }

    let table = MetricsTable.liberationSans.encoded()
    Benchmark(
        "Metrics: load the Liberation Sans table (\(table.count) bytes)",
        configuration: .init(metrics: [.wallClock, .instructions, .mallocCountTotal])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try MetricsTable(contentsOf: table))
        }
    }
}
