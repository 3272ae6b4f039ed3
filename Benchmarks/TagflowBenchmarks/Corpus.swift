import Benchmark
import Foundation

/// The benchmark corpus (`Benchmarks/Corpus/gen_corpus.py`, a copy of the shared generator),
/// generated once per size, seed and generator version into the temporary folder and reused by
/// later processes.
///
/// The generator is found through `TAGFLOW_BENCH_DIR` (the folder holding `gen_corpus.py`), or
/// else in `Benchmarks/Corpus`, as `scripts/bench.py` finds it.
enum Corpus {
    /// The seed every suite uses, as `scripts/bench.py` does.
    static let seed = 42

    /// Why a corpus could not be made.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A corpus folder (`posts/*.md`, `site.yml`) with `posts` posts from the fixed seed.
    ///
    /// - Throws: ``Failure`` when the generator is missing or fails.
    static func folder(posts: Int) throws -> URL {
        let generator = try generatorScript()
        let bytes = try Data(contentsOf: generator)
        // The generator's own bytes are in the name, so an edited generator gets a fresh corpus.
        let version = String(fnv1a(bytes), radix: 16)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-benchmarks")
        let folder = base.appendingPathComponent("corpus-\(posts)-seed-\(seed)-\(version)")
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json").path) {
            return folder
        }
        // Written beside the final name, then renamed, so a half-written corpus is never reused.
        let partial = base.appendingPathComponent(".partial-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, partial.path, "--posts", "\(posts)", "--seed", "\(seed)"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(generator.path) exited with status \(process.terminationStatus)")
        }
        do {
            try FileManager.default.moveItem(at: partial, to: folder)
        } catch {
            // Another process got there first; its corpus is byte-identical.
            try? FileManager.default.removeItem(at: partial)
        }
        return folder
    }

    /// The number of posts in the corpus that every suite reads from.
    static let size = 1_000

    /// The text of the first `count` posts of the corpus, in file name order.
    static func postTexts(_ count: Int = size) throws -> [String] {
        precondition(count <= size, "the corpus has \(size) posts")
        let posts = try folder(posts: size).appendingPathComponent("posts")
        let names = try FileManager.default.contentsOfDirectory(atPath: posts.path).filter { $0.hasSuffix(".md") }
        return try names.sorted().prefix(count).map { name in
            try String(contentsOf: posts.appendingPathComponent(name), encoding: .utf8)
        }
    }

    private static func generatorScript() throws -> URL {
        let folder: URL
        if let configured = ProcessInfo.processInfo.environment["TAGFLOW_BENCH_DIR"] {
            folder = URL(fileURLWithPath: configured)
        } else {
            // Benchmarks/TagflowBenchmarks/Corpus.swift → Benchmarks/Corpus/.
            folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Corpus")
        }
        let script = folder.appendingPathComponent("gen_corpus.py").standardizedFileURL
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw Failure(
                description: """
                    the corpus generator \(script.path) is missing; set TAGFLOW_BENCH_DIR to the folder that \
                    holds gen_corpus.py (normally Benchmarks/Corpus in the repository)
                    """)
        }
        return script
    }

    private static func fnv1a(_ bytes: Data) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}

extension BenchmarkMetric {
    /// Posts per second over one run of a benchmark's closure.
    static let postsPerSecond = rate("Posts (# / s)")
    /// Output pages (`.html` files) per second over a whole `SiteBuilder.run()` or build.
    static let pagesPerSecond = rate("Pages (# / s)")
    /// Output pages per second in the build's `render` step alone.
    static let renderStepPagesPerSecond = rate("Render step pages (# / s)")
    /// Output pages per second in the `render` and `write` steps of `build(to:)`, which renders
    /// each page straight into the staging folder.
    static let renderAndWriteStepsPagesPerSecond = rate("Render + write steps pages (# / s)")
    /// Tag uses (one tag on one post) per second.
    static let tagUsesPerSecond = rate("Tag uses (# / s)")

    /// A throughput metric that the benchmark computes itself, so the scaling factor does not apply.
    private static func rate(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersLarger, useScalingFactor: false)
    }
}

extension Benchmark {
    /// Records `items` done in `duration` as a rate, per second, in `metric`.
    func measure(_ metric: BenchmarkMetric, items: Int, in duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        guard seconds > 0 else { return }
        measurement(metric, Int((Double(items) / seconds).rounded()))
    }

    /// Runs `body` over the scaled iterations and records `items` per iteration as a rate in `metric`.
    func measure(_ metric: BenchmarkMetric, itemsPerIteration items: Int, _ body: () throws -> Void) rethrows {
        let start = ContinuousClock.now
        for _ in scaledIterations { try body() }
        measure(metric, items: items * scaledIterations.count, in: ContinuousClock.now - start)
    }
}
