import TagflowMarkdown

/// The digest of each post's and each page's source file, in ``Site`` order.
struct ContentDigests: Sendable {
    var posts: [Digest]
    var pages: [Digest]

    init(posts: [Digest], pages: [Digest]) {
        self.posts = posts
        self.pages = pages
    }

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
    }
}

/// What each page of a site is made from, as digests, so that a rebuild renders again only the
/// pages whose inputs changed (``IncrementalBuilder``).
///
/// Two renders of a job with the same key give the same bytes, as long as the templates, the
/// settings and the plugins are the same (a change to any of those rebuilds everything). So
/// ``SiteRenderer/key(of:)`` must take in everything ``SiteRenderer/render(_:)`` reads for that
/// job; `IncrementalBuilderTests` compares rebuilt sites with full builds after every kind of edit.
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
    /// What lists show of each post: the post and its tags' links.
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

    init(
        site: Site, tagLinks: [TagLink], postTagIndices: [[Int]], relatedTags: [[Int]], content: ContentDigests,
        countsShown: Bool, fileLinks: Digest
    ) {
        self.content = content
        self.fileLinks = fileLinks
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
        summaries = Self.summaryKeys(posts: content.posts, postTagIndices: postTagIndices, tagLinks: listedTagLinks)
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
        summaries = Self.summaryKeys(posts: content.posts, postTagIndices: postTagIndices, tagLinks: tagLinks)
    }

    private static func summaryKeys(posts: [Digest], postTagIndices: [[Int]], tagLinks: [Digest]) -> [Digest] {
        zip(posts, postTagIndices).map { post, tags in summaryKey(post: post, tags: tags, tagLinks: tagLinks) }
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

    /// What lists show of a post: the post itself and its tags' links.
    static func summaryKey(post: Digest, tags: [Int], tagLinks: [Digest]) -> Digest {
        var digest = post
        digest.update(UInt64(tags.count))
        for tag in tags { digest.update(tagLinks[tag]) }
        return digest
    }
}

extension SiteRenderer {
    /// The output file a job writes (what ``render(_:)`` returns as the file's path).
    func outputPath(of job: Job) -> String {
        switch job {
        case .home(let pagination):
            return Routes.file(for: Pagination.path(of: pagination.page, firstPagePath: Routes.home))
        case .post(let index): return Routes.file(for: Routes.post(site.posts[index].slug))
        case .page(let index): return Routes.file(for: Routes.page(site.pages[index].slug))
        case .tags: return Routes.file(for: Routes.tags)
        case .archive: return Routes.file(for: Routes.archive)
        case .tag(let index, let pagination):
            let firstPage = Routes.tag(site.taxonomy.tags[index].slug)
            return Routes.file(for: Pagination.path(of: pagination.page, firstPagePath: firstPage))
        case .notFound: return "404.html"
        case .feed: return "feed.xml"
        case .tagFeed(let index): return Routes.file(for: Routes.tagFeed(site.taxonomy.tags[index].slug))
        case .seriesList: return Routes.file(for: Routes.seriesList)
        case .series(let index): return Routes.file(for: Routes.series(series.series[index].slug))
        case .seriesFeed(let index): return Routes.file(for: Routes.seriesFeed(series.series[index].slug))
        case .terms, .term, .termFeed: return Routes.file(for: path(of: job))
        case .tagRedirect(let index): return Routes.file(for: Routes.tag(aliasRedirects[index].slug))
        case .pageRedirect(let index): return Routes.file(for: pageRedirects[index].path)
        case .sitemap: return "sitemap.xml"
        }
    }

    /// The digest of everything ``render(_:)`` reads for a job; `nil` unless the renderer was
    /// prepared with content digests.
    func key(of job: Job) -> Digest? {
        guard let keys else { return nil }
        return key(of: job, keys, siteLists: siteListsKey(keys))
    }

