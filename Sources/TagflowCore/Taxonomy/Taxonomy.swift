/// One tag of the site: its identity, how it is shown, its URL segment and its posts.
package struct TagInfo: Sendable, Hashable {
    /// The identity.
    package var key: TagKey
    /// The spelling most posts use (ties: the spelling of the earliest post).
    package var name: String
    /// The URL segment (`/tags/<slug>/`), unique in the site.
    package var slug: Slug
    /// Indices into ``Site/posts`` of the posts with this tag, newest first; with
    /// `tags.hierarchy`, also those of the tags under it.
    package var postIndices: [Int]
    /// Where the tag it is under is in ``Taxonomy/tags`` (`lang` for `lang/swift`), with
    /// `tags.hierarchy`.
    package var parent: Int? = nil

    /// How many published posts have this tag.
    package var count: Int { postIndices.count }
}

/// Every tag of a site, built from its posts.
package struct Taxonomy: Sendable, Hashable {
    /// The tags, sorted by identity.
    package var tags: [TagInfo]
    /// Where each tag is in ``tags``.
    package var indexByKey: [TagKey: Int]
    /// Each tag's slug before a suffix made it unique.
    ///
    /// ``retagged(posts:previousTagKeys:)`` keeps those of the tags it does not count again:
    /// making each slug again was much of its time. Made from the tags' names, so it takes no part
    /// in equality.
    var baseSlugs: [Slug] = []

    package static func == (lhs: Taxonomy, rhs: Taxonomy) -> Bool {
        lhs.tags == rhs.tags && lhs.indexByKey == rhs.indexByKey
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(tags)
        hasher.combine(indexByKey)
    }

    /// The tag with this identity.
    package subscript(key: TagKey) -> TagInfo? { indexByKey[key].map { tags[$0] } }

    /// Builds the taxonomy of posts sorted newest first.
    ///
    /// - Parameters:
    ///   - posts: The posts, newest first.
    ///   - hierarchy: Whether `/` nests tags (`tags.hierarchy`): each tag above a listed one is a
    ///     tag too, with the posts of every tag under it.
    /// - Returns: The taxonomy and a warning for each pair of tags whose slugs collided (the later
    ///   tag, by identity, gets a `-2`, `-3`… suffix).
    /// - Complexity: O(*t* log *t*) for *t* tag uses.
    package static func build(posts: [Post], hierarchy: Bool = false) -> (Taxonomy, [Diagnostic]) {
        build(posts: posts, hierarchy: hierarchy, of: .tags)
    }

    /// Which names of the posts a taxonomy is made of: their tags, or their names in another
    /// taxonomy (``SiteConfig/taxonomies``).
    enum Field: Sendable, Hashable {
        case tags
        case terms(String)

        func names(of post: Post) -> (spellings: [String], keys: [TagKey]) {
            switch self {
            case .tags: return (post.tags, post.tagKeys)
            case .terms(let taxonomy):
                let spellings = post.terms[taxonomy]
                return (spellings, spellings.map(TagKey.init))
            }
        }

        func location(in post: Post) -> SourceLocation {
            switch self {
            case .tags: post.tagsLocation ?? SourceLocation(path: post.sourcePath)
            case .terms(let taxonomy): post.terms.locations[taxonomy] ?? SourceLocation(path: post.sourcePath)
            }
        }

        /// The first page of a name (`/tags/swift/`).
        func path(of slug: Slug) -> String {
            switch self {
            case .tags: Routes.tag(slug)
            case .terms(let taxonomy): Routes.term(slug, in: taxonomy)
            }
        }

        var noun: String {
            switch self {
            case .tags: "tags"
            case .terms(let taxonomy): taxonomy
            }
        }
    }

    /// ``build(posts:hierarchy:)`` of any field of the posts.
    static func build(posts: [Post], hierarchy: Bool, of field: Field) -> (Taxonomy, [Diagnostic]) {
        struct Usage {
            var spellings = Spellings()
            /// Oldest first.
            var posts: [Int] = []
        }
        var usages: [TagKey: Usage] = [:]
        // Walk oldest to newest, so "first seen" means earliest in date order.
        for postIndex in posts.indices.reversed() {
            let (spellings, keys) = field.names(of: posts[postIndex])
            for (spelling, key) in zip(spellings, keys) {
                record(spelling, key)
                // The tags above it, spelt as this post spells them; once for a post listing two
                // children of one tag.
                guard hierarchy else { continue }
                for (ancestorSpelling, ancestor) in TagHierarchy.ancestors(of: spelling, key: key) {
                    record(ancestorSpelling, ancestor)
                }
            }
            func record(_ spelling: String, _ key: TagKey) {
                // Changed in place: a copy out and back would copy the tag's post list each time.
                count(&usages[key, default: Usage()])
                func count(_ usage: inout Usage) {
                    guard usage.posts.last != postIndex else { return }
                    usage.spellings.count(spelling, order: posts.count - 1 - postIndex)
                    usage.posts.append(postIndex)
                }
            }
        }
        let named = usages.keys.sorted().map { key in
            let usage = usages[key] ?? Usage()
            return Named(key: key, name: usage.spellings.preferred ?? key.rawValue, postIndices: usage.posts.reversed())
        }
        var (taxonomy, diagnostics) = finish(named, posts: posts, field: field)
        if hierarchy {
            for index in taxonomy.tags.indices {
                taxonomy.tags[index].parent = TagHierarchy.parent(of: taxonomy.tags[index].key).flatMap {
                    taxonomy.indexByKey[$0]
                }
            }
        }
        return (taxonomy, diagnostics)
    }

    /// This taxonomy after some posts were edited in place: every post keeps its place in the
    /// site (its date and slug), and the edited ones may list other tags.
    ///
    /// Not for a taxonomy with `tags.hierarchy`: a site with it is assembled again after a retag.
    ///
    /// Only the tags the edited posts list, before or after, are counted again, so it costs
    /// O(*u* + *t* log *t*) for *u* uses of those tags and *t* tags, instead of ``build(posts:)``'s
    /// pass over every tag of every post; the result is the same as building from `posts`.
    ///
    /// - Parameters:
    ///   - posts: The site's posts after the edit, in the same order as before it.
    ///   - previousTagKeys: Index of each edited post → the tags it listed before the edit.
    /// - Returns: The taxonomy and its warnings, as ``build(posts:)`` returns them.
    func retagged(posts: [Post], previousTagKeys: [Int: [TagKey]]) -> (Taxonomy, [Diagnostic]) {
        var touched: Set<TagKey> = []
        for (index, keys) in previousTagKeys {
            touched.formUnion(keys)
            touched.formUnion(posts[index].tagKeys)
        }
        // The edited posts' new lists, by tag; the untouched tags keep theirs.
        var postLists: [TagKey: [Int]] = [:]
        for key in touched {
            postLists[key] = self[key]?.postIndices.filter { previousTagKeys[$0] == nil } ?? []
        }
        for index in previousTagKeys.keys {
            for key in posts[index].tagKeys { postLists[key, default: []].append(index) }
        }
        var named: [Named] = []
        named.reserveCapacity(tags.count + touched.count)
        for (index, tag) in tags.enumerated() where !touched.contains(tag.key) {
            let base = baseSlugs.indices.contains(index) ? baseSlugs[index] : nil
            named.append(Named(key: tag.key, name: tag.name, postIndices: tag.postIndices, base: base))
        }
        for (key, list) in postLists where !list.isEmpty {
            let postIndices = list.sorted()
            var spellings = Spellings()
            for postIndex in postIndices.reversed() {
                guard let position = posts[postIndex].tagKeys.firstIndex(of: key) else { continue }
                spellings.count(posts[postIndex].tags[position], order: posts.count - 1 - postIndex)
            }
            named.append(Named(key: key, name: spellings.preferred ?? key.rawValue, postIndices: postIndices))
        }
        named.sort { $0.key < $1.key }
        return Self.finish(named, posts: posts, field: .tags)
    }

    /// How the posts of one tag spell it: each spelling's count and when it was first seen.
    ///
    /// A list, not a dictionary: nearly every tag has one or two spellings, and hashing each
    /// use's spelling twice was a large part of building the taxonomy, on one core.
    private struct Spellings {
        var seen: [(spelling: String, count: Int, firstSeen: Int)] = []

        /// Counts a spelling; `order` grows from the oldest post to the newest.
        mutating func count(_ spelling: String, order: Int) {
            if let index = seen.firstIndex(where: { $0.spelling == spelling }) {
                seen[index].count += 1
            } else {
                seen.append((spelling, 1, order))
            }
        }

        /// The spelling most posts use; ties: the one the earliest post uses.
        var preferred: String? {
            seen.min { lhs, rhs in
                lhs.count != rhs.count ? lhs.count > rhs.count : lhs.firstSeen < rhs.firstSeen
            }?.spelling
        }
    }

    /// A tag with its name and posts, before it has a slug.
    private struct Named {
        var key: TagKey
        var name: String
        /// Newest first.
        var postIndices: [Int]
        /// The slug of the name, when known already.
        var base: Slug? = nil
    }

    /// Gives each tag a slug, in identity order: a slug another tag took gets a `-2`, `-3`… suffix
    /// and a warning, placed where the earliest post lists the tag.
    private static func finish(_ named: [Named], posts: [Post], field: Field) -> (Taxonomy, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var tags: [TagInfo] = []
        tags.reserveCapacity(named.count)
        var baseSlugs: [Slug] = []
        baseSlugs.reserveCapacity(named.count)
        var usedSlugs: [Slug: TagKey] = [:]
        for tag in named {
            let key = tag.key
            let base = tag.base ?? Slug(from: tag.name)
            baseSlugs.append(base)
            let slug = base.numbered { usedSlugs[$0] != nil }
            if slug != base, let owner = usedSlugs[base] {
                let earliest = tag.postIndices.last.map { posts[$0] }
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        TagflowError(
                            location: earliest.map { field.location(in: $0) },
                            step: "taxonomy",
                            message:
                                "\(field.noun) '\(owner.rawValue)' and '\(key.rawValue)' would share \(field.path(of: base)); "
                                + "'\(key.rawValue)' uses a numbered URL instead",
                            hint: "rename one of the \(field.noun) if you want a clean URL for both")))
            }
            usedSlugs[slug] = key
            tags.append(TagInfo(key: key, name: tag.name, slug: slug, postIndices: tag.postIndices))
        }
        var index: [TagKey: Int] = [:]
        for (position, tag) in tags.enumerated() { index[tag.key] = position }
        return (Taxonomy(tags: tags, indexByKey: index, baseSlugs: baseSlugs), diagnostics)
    }
}
