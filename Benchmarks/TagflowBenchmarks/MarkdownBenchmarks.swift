import Benchmark
import TagflowMarkdown

/// The Markdown stage: front matter (splitting a post file, reading its YAML) and rendering post
/// bodies with cmark-gfm, over the first 100 posts of the shared corpus (about 650 KB).
///
/// Each iteration handles all 100 posts, so per post mallocs are the malloc column ÷ 100.
func markdownBenchmarks() {
    let metrics: [BenchmarkMetric] = [
        .wallClock, .throughput, .instructions, .mallocCountTotal, .postsPerSecond,
    ]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(3))
    let postCount = 100

    Benchmark("Front matter: split \(postCount) posts", configuration: configuration) { benchmark, texts in
        try benchmark.measure(.postsPerSecond, itemsPerIteration: texts.count) {
            for text in texts { blackHole(try FrontMatterSplit(splitting: text)) }
        }
    } setup: {
        try Corpus.postTexts(postCount)
    }

    Benchmark("Front matter: split and read YAML of \(postCount) posts", configuration: configuration) {
        benchmark, texts in
        try benchmark.measure(.postsPerSecond, itemsPerIteration: texts.count) {
            for text in texts {
                let split = try FrontMatterSplit(splitting: text)
                guard let yaml = split.frontMatter else { continue }
                blackHole(try YAMLReader.mapping(from: yaml, firstLine: split.frontMatterFirstLine))
            }
        }
    } setup: {
        try Corpus.postTexts(postCount)
    }

    Benchmark("Markdown: render \(postCount) post bodies", configuration: configuration) { benchmark, bodies in
        let renderer = MarkdownRenderer(options: MarkdownOptions(embedLanguages: ["chips"]))
        benchmark.measure(.postsPerSecond, itemsPerIteration: bodies.count) {
            for body in bodies { blackHole(renderer.render(body.text, firstLine: body.firstLine)) }
        }
    } setup: {
        try postBodies(postCount)
    }
}

/// The bodies of the first `count` corpus posts, each with the file line it starts on.
private func postBodies(_ count: Int) throws -> [(text: String, firstLine: Int)] {
    try Corpus.postTexts(count).map { text in
        let split = try FrontMatterSplit(splitting: text)
        return (split.body, split.bodyFirstLine)
    }
}
