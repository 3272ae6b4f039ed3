import Benchmark
import Foundation
import TagflowCore
import TagflowMarkdown

/// 10,000 posts with the corpus's tags: the front matter of the 1,000 corpus posts, ten times over
/// (each copy ten years older, with its own slugs), and empty bodies, which the taxonomy never reads.
enum TaxonomyInput {
    static func posts(copies: Int = 10) throws -> [Post] {
        let originals = try Corpus.postTexts().map(post(from:))
        let tenYears: Int64 = 3_652 * 86_400
        return (0..<copies).flatMap { copy in
            originals.map { original in
                guard copy > 0 else { return original }
                var post = original
                post.date = ContentDate(secondsSince1970: original.date.secondsSince1970 - Int64(copy) * tenYears)
                post.slug = Slug(rawValue: "\(original.slug.rawValue)-\(copy)")
                return post
            }
        }
    }

    /// The posts, newest first when `sorted` (as `Taxonomy.build` wants them), and how many
    /// (post, tag) pairs they have.
    static func postsAndTagUses(sorted: Bool) throws -> (posts: [Post], tagUses: Int) {
        var posts = try posts()
        if sorted {
            posts.sort { lhs, rhs in lhs.date != rhs.date ? lhs.date > rhs.date : lhs.slug < rhs.slug }
        }
        return (posts, posts.reduce(0) { $0 + $1.tags.count })
    }

    private static func post(from text: String) throws -> Post {
        let split = try FrontMatterSplit(splitting: text)
        let yaml = try YAMLReader.mapping(from: split.frontMatter ?? "", firstLine: split.frontMatterFirstLine)
        guard case .string(let title) = yaml["title"], case .string(let dateText) = yaml["date"],
            let date = ContentDate.parse(dateText, timeZone: TimeZone(identifier: "UTC") ?? .current),
            case .string(let slug) = yaml["slug"], case .list(let tagValues) = yaml["tags"]
        else {
            throw Corpus.Failure(description: "unexpected corpus front matter:\n\(split.frontMatter ?? "")")
        }
        return Post(
            sourcePath: "posts/\(slug).md", title: title, date: date, updated: nil, slug: Slug(rawValue: slug),
            tags: tagValues.compactMap(\.scalarText), isDraft: yaml["draft"] == .bool(true), summary: "",
            description: yaml["description"]?.scalarText ?? "", template: nil, params: YAMLMapping(),
            body: ContentBody(RenderedMarkdown(html: "")))
    }
}

/// The taxonomy stage over 10,000 posts (about 480 distinct tags, long-tailed): `Taxonomy.build`
/// on posts already sorted newest first, and `Site.assemble`, which sorts them first.
func taxonomyBenchmarks() {
    let metrics: [BenchmarkMetric] = [
        .wallClock, .throughput, .instructions, .mallocCountTotal, .postsPerSecond, .tagUsesPerSecond,
    ]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(3))

    Benchmark("Taxonomy: build over 10000 sorted posts", configuration: configuration) { benchmark, input in
        let (posts, tagUses) = input
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations { blackHole(Taxonomy.build(posts: posts)) }
        let elapsed = ContinuousClock.now - start
        let runs = benchmark.scaledIterations.count
        benchmark.measure(.postsPerSecond, items: posts.count * runs, in: elapsed)
        benchmark.measure(.tagUsesPerSecond, items: tagUses * runs, in: elapsed)
    } setup: {
        try TaxonomyInput.postsAndTagUses(sorted: true)
    }

    Benchmark("Taxonomy: Site.assemble 10000 posts (sort + build)", configuration: configuration) {
        benchmark, input in
        let (posts, tagUses) = input
        let config = SiteConfig()
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations { blackHole(Site.assemble(config: config, posts: posts, pages: [])) }
        let elapsed = ContinuousClock.now - start
        let runs = benchmark.scaledIterations.count
        benchmark.measure(.postsPerSecond, items: posts.count * runs, in: elapsed)
        benchmark.measure(.tagUsesPerSecond, items: tagUses * runs, in: elapsed)
    } setup: {
        try TaxonomyInput.postsAndTagUses(sorted: false)
    }
}
