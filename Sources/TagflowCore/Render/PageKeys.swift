import TagflowConcurrency
import TagflowMarkdown

/// The digest of each post's and each page's source file, in ``Site`` order, and of what lists
/// show of each post.
struct ContentDigests: Sendable {
    var posts: [Digest]
    var pages: [Digest]
    /// What lists show of each post by itself (``summary(of:)``).
    var summaries: [Digest]

    /// The digests of a site's posts and pages, in site order, from each source file's digest.
    init(site: Site?, digestOf: (String) -> Digest?) {
        posts =
            site?.posts.map { post in
                var digest = digestOf(post.sourcePath) ?? Digest()
                // The same file makes another post once its date has passed.
                if post.isScheduled { digest.update("scheduled") }
                return digest
            } ?? []
        pages = site?.pages.map { digestOf($0.sourcePath) ?? Digest() } ?? []
        summaries = site?.posts.map(Self.summary(of:)) ?? []
    }

    /// What a list of posts shows of a post apart from its tags.
    ///
    /// Everything ``SiteRenderer/makeSummary(of:)`` reads of it, and not its body, so that an
    /// edit past the summary renders the post's page and not every list that shows it.
    static func summary(of post: Post) -> Digest {
        var digest = Digest()
        digest.update(post.title)
        digest.update(post.slug.rawValue)
        digest.update(UInt64(bitPattern: post.date.secondsSince1970))
        digest.update(post.updated.map { UInt64(bitPattern: $0.secondsSince1970) } ?? 0x5EED)
        digest.update(post.summary)
        digest.update(post.isDraft ? 1 : 0)
        digest.update(post.isScheduled ? 1 : 0)
        return digest
    }
}

/// The values a site's pages are made from, as digests: the values of the inputs pages read
/// (``PageInput``), from which each page's key is made (``SiteRenderer/keys(of:)``), so that a
/// rebuild renders again only the pages whose inputs changed (``IncrementalBuilder``, the cached
/// build).
///
/// Two renders of a page whose inputs have the same values give the same bytes, as long as the
/// templates, the settings and the plugins are the same (a change to any of those rebuilds
/// everything). So each input's value must take in everything the renderer reads when it notes
/// that input; `IncrementalBuilderTests` compares rebuilt sites with full builds after every kind
/// of edit, with a theme that prints every value a page gets.
struct PageKeys: Sendable {
    /// The source files.
    var content: ContentDigests
    /// What every page shows: the pages menu. (The settings are the same whenever keys are
    /// compared.)
    var site: Digest
    /// Each tag's name, URL, count and identity, in taxonomy order.
    var tagLinks: [Digest]
    /// Each tag's link as the tag lists of posts show it: ``tagLinks``, or without the counts
    /// when no page shows them there (``countsShown``).
    var listedTagLinks: [Digest]
    /// Whether the tag lists of posts may show the tags' counts; when not, a post's summary key
    /// leaves them out.
    private(set) var countsShown: Bool
    /// Every tag link: the clouds.
    var allTags: Digest
    /// Each post's tags as lists show them: how many, and each one's link (``listedTagLinks``).
    var postTags: [Digest]
    /// What lists show of each post: the post itself and its tags (``postTags``).
    var summaries: [Digest]
    /// Each tag's related tags, in order.
    var related: [Digest]
    /// Each tag's related tags as the plugin drew them, when it draws them.
    var drawnRelated: [Digest]?
    /// The home page's cloud as the plugin drew it, when it draws one.
    var drawnHomeCloud: Digest?
    /// Every post's and page's source path and URL: what links by file name lead to
    /// (``FileLinks/digest``), in the keys of the posts and pages that have such links.
    var fileLinks: Digest
    /// Each post's source path: what names it in the lists' compositions (which posts a list
    /// has), the same in every version of the site.
    var identities: [Digest]

    init(
        site: Site, tagLinks: [TagLink], postTagIndices: [[Int]], relatedTags: [[Int]], content: ContentDigests,
        countsShown: Bool, fileLinks: Digest
    ) {
        self.content = content
        self.fileLinks = fileLinks
        identities = site.posts.map { post in
            var digest = Digest()
            digest.update(post.sourcePath)
            return digest
        }
        // The settings are left out: keys are compared only while they stay the same (see the
        // type's comment), and a key must not depend on the process (`Hasher` is seeded per
        // process) now that `tagflow build` compares keys with the ones its last run recorded.
        var siteDigest = Digest()
        for page in site.pages {
            siteDigest.update(page.title)
            siteDigest.update(page.slug.rawValue)
        }
        self.site = siteDigest
        self.tagLinks = tagLinks.map(Self.digest(of:))
        var allTags = Digest()
        for link in self.tagLinks { allTags.update(link) }
        self.allTags = allTags
        self.countsShown = countsShown
        listedTagLinks =
            countsShown
            ? self.tagLinks
            : tagLinks.map { link in
                var digest = Digest()
                digest.update(link.name)
                digest.update(link.url)
                digest.update(link.key.rawValue)
                return digest
            }
        let listed = listedTagLinks
        postTags = postTagIndices.map { Self.digest(ofTags: $0, listed) }
        summaries = zip(content.summaries, postTags).map(Self.summaryKey)
        // With the counts, always: a plugin may show them in related tags whatever it shows in a
        // post's tags.
        let fullLinks = self.tagLinks
        related = relatedTags.map { tags in
            var digest = Digest()
            digest.update(UInt64(tags.count))
            for tag in tags { digest.update(fullLinks[tag]) }
            return digest
        }
    }