    /// ``key(of:)`` of each job, in order.
    ///
    /// The keys are unwrapped once for all jobs: copied out for each page, they were a dozen
    /// retains and releases per page, a large part of making the keys.
    func keys(of jobs: some Sequence<Job>) -> [Digest?] {
        guard let keys else { return jobs.map { _ in nil } }
        let siteLists = siteListsKey(keys)
        return jobs.map { key(of: $0, keys, siteLists: siteLists) }
    }

    /// What `site.posts` and `site.tags` show, which every page gets when the theme reads them:
    /// every post's summary and every tag's link.
    private func siteListsKey(_ keys: PageKeys) -> Digest? {
        guard theme.readsSiteLists else { return nil }
        var digest = keys.allTags
        digest.update(UInt64(keys.summaries.count))
        for summary in keys.summaries { digest.update(summary) }
        return digest
    }

    private func key(of job: Job, _ keys: PageKeys, siteLists: Digest?) -> Digest {
        var digest = keys.site
        if let siteLists { digest.update(siteLists) }
        func add(_ kind: UInt64, _ pagination: Pagination? = nil) {
            digest.update(kind)
            if let pagination {
                digest.update(UInt64(pagination.page))
                digest.update(UInt64(pagination.pageCount))
                digest.update(UInt64(pagination.range.count))
            }
        }
        switch job {
        case .home(let pagination):
            add(1, pagination)
            for index in pagination.range { digest.update(keys.summaries[index]) }
            if pagination.page == 1 { digest.update(keys.drawnHomeCloud ?? keys.allTags) }
        case .post(let index):
            add(2)
            digest.update(keys.content.posts[index])
            if !site.posts[index].body.fileLinks.isEmpty { digest.update(keys.fileLinks) }
            digest.update(keys.summaries[index])
            // The related posts, with the tags they share (in their summaries).
            let related = relatedPosts.indices.contains(index) ? relatedPosts[index] : []
            digest.update(UInt64(related.count))
            for other in related { digest.update(keys.summaries[other]) }
            // Its series: its address, and every part's title, link and date, in order.
            if let place = series.membership[index] {
                digest.update(series.series[place.series].slug.rawValue)
                let members = series.series[place.series].posts
                digest.update(UInt64(members.count))
                for member in members { digest.update(keys.summaries[member]) }
            }
            // Its names in the other taxonomies.
            for (taxonomy, indices) in termIndices(of: index) {
                digest.update(UInt64(indices.count))
                for term in indices { digest.update(PageKeys.digest(of: termLinks[taxonomy][term])) }
            }
            // The links to the newer and older posts.
            for neighbour in stride(from: index - 1, through: index + 1, by: 2) {
                if keys.summaries.indices.contains(neighbour) {
                    digest.update(UInt64(neighbour - index + 2))
                    digest.update(keys.summaries[neighbour])
                }
            }
        case .page(let index):
            add(3)
            digest.update(keys.content.pages[index])
            if !site.pages[index].body.fileLinks.isEmpty { digest.update(keys.fileLinks) }
        case .tags:
            add(4)
            digest.update(keys.allTags)
            digest.update(UInt64(site.posts.count))
        case .tag(let index, let pagination):
            add(5, pagination)
            digest.update(keys.tagLinks[index])
            digest.update(keys.drawnRelated?[index] ?? keys.related[index])
            if site.config.tagHierarchy {
                // The breadcrumbs and the block of children.
                let ancestors = tagAncestors(of: index)
                digest.update(UInt64(ancestors.count))
                for ancestor in ancestors { digest.update(keys.tagLinks[ancestor]) }
                digest.update(UInt64(tagChildren[index].count))
                for child in tagChildren[index] { digest.update(keys.tagLinks[child]) }
            }
            for position in pagination.range {
                digest.update(keys.summaries[site.taxonomy.tags[index].postIndices[position]])
            }
        case .archive:
            add(10)
            // Every post: its title, link and date (and its tags, which the theme may show).
            digest.update(UInt64(keys.summaries.count))
            for summary in keys.summaries { digest.update(summary) }
        case .notFound:
            add(6)
        case .feed:
            add(7)
            // The feed's entries: whole posts, with their tags' names.
            for index in feedEntries(site.posts.indices) { digest.update(keys.summaries[index]) }
        case .tagFeed(let index):
            add(9)
            digest.update(keys.tagLinks[index])
            for post in feedEntries(site.taxonomy.tags[index].postIndices) { digest.update(keys.summaries[post]) }
        case .seriesList:
            add(13)
            // Each series' name, address and size: edits in place keep every post's series
            // (``IncrementalBuilder``), but the key does not count on it.
            digest.update(UInt64(series.series.count))
            for members in series.series {
                digest.update(members.name)
                digest.update(members.slug.rawValue)
                digest.update(UInt64(members.posts.count))
            }
        case .series(let index):
            add(14)
            let members = series.series[index]
            digest.update(members.name)
            digest.update(members.slug.rawValue)
            digest.update(UInt64(hasSeriesList ? 1 : 0))
            digest.update(UInt64(members.posts.count))
            for member in members.posts { digest.update(keys.summaries[member]) }
        case .seriesFeed(let index):
            add(15)
            let members = series.series[index]
            digest.update(members.name)
            digest.update(members.slug.rawValue)
            for post in feedEntries(members.posts.sorted()) { digest.update(keys.summaries[post]) }
        case .terms(let taxonomy):
            add(16)
            digest.update(UInt64(termLinks[taxonomy].count))
            for link in termLinks[taxonomy] { digest.update(PageKeys.digest(of: link)) }
        case .term(let taxonomy, let index, let pagination):
            add(17, pagination)
            digest.update(UInt64(taxonomy))
            digest.update(PageKeys.digest(of: termLinks[taxonomy][index]))
            digest.update(UInt64(hasTermList(taxonomy) ? 1 : 0))
            for position in pagination.range {
                digest.update(keys.summaries[site.termTaxonomies[taxonomy].tags[index].postIndices[position]])
            }
        case .termFeed(let taxonomy, let index):
            add(18)
            digest.update(UInt64(taxonomy))
            digest.update(PageKeys.digest(of: termLinks[taxonomy][index]))
            for post in feedEntries(site.termTaxonomies[taxonomy].tags[index].postIndices) {
                digest.update(keys.summaries[post])
            }
        case .tagRedirect(let index):
            add(11)
            digest.update(aliasRedirects[index].slug.rawValue)
            digest.update(keys.tagLinks[aliasRedirects[index].tag])
        case .pageRedirect(let index):
            add(12)
            let destination = destination(of: pageRedirects[index].target)
            digest.update(pageRedirects[index].path)
            digest.update(destination.path)
            digest.update(destination.title)
        case .sitemap:
            add(8)
            // Each tag's URL, not its count: a tag added to a post does not change the sitemap.
            digest.update(UInt64(tagLinks.count))
            for link in tagLinks { digest.update(link.url) }
            digest.update(UInt64(hasSeriesList ? 1 : 0))
            for members in series.series { digest.update(members.slug.rawValue) }
            for (taxonomy, links) in termLinks.enumerated() {
                digest.update(UInt64(hasTermList(taxonomy) ? 1 : 0))
                for link in links { digest.update(link.url) }
            }
            // Each post's URL and dates, not its text: a typo fixed does not change the sitemap.
            // By index: a `Post` copied out of the array is a dozen retains.
            for index in site.posts.indices where !site.posts[index].isUnreleased {
                digest.update(site.posts[index].slug.rawValue)
                digest.update(UInt64(bitPattern: site.posts[index].date.secondsSince1970))
                digest.update(site.posts[index].updated.map { UInt64(bitPattern: $0.secondsSince1970) } ?? 0x5EED)
            }
        }
        return digest
    }
}
