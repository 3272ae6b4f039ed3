/// One tag of the site: its identity, how it is shown, its URL segment and its posts.
public struct TagInfo: Sendable, Hashable {
    /// The identity.
    public var key: TagKey
    /// The spelling most posts use (ties: the spelling of the earliest post).
    public var name: String
    /// The URL segment (`/tags/<slug>/`), unique in the site.
    public var slug: Slug
    /// Indices into ``Site/posts`` of the posts with this tag, newest first.
    public var postIndices: [Int]

    /// How many published posts have this tag.
    public var count: Int { postIndices.count }
}

/// Every tag of a site, built from its posts.
public struct Taxonomy: Sendable, Hashable {
    /// The tags, sorted by identity.
    public var tags: [TagInfo]
    /// Where each tag is in ``tags``.
    public var indexByKey: [TagKey: Int]

    /// The tag with this identity.
    public subscript(key: TagKey) -> TagInfo? { indexByKey[key].map { tags[$0] } }

    /// Builds the taxonomy of posts sorted newest first.
    ///
    /// - Returns: The taxonomy and a warning for each pair of tags whose slugs collided (the later
    ///   tag, by identity, gets a `-2`, `-3`… suffix).
    /// - Complexity: O(*t* log *t*) for *t* tag uses.
    public static func build(posts: [Post]) -> (Taxonomy, [Diagnostic]) {
        struct Usage {
            var spellings: [String: (count: Int, firstSeen: Int)] = [:]
            var posts: [Int] = []
            /// Where the earliest post lists the tag.
            var firstLocation: SourceLocation?
        }
        var usages: [TagKey: Usage] = [:]
        // Walk oldest to newest, so "first seen" means earliest in date order.
        for postIndex in posts.indices.reversed() {
            for (spelling, key) in zip(posts[postIndex].tags, posts[postIndex].tagKeys) {
                let order = posts.count - 1 - postIndex
                let location = posts[postIndex].tagsLocation ?? SourceLocation(path: posts[postIndex].sourcePath)
                // Changed in place: a copy out and back would copy the tag's post list each time.
                record(&usages[key, default: Usage()])
                func record(_ usage: inout Usage) {
                    let known = usage.spellings[spelling]
                    usage.spellings[spelling] = ((known?.count ?? 0) + 1, known?.firstSeen ?? order)
                    usage.posts.append(postIndex)
                    if usage.firstLocation == nil { usage.firstLocation = location }
                }
            }
        }
        var diagnostics: [Diagnostic] = []
        var tags: [TagInfo] = []
        var usedSlugs: [Slug: TagKey] = [:]
        for key in usages.keys.sorted() {
            guard let usage = usages[key] else { continue }
            let name =
                usage.spellings.min { lhs, rhs in
                    lhs.value.count != rhs.value.count
                        ? lhs.value.count > rhs.value.count : lhs.value.firstSeen < rhs.value.firstSeen
                }?.key ?? key.rawValue
            let base = Slug(from: name)
            var slug = base
            var suffix = 2
            while let owner = usedSlugs[slug] {
                if suffix == 2 {
                    diagnostics.append(
                        Diagnostic(
                            .warning,
                            TagflowError(
                                location: usage.firstLocation, step: "taxonomy",
                                message: "tags '\(owner.rawValue)' and '\(key.rawValue)' would share /tags/\(base)/; "
                                    + "'\(key.rawValue)' uses a numbered URL instead",
                                hint: "rename one of the tags if you want a clean URL for both")))
                }
                slug = Slug(rawValue: "\(base.rawValue)-\(suffix)")
                suffix += 1
            }
            usedSlugs[slug] = key
            tags.append(TagInfo(key: key, name: name, slug: slug, postIndices: usage.posts.sorted()))
        }
        var index: [TagKey: Int] = [:]
        for (position, tag) in tags.enumerated() { index[tag.key] = position }
        return (Taxonomy(tags: tags, indexByKey: index), diagnostics)
    }
}