    /// These keys once a page showed a count in a post's tag list: the summaries take in the
    /// counts.
    ///
    /// - Parameter postTagIndices: The posts' tags, as the keys were made from them.
    mutating func showCounts(postTagIndices: [[Int]]) {
        guard !countsShown else { return }
        countsShown = true
        listedTagLinks = tagLinks
        postTags = postTagIndices.map { Self.digest(ofTags: $0, tagLinks) }
        summaries = zip(content.summaries, postTags).map(Self.summaryKey)
    }

    /// A tag's (or another taxonomy's name's) link: its name, URL, count and identity.
    static func digest(of link: TagLink) -> Digest {
        var digest = Digest()
        digest.update(link.name)
        digest.update(link.url)
        digest.update(UInt64(link.count))
        digest.update(link.key.rawValue)
        return digest
    }

    /// A drawn block; no block differs from an empty one (templates test for it).
    static func digest(of html: String?) -> Digest {
        var digest = Digest()
        if let html {
            digest.update(1)
            digest.update(html)
        } else {
            digest.update(0)
        }
        return digest
    }

    /// A post's tags as lists show them: how many, and each one's link.
    private static func digest(ofTags tags: [Int], _ tagLinks: [Digest]) -> Digest {
        var digest = Digest()
        digest.update(UInt64(tags.count))
        for tag in tags { digest.update(tagLinks[tag]) }
        return digest
    }

    /// What lists show of a post: the post itself (``ContentDigests/summary(of:)``) and its tags
    /// (``postTags``).
    static func summaryKey(post: Digest, tags: Digest) -> Digest {
        var digest = post
        digest.update(tags)
        return digest
    }
}

extension SiteRenderer {
    /// The key of each page whose rendering read the inputs given.
    ///
    /// A key is the digest of the inputs' values in this site, in order. `nil` for every page
    /// unless the renderer was prepared with content digests, and for a page whose inputs name
    /// something this site no longer has.
    func keys(of inputs: [[PageInput]?]) async -> [DigestValue?] {
        guard let keys else { return inputs.map { _ in nil } }
        let whole = WholeSite(siteLists: siteListsValue(keys), allPosts: allPostsValue(keys))
        // On every core: each rebuild in `serve` makes the key of every page.
        let renderer = self
        return await ParallelMap.map(inputs) { inputs in
            guard let inputs else { return nil }
            // The values only: a key is only ever compared with one made from the same inputs.
            var digest = Digest()
            digest.update(UInt64(inputs.count))
            for input in inputs {
                guard let value = renderer.value(of: input, keys, whole) else { return nil }
                digest.update(value)
            }
            return digest.value
        }
    }

    /// The values of inputs that read the whole site, made once for all pages.
    private struct WholeSite: Sendable {
        var siteLists: Digest
        var allPosts: Digest
    }

    /// What `site.posts` and `site.tags` show: every post's summary and every tag's link.
    private func siteListsValue(_ keys: PageKeys) -> Digest {
        var digest = keys.allTags
        digest.update(UInt64(keys.summaries.count))
        for summary in keys.summaries { digest.update(summary) }
        return digest
    }

    /// Which posts the site has, in order.
    private func allPostsValue(_ keys: PageKeys) -> Digest {
        var digest = Digest()
        digest.update(UInt64(keys.identities.count))
        for identity in keys.identities { digest.update(identity) }
        return digest
    }

