/// The series a post belongs to (`series:`), and its place in it (`series_part:`).
package struct PostSeries: Sendable, Hashable {
    /// The series' name as the post writes it.
    package var name: String
    /// Its identity: names that differ only in case and spacing are one series (as tags).
    package var key: TagKey
    /// The post's part number, when it gives one.
    package var part: Int?
    /// Where `series_part:` (or else `series:`) is written, for messages.
    package var location: SourceLocation

    package init(name: String, part: Int?, location: SourceLocation) {
        self.name = name
        key = TagKey(name)
        self.part = part
        self.location = location
    }

    /// The highest part number a post may give.
    static let maximumPart = 10_000
}

/// Every series of a site: its posts in order, its address, and where each post stands.
struct SeriesIndex: Sendable {
    /// Each series' name (its most used spelling), its URL segment (`/series/<slug>/`) and its post
    /// indices in the series' order; oldest series first.
    private(set) var series: [(name: String, slug: Slug, posts: [Int])] = []
    /// Post index → its series and its position in it.
    private(set) var membership: [Int: (series: Int, position: Int)] = [:]

    /// The series of `posts`, each in part order when every post of it gives a part, else oldest
    /// first (`posts` are newest first).
    init(posts: [Post]) {
        var groups: [TagKey: Int] = [:]
        for index in posts.indices.reversed() {
            guard let series = posts[index].series else { continue }
            if let group = groups[series.key] {
                self.series[group].posts.append(index)
            } else {
                groups[series.key] = self.series.count
                self.series.append((series.name, Slug(rawValue: ""), [index]))
            }
        }
        for group in self.series.indices {
            let members = self.series[group].posts
            // Shown with its most used spelling (the oldest post's on a tie), as tags are.
            var spellings: [String: Int] = [:]
            for member in members { spellings[posts[member].series?.name ?? "", default: 0] += 1 }
            if let most = spellings.values.max(),
                let name = members.lazy.compactMap({ posts[$0].series?.name }).first(where: { spellings[$0] == most })
            {
                self.series[group].name = name
            }
            let parts = members.compactMap { posts[$0].series?.part }
            if parts.count == members.count {
                self.series[group].posts.sort { posts[$0].series?.part ?? 0 < posts[$1].series?.part ?? 0 }
            }
            for (position, post) in self.series[group].posts.enumerated() {
                membership[post] = (group, position)
            }
        }
        let slugs = Self.slugs(of: Array(groups.keys))
        for (key, group) in groups { self.series[group].slug = slugs[key]?.slug ?? Slug(from: key.rawValue) }
    }

    /// Each series' URL segment: the slug of its identity, given in identity order, with a `-2`,
    /// `-3`… suffix (and the series that took it first) where an earlier series took it.
    ///
    /// By identity rather than by post order, so that ``problems(posts:)`` names the same series
    /// from the loaded posts, drafts and all.
    private static func slugs(of keys: [TagKey]) -> [TagKey: (slug: Slug, takenBy: TagKey?)] {
        var owners: [Slug: TagKey] = [:]
        var slugs: [TagKey: (slug: Slug, takenBy: TagKey?)] = [:]
        for key in keys.sorted() {
            let base = Slug(from: key.rawValue)
            let slug = base.numbered { owners[$0] != nil }
            slugs[key] = (slug, slug == base ? nil : owners[base])
            owners[slug] = key
        }
        return slugs
    }

    /// What is wrong with the series of `posts`: two posts claiming one part (an error at the
    /// second's line), a series where only some posts give parts (a warning: it is in date
    /// order), and two series whose names make one URL (a warning: the later by identity is
    /// numbered).
    static func problems(posts: [Post]) -> [Diagnostic] {
        var claimed: [TagKey: [Int: String]] = [:]
        var firstNamed: [TagKey: PostSeries] = [:]
        var unnumbered: [TagKey: [String]] = [:]
        var numbered: Set<TagKey> = []
        var problems: [Diagnostic] = []
        for post in posts.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            guard let series = post.series else { continue }
            if firstNamed[series.key] == nil { firstNamed[series.key] = series }
            guard let part = series.part else {
                unnumbered[series.key, default: []].append(post.sourcePath)
                continue
            }
            numbered.insert(series.key)
            if let first = claimed[series.key]?[part] {
                problems.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: series.location, step: "content",
                            message: "part \(part) of the series '\(series.name)' is also \(first)",
                            hint: "give each post of a series its own `series_part:`")))
            } else {
                claimed[series.key, default: [:]][part] = post.sourcePath
            }
        }
        for key in numbered.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let missing = unnumbered[key] else { continue }
            let post = posts.first { $0.sourcePath == missing[0] }
            problems.append(
                Diagnostic(
                    .warning,
                    TagflowError(
                        location: post?.series?.location ?? SourceLocation(path: missing[0]), step: "content",
                        message:
                            "\(missing.count == 1 ? "this post has" : "\(missing.count) posts have") no `series_part:` where others of its series do; the series is in date order",
                        hint: "give every post of the series a part, or none")))
        }
        for (key, slug) in slugs(of: Array(firstNamed.keys)).sorted(by: { $0.key < $1.key }) {
            guard let owner = slug.takenBy, let series = firstNamed[key] else { continue }
            let base = Slug(from: key.rawValue)
            problems.append(
                Diagnostic(
                    .warning,
                    TagflowError(
                        location: series.location, step: "content",
                        message:
                            "the series '\(firstNamed[owner]?.name ?? owner.rawValue)' and '\(series.name)' would share \(Routes.series(base)); '\(series.name)' uses \(Routes.series(slug.slug)) instead",
                        hint: "rename one of the series if you want a clean URL for both")))
        }
        return problems
    }
}