    /// The digest of an input's value in this site; `nil` when it names something the site does
    /// not have.
    private func value(of input: PageInput, _ keys: PageKeys, _ whole: WholeSite) -> Digest? {
        let (first, second, third) = (Int(input.first), Int(input.second), Int(input.third))
        var digest = Digest()
        /// Which posts are on page `number` of a list of `items`.
        func listPage(_ items: some RandomAccessCollection<Int>, _ number: Int) -> Digest? {
            guard let page = Pagination.page(number, itemCount: items.count, perPage: site.config.postsPerPage)
            else { return nil }
            digest.update(UInt64(page.page))
            digest.update(UInt64(page.pageCount))
            digest.update(UInt64(page.range.count))
            for position in page.range {
                digest.update(keys.identities[items[items.index(items.startIndex, offsetBy: position)]])
            }
            return digest
        }
        /// Which posts are a feed's entries.
        func entries(_ items: some Sequence<Int>) -> Digest {
            let entries = feedEntries(items)
            digest.update(UInt64(entries.count))
            for entry in entries { digest.update(keys.identities[entry]) }
            return digest
        }
        switch input.kind {
        case .menu: return keys.site
        case .siteLists: return whole.siteLists
        case .post: return keys.content.posts.element(at: first)
        case .page: return keys.content.pages.element(at: first)
        case .fileLinks: return keys.fileLinks
        case .summary: return keys.content.summaries.element(at: first)
        case .summaryTags: return keys.postTags.element(at: first)
        case .summaryWithTags: return keys.summaries.element(at: first)
        case .neighbours:
            guard keys.identities.indices.contains(first) else { return nil }
            digest.update(keys.identities.element(at: first - 1) ?? Digest())
            digest.update(keys.identities.element(at: first + 1) ?? Digest())
        case .relatedPosts:
            guard keys.identities.indices.contains(first) else { return nil }
            let related = relatedPosts.element(at: first) ?? []
            digest.update(UInt64(related.count))
            for other in related { digest.update(keys.identities[other]) }
        case .sitemapEntry:
            guard site.posts.indices.contains(first) else { return nil }
            // Its address and dates, not its text: a typo fixed does not change the sitemap.
            digest.update(site.posts[first].isUnreleased ? 1 : 0)
            digest.update(site.posts[first].slug.rawValue)
            digest.update(UInt64(bitPattern: site.posts[first].date.secondsSince1970))
            digest.update(site.posts[first].updated.map { UInt64(bitPattern: $0.secondsSince1970) } ?? 0x5EED)
        case .allPosts: return whole.allPosts
        case .postCount: digest.update(UInt64(site.posts.count))
        case .series:
            guard let members = series.series.element(at: first) else { return nil }
            digest.update(members.name)
            digest.update(members.slug.rawValue)
            digest.update(UInt64(members.posts.count))
            for member in members.posts { digest.update(keys.identities[member]) }
        case .seriesList:
            digest.update(UInt64(series.series.count))
            for members in series.series {
                digest.update(members.name)
                digest.update(members.slug.rawValue)
                digest.update(UInt64(members.posts.count))
            }
        case .listExists:
            let exists = first < 0 ? hasSeriesList : site.termTaxonomies.indices.contains(first) && hasTermList(first)
            digest.update(exists ? 1 : 0)
        case .tagLink: return keys.tagLinks.element(at: first)
        case .tagAddresses:
            // Not the counts: a tag added to a post does not change the sitemap.
            digest.update(UInt64(tagLinks.count))
            for link in tagLinks { digest.update(link.url) }
        case .relatedTags:
            // As drawn, when a plugin draws them: cut to `chips.related_limit`, a list that changed
            // past the limit draws the same block.
            return keys.drawnRelated?.element(at: first) ?? keys.related.element(at: first)
        case .hierarchy:
            let tags = site.taxonomy.tags
            guard tags.indices.contains(first) else { return nil }
            let ancestors = tagAncestors(of: first)
            digest.update(UInt64(ancestors.count))
            for ancestor in ancestors { digest.update(tags[ancestor].key.rawValue) }
            digest.update(UInt64(tagChildren[first].count))
            for child in tagChildren[first] { digest.update(tags[child].key.rawValue) }
        case .allTags: return keys.allTags
        case .homeCloud: return keys.drawnHomeCloud ?? keys.allTags
        case .termLink:
            guard let link = termLinks.element(at: first)?.element(at: second) else { return nil }
            return PageKeys.digest(of: link)
        case .terms:
            guard let links = termLinks.element(at: first) else { return nil }
            digest.update(UInt64(links.count))
            for link in links { digest.update(PageKeys.digest(of: link)) }
        case .homePage: return listPage(site.posts.indices, first)
        case .tagPage:
            guard let tag = site.taxonomy.tags.element(at: first) else { return nil }
            return listPage(tag.postIndices, second)
        case .termPage:
            guard let term = site.termTaxonomies.element(at: first)?.tags.element(at: second) else { return nil }
            return listPage(term.postIndices, third)
        case .feed: return entries(site.posts.indices)
        case .tagFeed:
            guard let tag = site.taxonomy.tags.element(at: first) else { return nil }
            return entries(tag.postIndices)
        case .seriesFeed:
            guard let members = series.series.element(at: first) else { return nil }
            return entries(members.posts.sorted())
        case .termFeed:
            guard let term = site.termTaxonomies.element(at: first)?.tags.element(at: second) else { return nil }
            return entries(term.postIndices)
        }
        return digest
    }
}

extension Array {
    /// The element at `index`; `nil` past the ends.
    fileprivate func element(at index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
