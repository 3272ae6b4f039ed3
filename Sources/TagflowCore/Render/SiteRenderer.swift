import Foundation
import TagflowConcurrency
import TagflowHTML
import TagflowMarkdown

/// A file of the built site.
package struct OutputFile: Sendable, Hashable {
    /// Path inside the output folder (`posts/hello/index.html`).
    package var path: String
    /// The bytes to write.
    package var contents: [UInt8] {
        get {
            switch storage {
            case .text(let text): Array(text.utf8)
            case .bytes(let bytes): bytes
            }
        }
        set { storage = .bytes(newValue) }
    }

    /// A page is kept as the text it was rendered to and written from that text's own UTF-8
    /// bytes: copying each page into an array of bytes first copied the whole site once more.
    private var storage: Storage

    private enum Storage: Sendable {
        case text(String)
        case bytes([UInt8])
    }

    /// Creates a file from text.
    package init(path: String, text: String) {
        self.path = path
        storage = .text(text)
    }

    /// Creates a file from bytes.
    package init(path: String, contents: [UInt8]) {
        self.path = path
        storage = .bytes(contents)
    }

    /// The number of bytes, without making them.
    var byteCount: Int {
        switch storage {
        case .text(let text): text.utf8.count
        case .bytes(let bytes): bytes.count
        }
    }

    /// Calls `body` with the bytes, in place.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .text(var text): try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .bytes(let bytes): try bytes.withUnsafeBytes(body)
        }
    }

    package static func == (lhs: OutputFile, rhs: OutputFile) -> Bool {
        lhs.path == rhs.path && lhs.byteCount == rhs.byteCount
            && lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        withBytes { hasher.combine(bytes: $0) }
    }
}

/// Turns a ``Site`` into output files with a ``Theme``: every page rendered in parallel, the
/// result sorted by path.
struct SiteRenderer: Sendable {
    private(set) var site: Site
    let theme: Theme
    let hooks: PluginContext
    let routes: Routes
    let timeZone: TimeZone
    /// Each tag's link, in taxonomy order.
    private(set) var tagLinks: [TagLink]
    /// Each tag's children (`tags.hierarchy`), in taxonomy order.
    private(set) var tagChildren: [[Int]]
    /// Each other taxonomy's names' links (`categories`), in the order of ``SiteConfig/taxonomies``.
    ///
    /// Made once: edits in place keep every post's names there (``IncrementalBuilder``).
    let termLinks: [[TagLink]]
    /// Each other taxonomy's title (`Categories`).
    let termTitles: [String]
    /// What lists show of each post, in post order; made by ``render()`` before the pages, since
    /// one post appears in many lists (home pages, every tag page of its tags).
    private(set) var summaries: [PostSummary] = []
    /// Each post's context in lists of posts, made from ``summaries``: shared by every list that
    /// shows the post, so that its entry is rendered once (``SharedContext``).
    private(set) var listedPosts: [SharedContext] = []
    /// Tag lists that several pages show, drawn once by ``prepared()``: the home cloud (on every
    /// home page), the `/tags/` cloud, and each tag's related tags (on every page of that tag).
    private(set) var homeCloudHTML: String?
    private(set) var cloudHTML: String?
    private(set) var relatedHTML: [String?] = []
    /// Each post's tags as indices into the taxonomy, in the author's order; made by ``prepared(digests:reusing:)``.
    private(set) var postTagIndices: [[Int]] = []
    /// Each tag's related tags (``relatedTagIndices(of:)``), when prepared with digests or a plugin
    /// that draws tag lists.
    private(set) var relatedIndices: [[Int]] = []
    /// The pages at the addresses of tag aliases (`/tags/golang/`), each sending readers to the
    /// tag its alias names: the slug, and the tag's index in the taxonomy.
    private(set) var aliasRedirects: [(slug: Slug, tag: Int)] = []
    /// The pages at the old addresses of posts and pages (their `aliases:`), each sending readers
    /// on: the site path, and the post or page.
    let pageRedirects: [(path: String, target: RedirectTarget)]
    /// Each post's related posts (``RelatedPosts``), best first; made by ``prepared(digests:reusing:)``.
    private(set) var relatedPosts: [[Int]] = []
    /// What each page is made from, when prepared with content digests.
    private(set) var keys: PageKeys?

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - site: The site to render.
    ///   - theme: The templates.
    ///   - hooks: What the plugins installed.
    ///   - images: Sizes the images of posts and pages.
    ///   - tagCountReads: Where pages note that they showed a tag's count in a post's tag list,
    ///     for a renderer whose keys leave the counts out of what lists show of a post until one
    ///     does (`tagflow serve`); `nil`: the counts are always in the keys.
    init(site: Site, theme: Theme, hooks: PluginContext, images: ContentImages, tagCountReads: NameReads? = nil) {
        self.site = site
        self.theme = theme
        self.hooks = hooks
        self.images = images
        let routes = Routes(config: site.config)
        self.routes = routes
        self.timeZone = ContentDate.timeZone(named: site.config.timeZone) ?? TimeZone(identifier: "UTC") ?? .current
        let strings = SiteStrings(language: site.config.language, overrides: site.config.strings)
        self.strings = strings
        self.stringsContext = Self.makeStringsContext(strings)
        self.tagCountReads = tagCountReads
        self.tagLinks = Self.tagLinks(of: site, routes: routes)
        self.tagChildren = Self.tagChildren(of: site.taxonomy)
        self.termLinks = zip(site.config.taxonomies, site.termTaxonomies).map { taxonomy, terms in
            terms.tags.map { term in
                TagLink(
                    name: term.name, url: routes.url(Routes.term(term.slug, in: taxonomy.name)), count: term.count,
                    key: term.key)
            }
        }
        self.termTitles = site.config.taxonomies.map { $0.displayTitle(strings: strings) }
        self.aliasRedirects = Self.aliasRedirects(of: site)
        self.pageRedirects = Self.pageRedirects(of: site)
        self.series = SeriesIndex(posts: site.posts)
        self.siteContext = Self.makeSiteContext(site: site, hooks: hooks, routes: routes, strings: strings)
        self.fileLinks = FileLinks(site: site, routes: routes)
        self.postTagContexts = Self.postTagContexts(tagLinks, reads: tagCountReads)
    }

    /// Sizes the images of posts and pages from the static files.
    let images: ContentImages
    /// The theme's words in the site's language.
    let strings: SiteStrings
    /// The series of the posts.
    ///
    /// Edits in place keep every post's series and part (``IncrementalBuilder``), so this is
    /// made once.
    let series: SeriesIndex
    /// The URLs of links to Markdown files.
    let fileLinks: FileLinks
    /// Where pages note that they showed a tag's count in a post's tag list (see ``init(site:theme:hooks:images:tagCountReads:)``).
    let tagCountReads: NameReads?
    /// Each tag's context in the tag lists of posts, watching `count`; shared by every post.
    private(set) var postTagContexts: [SharedContext]

    /// Whether the tag lists of posts may show the tags' counts: the keys of the lists of posts
    /// then take them in.
    var countsShown: Bool {
        guard let tagCountReads else { return true }
        return tagCountReads.anyNoted || hooks.tagListRenderer?.drawsCountsInPostLists == true
    }

    private static func postTagContexts(_ links: [TagLink], reads: NameReads?) -> [SharedContext] {
        links.map { link in
            SharedContext(
                ["name": .text(link.name), "url": .text(link.url), "count": .number(link.count)],
                watching: reads.map { ("count", $0) })
        }
    }

    /// These keys once a page showed a tag's count in a post's tag list (the keys were made
    /// without them until then).
    mutating func updateKeysForShownCounts() {
        if countsShown { keys?.showCounts(postTagIndices: postTagIndices) }
    }

    /// A redirect for each alias whose tag has posts, at the alias's own slug, unless a tag's page
    /// (or an earlier alias's) is there.
    private static func aliasRedirects(of site: Site) -> [(slug: Slug, tag: Int)] {
        let aliases = site.config.tagAliases
        guard !aliases.names.isEmpty else { return [] }
        var taken = Set(site.taxonomy.tags.map(\.slug))
        var redirects: [(slug: Slug, tag: Int)] = []
        for name in aliases.names {
            guard let target = aliases.targets[TagKey(name)], let tag = site.taxonomy.indexByKey[TagKey(target)]
            else { continue }
            let slug = Slug(from: name)
            guard !slug.rawValue.isEmpty, taken.insert(slug).inserted else { continue }
            redirects.append((slug, tag))
        }
        return redirects
    }

    /// What an old address sends readers to.
    enum RedirectTarget: Sendable {
        case post(Int)
        case page(Int)
    }

    /// A redirect for each alias of a published post or page.
    ///
    /// Aliases that would overwrite a page are errors before rendering (``SiteBuilder/aliasProblems(posts:pages:)``), and posts keep
    /// their aliases when edited in place, so this is made once.
    private static func pageRedirects(of site: Site) -> [(path: String, target: RedirectTarget)] {
        var redirects: [(path: String, target: RedirectTarget)] = []
        for (index, post) in site.posts.enumerated() where !post.aliases.isEmpty {
            redirects += post.aliases.map { ($0, .post(index)) }
        }
        for (index, page) in site.pages.enumerated() where !page.aliases.isEmpty {
            redirects += page.aliases.map { ($0, .page(index)) }
        }
        return redirects
    }

    /// The site path and title of a redirect's post or page.
    func destination(of target: RedirectTarget) -> (path: String, title: String) {
        switch target {
        case .post(let index): (Routes.post(site.posts[index].slug), site.posts[index].title)
        case .page(let index): (Routes.page(site.pages[index].slug), site.pages[index].title)
        }
    }

    /// Each tag's children (`tags.hierarchy`), in taxonomy order.
    private static func tagChildren(of taxonomy: Taxonomy) -> [[Int]] {
        var children: [[Int]] = Array(repeating: [], count: taxonomy.tags.count)
        for (index, tag) in taxonomy.tags.enumerated() {
            if let parent = tag.parent { children[parent].append(index) }
        }
        return children
    }

    /// The tags the `/tags/` cloud shows: every tag, or with `tags.hierarchy` those at the root,
    /// each with a group of the tags under it below (``tagGroups()``).
    var cloudLinks: [TagLink] {
        guard site.config.tagHierarchy else { return tagLinks }
        return site.taxonomy.tags.indices.lazy.filter { site.taxonomy.tags[$0].parent == nil }.map { tagLinks[$0] }
    }

    /// Each tag at the root that has tags under it, with all of them, named from below the root
    /// (`swift/ui` under `lang`), in taxonomy order: `/tags/` with `tags.hierarchy`.
    private func tagGroups() -> [TemplateObject] {
        var descendants: [Int: [Int]] = [:]
        for index in site.taxonomy.tags.indices {
            guard let root = tagAncestors(of: index).first else { continue }
            descendants[root, default: []].append(index)
        }
        return descendants.keys.sorted().map { root in
            let links = descendants[root, default: []].map { index in
                var link = tagLinks[index]
                if let slash = link.name.firstIndex(of: TagHierarchy.separator) {
                    link.name = String(link.name[link.name.index(after: slash)...])
                }
                return link
            }
            var group = tagContext(tagLinks[root])
            group["tags"] = .list(links.map { .object(tagContext($0)) })
            if let html = hooks.tagListRenderer?.html(for: links, role: .children(of: tagLinks[root])) {
                group["html"] = .text(html)
            }
            return group
        }
    }

    /// The tags above a tag, nearest the root first (`tags.hierarchy`).
    func tagAncestors(of index: Int) -> [Int] {
        var ancestors: [Int] = []
        var next = site.taxonomy.tags[index].parent
        while let parent = next, ancestors.count < TagHierarchy.maximumDepth {
            ancestors.append(parent)
            next = site.taxonomy.tags[parent].parent
        }
        return ancestors.reversed()
    }

    private static func tagLinks(of site: Site, routes: Routes) -> [TagLink] {
        site.taxonomy.tags.map { tag in
            TagLink(name: tag.name, url: routes.url(Routes.tag(tag.slug)), count: tag.count, key: tag.key)
        }
    }

    /// What every list of posts shows of one post (its tags are in ``postTagIndices``, since their
    /// indices move when a tag is added or removed).
    ///
    /// A class: summaries are shared by renderers (after an edit, `tagflow serve` keeps most of
    /// them) and copied between arrays, and a reference is one retain where the texts were nine.
    final class PostSummary: Sendable {
        let title: String
        let url: String
        let permalink: String
        let dateDisplay: String
        let dateISO: String
        let dateRFC3339: String
        let summary: String
        let isDraft: Bool
        let isScheduled: Bool
        /// The tag list as the plugin draws it in a list of posts.
        let tagsHTML: String?
        /// The post's entry in the sitemap (`nil` for a draft), shared by every sitemap this
        /// summary is in, so that it is rendered once: `tagflow serve` renders the sitemap again
        /// after each edit that adds or removes a tag.
        let sitemapEntry: SharedContext?

        init(
            title: String, url: String, permalink: String, dateDisplay: String, dateISO: String, dateRFC3339: String,
            summary: String, isDraft: Bool, isScheduled: Bool, tagsHTML: String?, sitemapEntry: SharedContext?
        ) {
            self.title = title
            self.url = url
            self.permalink = permalink
            self.dateDisplay = dateDisplay
            self.dateISO = dateISO
            self.dateRFC3339 = dateRFC3339
            self.summary = summary
            self.isDraft = isDraft
            self.isScheduled = isScheduled
            self.tagsHTML = tagsHTML
            self.sitemapEntry = sitemapEntry
        }
    }

    /// One page to render.
    enum Job: Sendable, Hashable {
        case home(Pagination)
        case post(Int)
        case page(Int)
        case tags
        /// Every post by year and month (`/archive/`), unless a page of the site takes that address.
        case archive
        case tag(Int, Pagination)
        /// A tag's Atom feed.
        case tagFeed(Int)
        /// Every series (`/series/`), unless a page of the site takes that address.
        case seriesList
        /// A series' page: its posts in part order (an index into the renderer's series).
        case series(Int)
        /// A series' Atom feed.
        case seriesFeed(Int)
        /// Every name of another taxonomy (`/categories/`; an index into ``SiteConfig/taxonomies``),
        /// unless a page of the site takes that address.
        case terms(Int)
        /// A page of the posts with a name of another taxonomy (`/categories/guides/`).
        case term(Int, Int, Pagination)
        /// The Atom feed of a name of another taxonomy.
        case termFeed(Int, Int)
        /// The page at a tag alias's address (an index into ``aliasRedirects``).
        case tagRedirect(Int)
        /// The page at an old address of a post or page (an index into ``pageRedirects``).
        case pageRedirect(Int)
        case notFound
        case feed
        case sitemap
    }

    var jobs: [Job] {
        let perPage = site.config.postsPerPage
        // The largest pages first: last, they kept one core busy at the end of a build while the
        // others had nothing left to take.
        var jobs: [Job] = [.sitemap, .feed, .tags]
        if hasArchive { jobs.append(.archive) }
        if hasSeriesList { jobs.append(.seriesList) }
        jobs += Pagination.pages(itemCount: site.posts.count, perPage: perPage).map(Job.home)
        jobs += site.posts.indices.map(Job.post)
        jobs += site.pages.indices.map(Job.page)
        for index in series.series.indices { jobs += [.series(index), .seriesFeed(index)] }
        for (taxonomy, terms) in site.termTaxonomies.enumerated() {
            if hasTermList(taxonomy) { jobs.append(.terms(taxonomy)) }
            for (index, term) in terms.tags.enumerated() {
                jobs += Pagination.pages(itemCount: term.count, perPage: perPage).map { Job.term(taxonomy, index, $0) }
                jobs.append(.termFeed(taxonomy, index))
            }
        }
        for (index, tag) in site.taxonomy.tags.enumerated() {
            jobs += Pagination.pages(itemCount: tag.count, perPage: perPage).map { Job.tag(index, $0) }
            jobs.append(.tagFeed(index))
        }
        jobs += aliasRedirects.indices.map(Job.tagRedirect)
        jobs += pageRedirects.indices.map(Job.pageRedirect)
        jobs.append(.notFound)
        return jobs
    }

    /// Whether the site has the generated archive: a page of its own at `/archive/` (an archive
    /// the author wrote, say) takes the address instead.
    var hasArchive: Bool {
        !sitePageTakes("archive")
    }

    /// Whether a page of the site's own has the slug `name`, and so takes the top-level address a
    /// generated list (`/archive/`, `/series/`, `/categories/`) would have.
    private func sitePageTakes(_ name: String) -> Bool {
        site.pages.contains { $0.slug.rawValue == name }
    }

    /// Whether the site has the generated list of series: only when a post is in one, and a page
    /// of its own at `/series/` takes the address instead, as for ``hasArchive``.
    var hasSeriesList: Bool {
        !series.series.isEmpty && !sitePageTakes("series")
    }

    /// Whether another taxonomy has its generated list (`/categories/`): only when a post gives
    /// it a name, and a page of the site at that address takes it instead.
    func hasTermList(_ taxonomy: Int) -> Bool {
        !site.termTaxonomies[taxonomy].tags.isEmpty && !sitePageTakes(site.config.taxonomies[taxonomy].name)
    }

    /// The theme's and the plugins' asset files (stylesheets, fonts).
    var assets: [OutputFile] {
        BuiltInTheme.assets.map { OutputFile(path: $0.key, text: $0.value) }
            + hooks.assets.map { OutputFile(path: $0.key, contents: $0.value) }
    }

    /// This renderer with every post's summary and the shared tag lists made (in parallel).
    ///
    /// - Parameters:
    ///   - digests: The source files' digests; with them the renderer also knows each page's
    ///     key (``keys(of:)``).
    ///   - previous: A renderer of an earlier version of the site with the same settings,
    ///     prepared with digests: the summaries and tag lists whose inputs did not change are taken
    ///     from it, and the related posts and related tags when every post lists the same tags in the
    ///     same place.
    /// - Returns: The renderer, ready to render pages.
    func prepared(digests: ContentDigests? = nil, reusing previous: SiteRenderer? = nil) async -> SiteRenderer {
        var renderer = self
        let taxonomy = site.taxonomy
        renderer.postTagIndices = site.posts.map { post in post.tagKeys.compactMap { taxonomy.indexByKey[$0] } }
        let tagPosts = taxonomy.tags.map(\.postIndices)
        // Related posts and related tags are made of places alone: each post's tags, and each
        // tag's posts. When both are the previous renderer's, so are they.
        let samePlaces =
            previous.map {
                $0.postTagIndices == renderer.postTagIndices && $0.site.taxonomy.tags.map(\.postIndices) == tagPosts
            } ?? false
        if samePlaces, let previous {
            renderer.relatedPosts = previous.relatedPosts
        } else {
            renderer.relatedPosts = await RelatedPosts.all(
                postTags: renderer.postTagIndices, tagPosts: tagPosts, limit: site.config.related.limit)
        }
        let lists = hooks.tagListRenderer
        let withTags = renderer
        let related: [[Int]]
        if lists == nil && digests == nil {
            related = []
        } else if samePlaces, let previous, previous.relatedIndices.count == taxonomy.tags.count {
            related = previous.relatedIndices
        } else {
            // Related tags are needed for the keys even without a plugin to draw them.
            related = await ParallelMap.map(Array(taxonomy.tags.indices)) { withTags.relatedTagIndices(of: $0) }
        }
        renderer.relatedIndices = related
        if let digests {
            renderer.keys = PageKeys(
                site: site, tagLinks: tagLinks, postTagIndices: renderer.postTagIndices, relatedTags: related,
                content: digests, countsShown: countsShown, fileLinks: renderer.fileLinks.digest)
        }
        let keys = renderer.keys
        let reuse = keys != nil ? previous?.reusable : nil
        let makesSummaries = renderer
        let entries = await ParallelMap.map(Array(site.posts.indices)) { index in
            guard let key = keys?.summaries[index], let entry = reuse?.entries[key] else {
                return makesSummaries.listEntry(of: index)
            }
            // A context notes the post's place, which moves when a post is added before it.
            guard entry.1.noting?.input == PageInput(.summaryTags, index) else {
                return makesSummaries.listEntry(of: index, summary: entry.0)
            }
            return entry
        }
        renderer.summaries = entries.map(\.0)
        renderer.listedPosts = entries.map(\.1)
        renderer.makeSiteLists()
        guard let lists else { return renderer }
        let cloudsKept = reuse.map { $0.allTags == keys?.allTags } ?? false
        await renderer.drawLists(lists, clouds: cloudsKept ? (reuse?.homeCloudHTML, reuse?.cloudHTML) : nil) { index in
            keys.flatMap { reuse?.related[$0.related[index]] }
        }
        return renderer
    }

    /// Draws the clouds and each tag's related tags, and records their digests in the keys.
    ///
    /// - Parameters:
    ///   - lists: The plugin that draws tag lists.
    ///   - clouds: The home cloud and the `/tags/` cloud, when they can be taken as they are.
    ///   - drawn: A tag's related tags already drawn by an earlier renderer (`nil`: draw them).
    private mutating func drawLists(
        _ lists: any TagListRenderer, clouds: (home: String?, all: String?)?,
        drawn: @escaping @Sendable (Int) -> String??
    ) async {
        let tags = site.taxonomy.tags
        let links = tagLinks
        let related = relatedIndices
        // The clouds are drawn beside the related tags: each is a layout of every tag.
        async let homeCloud = clouds == nil ? lists.html(for: links, role: .homeCloud) : clouds?.home
        let cloudLinks = cloudLinks
        async let cloud = clouds == nil ? lists.html(for: cloudLinks, role: .cloud) : clouds?.all
        relatedHTML = await ParallelMap.map(Array(tags.indices)) { index in
            if let html = drawn(index) { return html }
            return lists.html(for: related[index].map { links[$0] }, role: .related(current: tags[index].key))
        }
        homeCloudHTML = await homeCloud
        cloudHTML = await cloud
        // A tag page shows its related tags as drawn: cut to `chips.related_limit`, a list that
        // changed past the limit draws the same block.
        keys?.drawnRelated = relatedHTML.map(PageKeys.digest(of:))
        keys?.drawnHomeCloud = PageKeys.digest(of: homeCloudHTML)
    }

    /// Takes in new versions of posts that keep their places, their tags perhaps edited too.
    ///
    /// Each edited post keeps its slug, date and draft flag, so its place in the site. Needs a
    /// renderer prepared with digests.
    ///
    /// What the edit did not reach is kept (posts keep their places, and tags their order, past
    /// the tags added or removed): the related posts of the posts that list no tag an edited post
    /// gained or lost (``RelatedPosts/updated(_:retagged:changedTags:postTags:tagPosts:limit:)``);
    /// the related tags of the tags no edited post lists before or after; the summaries and list
    /// entries of posts whose summary key is the same; each drawn block whose key is the same; and
    /// the clouds when no tag link changed. The renderer is changed in place:
    /// `tagflow serve` holds the only copy, and a copy of a 10 000-post site and of its summaries
    /// was a large part of a tag edit.
    ///
    /// - Parameter posts: Index in ``Site/posts`` → the new post and its source file's digest.
    /// - Returns: The warnings of the new taxonomy (``Taxonomy/retagged(posts:previousTagKeys:)``),
    ///   or `nil` when no edited post lists other tags: the taxonomy is then the same.
    mutating func replace(_ posts: [Int: (post: Post, digest: Digest)]) async -> [Diagnostic]? {
        guard let previousKeys = keys else { preconditionFailure("replacing needs a renderer prepared with digests") }
        // The posts that list other tags, or list them on other lines, with the tags they listed.
        var previousTagKeys: [Int: [TagKey]] = [:]
        for (index, replacement) in posts {
            let old = site.posts[index]
            precondition(
                old.slug == replacement.post.slug && old.date == replacement.post.date
                    && old.isDraft == replacement.post.isDraft,
                "a replaced post keeps its place")
            if old.tags != replacement.post.tags || old.tagsLocation != replacement.post.tagsLocation {
                previousTagKeys[index] = old.tagKeys
            }
            site.posts[index] = replacement.post
        }
        let previousTaxonomy = site.taxonomy
        let diagnostics = previousTagKeys.isEmpty ? nil : await retag(previousTagKeys)
        let taxonomy = site.taxonomy
        var keys = previousKeys
        if diagnostics == nil {
            // The same tags: only the edited posts' digests and summaries change.
            for (index, replacement) in posts {
                keys.content.posts[index] = replacement.digest
                keys.content.summaries[index] = ContentDigests.summary(of: replacement.post)
                keys.summaries[index] = PageKeys.summaryKey(
                    post: keys.content.summaries[index], tags: keys.postTags[index])
            }
        } else {
            var content = previousKeys.content
            for (index, replacement) in posts {
                content.posts[index] = replacement.digest
                content.summaries[index] = ContentDigests.summary(of: replacement.post)
            }
            keys = PageKeys(
                site: site, tagLinks: tagLinks, postTagIndices: postTagIndices, relatedTags: relatedIndices,
                content: content, countsShown: countsShown, fileLinks: previousKeys.fileLinks)
        }
        self.keys = keys
        // The others are the same (their tags' indices are in `postTagIndices`).
        let whole = summaries.count == site.posts.count && listedPosts.count == site.posts.count
        let remade =
            whole
            ? site.posts.indices.filter { keys.summaries[$0] != previousKeys.summaries[$0] } : Array(site.posts.indices)
        let withKeys = self
        let entries = await ParallelMap.map(remade) { withKeys.listEntry(of: $0) }
        if whole {
            for (index, entry) in zip(remade, entries) {
                summaries[index] = entry.0
                listedPosts[index] = entry.1
            }
        } else {
            summaries = entries.map(\.0)
            listedPosts = entries.map(\.1)
        }
        makeSiteLists()
        // The same tags: the drawn blocks are the same too.
        guard diagnostics != nil, let lists = hooks.tagListRenderer else { return diagnostics }
        let previousRelatedHTML = relatedHTML
        let related = keys.related
        let clouds = keys.allTags == previousKeys.allTags ? (homeCloudHTML, cloudHTML) : nil
        await drawLists(lists, clouds: clouds) { index in
            guard let previous = previousTaxonomy.indexByKey[taxonomy.tags[index].key],
                previousRelatedHTML.indices.contains(previous), related[index] == previousKeys.related[previous]
            else { return nil }
            return previousRelatedHTML[previous]
        }
        return diagnostics
    }

    /// Counts the taxonomy again after the posts at the indices of `previousTagKeys` listed other
    /// tags, and makes again what is made of the tags, keeping what the edit did not reach.
    ///
    /// - Returns: The warnings of the new taxonomy.
    private mutating func retag(_ previousTagKeys: [Int: [TagKey]]) async -> [Diagnostic] {
        let previousTaxonomy = site.taxonomy
        let diagnostics: [Diagnostic]
        (site.taxonomy, diagnostics) = previousTaxonomy.retagged(posts: site.posts, previousTagKeys: previousTagKeys)
        let taxonomy = site.taxonomy
        tagLinks = Self.tagLinks(of: site, routes: routes)
        tagChildren = Self.tagChildren(of: taxonomy)
        aliasRedirects = Self.aliasRedirects(of: site)
        postTagContexts = Self.postTagContexts(tagLinks, reads: tagCountReads)
        // Where each earlier tag is now (`nil`: no post has it any more).
        let moved = previousTaxonomy.tags.map { taxonomy.indexByKey[$0.key] }
        let movedAny = moved.indices.contains { moved[$0] != $0 } || moved.count != taxonomy.tags.count
        for index in postTagIndices.indices {
            if previousTagKeys[index] != nil {
                postTagIndices[index] = site.posts[index].tagKeys.compactMap { taxonomy.indexByKey[$0] }
            } else if movedAny {
                postTagIndices[index] = postTagIndices[index].compactMap { moved[$0] }
            }
        }
        // The tags an edited post lists before or after (their related tags can change), and
        // those it gained or lost (only their posts changed).
        var touched: Set<TagKey> = []
        var gainedOrLost: Set<TagKey> = []
        for (index, tags) in previousTagKeys where tags != site.posts[index].tagKeys {
            touched.formUnion(tags)
            touched.formUnion(site.posts[index].tagKeys)
            gainedOrLost.formUnion(Set(tags).symmetricDifference(site.posts[index].tagKeys))
        }
        if !touched.isEmpty {
            relatedPosts = await RelatedPosts.updated(
                relatedPosts, retagged: Set(previousTagKeys.keys),
                changedTags: Set(gainedOrLost.compactMap { taxonomy.indexByKey[$0] }), postTags: postTagIndices,
                tagPosts: taxonomy.tags.map(\.postIndices), limit: site.config.related.limit)
        }
        let edited = touched
        let previousRelated = relatedIndices
        let withTags = self
        relatedIndices = await ParallelMap.map(Array(taxonomy.tags.indices)) { index in
            // A tag no edited post lists (or stopped listing) has the same posts, with the same tags.
            let key = taxonomy.tags[index].key
            if !edited.contains(key), let previous = previousTaxonomy.indexByKey[key],
                previousRelated.indices.contains(previous)
            {
                return previousRelated[previous].compactMap { moved[$0] }
            }
            return withTags.relatedTagIndices(of: index)
        }
        return diagnostics
    }

    /// What a later ``prepared(digests:reusing:)`` can take from an earlier renderer, by key.
    private struct Reusable {
        /// Each post's summary and list entry, by summary key.
        var entries: [Digest: (PostSummary, SharedContext)]
        var related: [Digest: String?]
        var allTags: Digest
        var homeCloudHTML: String?
        var cloudHTML: String?
    }

    private var reusable: Reusable? {
        guard let keys else { return nil }
        let pairs = zip(summaries, listedPosts).map { ($0, $1) }
        return Reusable(
            entries: Dictionary(zip(keys.summaries, pairs), uniquingKeysWith: { first, _ in first }),
            related: Dictionary(zip(keys.related, relatedHTML), uniquingKeysWith: { first, _ in first }),
            allTags: keys.allTags, homeCloudHTML: homeCloudHTML, cloudHTML: cloudHTML)
    }

    /// The site path of the page a job renders (`/posts/slug/`, `/page/2/`, `/feed.xml`); its file
    /// is `Routes.file(for:)` of it.
    func path(of job: Job) -> String {
        switch job {
        case .home(let pagination): Pagination.path(of: pagination.page, firstPagePath: Routes.home)
        case .post(let index): Routes.post(site.posts[index].slug)
        case .page(let index): Routes.page(site.pages[index].slug)
        case .tags: Routes.tags
        case .archive: Routes.archive
        case .tag(let index, let pagination):
            Pagination.path(of: pagination.page, firstPagePath: Routes.tag(site.taxonomy.tags[index].slug))
        case .notFound: Routes.notFound
        case .feed: Routes.feed
        case .tagFeed(let index): Routes.tagFeed(site.taxonomy.tags[index].slug)
        case .seriesList: Routes.seriesList
        case .series(let index): Routes.series(series.series[index].slug)
        case .seriesFeed(let index): Routes.seriesFeed(series.series[index].slug)
        case .terms(let taxonomy): Routes.terms(in: site.config.taxonomies[taxonomy].name)
        case .term(let taxonomy, let index, let pagination):
            Pagination.path(of: pagination.page, firstPagePath: termPath(taxonomy, index))
        case .termFeed(let taxonomy, let index):
            Routes.termFeed(site.termTaxonomies[taxonomy].tags[index].slug, in: site.config.taxonomies[taxonomy].name)
        case .tagRedirect(let index): Routes.tag(aliasRedirects[index].slug)
        case .pageRedirect(let index): pageRedirects[index].path
        case .sitemap: Routes.sitemap
        }
    }

    /// The output file a job writes (what ``render(_:reads:)`` returns as the file's path).
    func outputPath(of job: Job) -> String {
        Routes.file(for: path(of: job))
    }

    /// Renders a job's page, noting in `reads` what it read.
    func render(_ job: Job, reads: PageReads = PageReads()) -> (file: OutputFile, diagnostics: [Diagnostic]) {
        PageReads.$current.withValue(reads) { rendered(job, reads) }
    }

    private func rendered(_ job: Job, _ reads: PageReads) -> (file: OutputFile, diagnostics: [Diagnostic]) {
        switch job {
        case .tagRedirect(let index):
            let path = self.path(of: job)
            let tag = aliasRedirects[index].tag
            reads.note(.tagLink, tag)
            let page = redirectPage(
                at: Routes.file(for: path), to: Routes.tag(site.taxonomy.tags[tag].slug), title: tagLinks[tag].name,
                sentence: "tag_moved", placeholder: "tag")
            return (OutputFile(path: Routes.file(for: path), text: page), [])
        case .pageRedirect(let index):
            let target = pageRedirects[index].target
            switch target {
            case .post(let post): reads.note(.post, post)
            case .page(let page): reads.note(.page, page)
            }
            let destination = destination(of: target)
            let file = Routes.file(for: pageRedirects[index].path)
            let page = redirectPage(
                at: file, to: destination.path, title: destination.title, sentence: "page_moved", placeholder: "page")
            return (OutputFile(path: file, text: page), [])
        default:
            guard let made = templateContext(of: job, reads: reads) else {
                preconditionFailure("every other job has a template")
            }
            return (page(path(of: job), made.template, made.context), made.diagnostics)
        }
    }

    /// The template a job's page is rendered with and the values it gets (`nil` for the redirect
    /// pages, written without a template), with the diagnostics of rendering its Markdown.
    ///
    /// What it reads of the site it notes in `reads`, by the ``PageInput`` whose value holds it:
    /// the page's key is made from those (``keys(of:)``).
    func templateContext(of job: Job, reads: PageReads = PageReads()) -> (
        template: String, context: TemplateObject, diagnostics: [Diagnostic]
    )? {
        switch job {
        case .tagRedirect, .pageRedirect: return nil
        case .home(let pagination):
            let path = self.path(of: job)
            var context = base(path: path, title: site.config.title, description: site.config.description, reads)
            reads.note(.homePage, pagination.page)
            context["posts"] = .list(pagination.range.map { .shared(listed($0, reads)) })
            context["pagination"] = .object(paginationContext(pagination, firstPagePath: Routes.home))
            // The cloud is on the first page only: later pages are for reading on, and a cloud of
            // every tag on each of them would be most of the site's bytes on a large blog.
            if pagination.page == 1 { reads.note(.homeCloud) }
            if pagination.page == 1,
                let html = homeCloudHTML ?? hooks.tagListRenderer?.html(for: tagLinks, role: .homeCloud)
            {
                context["cloud_html"] = .text(html)
            }
            return ("home", context, [])
        case .post(let index):
            let post = site.posts[index]
            let path = self.path(of: job)
            reads.note(.post, index)
            var context = base(path: path, title: post.title, description: post.description, reads)
            var details = summary(of: index, role: .post, reads)
            let (content, diagnostics) = contentHTML(post.body, sourcePath: post.sourcePath, pagePath: path, reads)
            details["content"] = .text(content)
            let minutes = max(1, (post.body.wordCount + 219) / 220)
            details["reading_minutes"] = .number(minutes)
            details["reading_time"] = .text(strings.counted("reading_time", minutes))
            languageAttributes(post.language, into: &details)
            if let series = seriesContext(of: index, reads) { details["series"] = .object(series) }
            details["taxonomies"] = .list(termsContext(of: index, reads).map(TemplateValue.object))
            if post.showsTableOfContents ?? site.config.markdown.toc,
                let toc = TableOfContents.html(for: post.body.headings)
            {
                details["toc"] = .text(toc)
            }
            if let updated = post.updated {
                details["updated_display"] = .text(updated.displayDay(in: timeZone, strings: strings))
                details["updated_rfc3339"] = .text(updated.rfc3339(in: timeZone))
            }
            let related = relatedPosts.indices.contains(index) ? relatedPosts[index] : []
            reads.note(.relatedPosts, index)
            details["related"] = .list(related.map { .object(relatedContext(of: $0, to: index, reads)) })
            details["has_related"] = .flag(!related.isEmpty)
            reads.note(.neighbours, index)
            if index > 0 { details["newer"] = .shared(listed(index - 1, reads)) }
            if index + 1 < site.posts.count { details["older"] = .shared(listed(index + 1, reads)) }
            details["params"] = Self.templateValue(.map(post.params))
            context["post"] = .object(details)
            return (post.template ?? "post", context, diagnostics)
        case .page(let index):
            let item = site.pages[index]
            let path = self.path(of: job)
            reads.note(.page, index)
            var context = base(path: path, title: item.title, description: item.description, reads)
            let (content, diagnostics) = contentHTML(item.body, sourcePath: item.sourcePath, pagePath: path, reads)
            if case .object(var details)? = context["page"] {
                details["content"] = .text(content)
                details["params"] = Self.templateValue(.map(item.params))
                languageAttributes(item.language, into: &details)
                context["page"] = .object(details)
            }
            return (item.template ?? "page", context, diagnostics)
        case .tags:
            var context = base(
                path: Routes.tags, title: strings.text("tags"),
                description: strings.text("tags_description", ["site": site.config.title]), reads)
            reads.note(.allTags)
            reads.note(.postCount)
            let links = tagLinks
            context["tags"] = .list(links.map { .object(tagContext($0)) })
            context["cloud_tags"] = .list(cloudLinks.map { .object(tagContext($0)) })
            if site.config.tagHierarchy { context["groups"] = .list(tagGroups().map(TemplateValue.object)) }
            context["tag_count"] = .number(links.count)
            context["post_count"] = .number(site.posts.count)
            context["summary_text"] = .text(
                strings.text(
                    "tags_across_posts",
                    [
                        "tags": strings.counted("tag_count", links.count),
                        "posts": strings.counted("post_count", site.posts.count),
                    ]))
            if let html = cloudHTML ?? hooks.tagListRenderer?.html(for: cloudLinks, role: .cloud) {
                context["cloud_html"] = .text(html)
            }
            return ("tags", context, [])
        case .tag(let index, let pagination):
            let tag = site.taxonomy.tags[index]
            let firstPage = Routes.tag(tag.slug)
            let path = self.path(of: job)
            var context = base(
                path: path, title: tag.name,
                description: strings.text("tag_description", ["tag": tag.name, "site": site.config.title]), reads)
            reads.note(.tagLink, index)
            var tagDetails = tagContext(tagLinks[index])
            tagDetails["posts_word"] = .text(tag.count == 1 ? "post" : "posts")
            tagDetails["heading"] = .text(strings.text("tagged", ["tag": tag.name]))
            tagDetails["count_text"] = .text(strings.counted("post_count", tag.count))
            if site.config.tagHierarchy { hierarchyContext(of: index, into: &tagDetails, page: &context, reads) }
            context["tag"] = .object(tagDetails)
            reads.note(.tagPage, index, pagination.page)
            context["posts"] = .list(pagination.range.map { .shared(listed(tag.postIndices[$0], reads)) })
            context["pagination"] = .object(paginationContext(pagination, firstPagePath: firstPage))
            reads.note(.relatedTags, index)
            if relatedHTML.indices.contains(index) {
                if let html = relatedHTML[index] { context["related_html"] = .text(html) }
            } else if let html = hooks.tagListRenderer?.html(
                for: relatedTags(of: index), role: .related(current: tag.key))
            {
                context["related_html"] = .text(html)
            }
            return ("tag", context, [])
        case .archive:
            var context = base(
                path: Routes.archive, title: strings.text("archive"),
                description: strings.text("archive_description", ["site": site.config.title]), reads)
            context["archive"] = .object(archiveContext(reads))
            return ("archive", context, [])
        case .seriesList:
            var context = base(
                path: Routes.seriesList, title: strings.text("series"),
                description: strings.text("series_list_description", ["site": site.config.title]), reads)
            reads.note(.seriesList)
            context["series_list"] = .list(series.series.indices.map { .object(seriesLink($0)) })
            context["series_count"] = .number(series.series.count)
            return ("series-list", context, [])
        case .series(let index):
            let members = series.series[index]
            var context = base(
                path: Routes.series(members.slug), title: members.name,
                description: strings.text("series_description", ["series": members.name, "site": site.config.title]),
                reads)
            reads.note(.series, index)
            var details = seriesLink(index)
            reads.note(.listExists, -1)
            if hasSeriesList { details["list_url"] = .text(routes.url(Routes.seriesList)) }
            context["series"] = .object(details)
            context["posts"] = .list(members.posts.map { .shared(listed($0, reads)) })
            return ("series", context, [])
        case .terms(let taxonomy):
            let path = self.path(of: job)
            var context = base(
                path: path, title: termTitles[taxonomy], description: "\(termTitles[taxonomy]) · \(site.config.title)",
                reads)
            reads.note(.terms, taxonomy)
            let links = termLinks[taxonomy]
            context["taxonomy"] = .object(taxonomyContext(taxonomy, reads))
            context["terms"] = .list(links.map { .object(tagContext($0)) })
            if let html = hooks.tagListRenderer?.html(
                for: links, role: .terms(title: termTitles[taxonomy], counts: true))
            {
                context["cloud_html"] = .text(html)
            }
            return ("terms", context, [])
        case .term(let taxonomy, let index, let pagination):
            let term = site.termTaxonomies[taxonomy].tags[index]
            let path = self.path(of: job)
            var context = base(
                path: path, title: term.name,
                description: strings.text("term_description", ["term": term.name, "site": site.config.title]), reads)
            reads.note(.termLink, taxonomy, index)
            var details = tagContext(termLinks[taxonomy][index])
            details["count_text"] = .text(strings.counted("post_count", term.count))
            context["term"] = .object(details)
            context["taxonomy"] = .object(taxonomyContext(taxonomy, reads))
            reads.note(.termPage, taxonomy, index, pagination.page)
            context["posts"] = .list(pagination.range.map { .shared(listed(term.postIndices[$0], reads)) })
            context["pagination"] = .object(
                paginationContext(pagination, firstPagePath: termPath(taxonomy, index)))
            return ("term", context, [])
        case .notFound:
            var context = base(path: Routes.notFound, title: strings.text("page_not_found"), description: "", reads)
            context["not_found_html"] = .text(
                Self.sentenceHTML(
                    strings.text("not_found_text"),
                    links: [
                        "latest_posts": (routes.url(Routes.home), strings.text("latest_posts")),
                        "tag_list": (routes.url(Routes.tags), strings.text("tag_list")),
                    ]))
            return ("404", context, [])
        case .feed:
            reads.note(.feed)
            return ("atom", feedContext(reads), [])
        case .tagFeed(let index):
            reads.note(.tagLink, index)
            reads.note(.tagFeed, index)
            return ("atom", tagFeedContext(index, reads), [])
        case .seriesFeed(let index):
            reads.note(.series, index)
            reads.note(.seriesFeed, index)
            return ("atom", seriesFeedContext(index, reads), [])
        case .termFeed(let taxonomy, let index):
            let term = site.termTaxonomies[taxonomy].tags[index]
            let feed = path(of: job)
            reads.note(.termLink, taxonomy, index)
            reads.note(.termFeed, taxonomy, index)
            return (
                "atom",
                feedContext(
                    entries: term.postIndices, title: "\(term.name) · \(site.config.title)", path: feed,
                    alternate: routes.permalink(termPath(taxonomy, index)), id: routes.permalink(feed),
                    fullContent: false, reads), []
            )
        case .sitemap:
            return ("sitemap", sitemapContext(reads), [])
        }
    }

    private func page(_ path: String, _ template: String, _ context: TemplateObject) -> OutputFile {
        var bytes = theme.bytes(rendering: context, with: template)
        let file = Routes.file(for: path)
        // The 404 page is served at any address, where only links from the root lead home.
        if site.config.relativeLinks, file.hasSuffix(".html"), path != Routes.notFound {
            bytes = RelativeLinks.rewritten(bytes, file: file, basePath: site.config.basePath)
        }
        // One forbidden character in a title or a post makes a whole feed unreadable.
        return OutputFile(path: file, contents: file.hasSuffix(".xml") ? XMLCharacters.sanitized(bytes) : bytes)
    }

    // MARK: Contexts

    private func base(path: String, title: String, description: String, _ reads: PageReads) -> TemplateObject {
        var page: TemplateObject = [
            "title": .text(title), "url": .text(routes.url(path)), "permalink": .text(routes.permalink(path)),
        ]
        // Mustache treats "" as true, so empty optional texts are left out rather than set.
        if !description.isEmpty { page["description"] = .text(description) }
        return ["site": siteValue(reads), "strings": stringsContext, "page": .object(page)]
    }

    /// `site` with `posts` and `site.tags` for a theme that reads them (``Theme/readsSiteLists``),
    /// made once for every page by ``makeSiteLists()``.
    private var siteWithLists: TemplateValue?

    /// The `site` object of every page and feed: the settings and the pages menu, and the lists
    /// when the theme reads them.
    private func siteValue(_ reads: PageReads) -> TemplateValue {
        reads.note(.menu)
        guard theme.readsSiteLists else { return siteContext }
        reads.note(.siteLists)
        return siteWithLists ?? withSiteLists()
    }

    /// Makes `site.posts` (every post as lists show it, newest first) and `site.tags` (every
    /// tag, in the taxonomy's order) from the list entries, if the theme reads them.
    private mutating func makeSiteLists() {
        siteWithLists = theme.readsSiteLists ? withSiteLists() : nil
    }

    private func withSiteLists() -> TemplateValue {
        guard case .object(var object) = siteContext else { return siteContext }
        // Made once for every page: a page that shows them notes them as one input (``siteValue(_:)``).
        let reads = PageReads()
        object["posts"] = .list(site.posts.indices.map { .shared(listed($0, reads)) })
        object["tags"] = .list(tagLinks.map { .object(tagContext($0)) })
        return .object(object)
    }

    /// The `strings` object of every page: each string by key, and the footer's sentence with its
    /// link.
    private let stringsContext: TemplateValue

    private static func makeStringsContext(_ strings: SiteStrings) -> TemplateValue {
        var context = TemplateObject()
        for (key, text) in strings.all.sorted(by: { $0.key < $1.key }) { context[key] = .text(text) }
        context["built_with_html"] = .text(
            sentenceHTML(
                strings.text("built_with"), links: ["tagflow": ("https://github.com/tagflow/tagflow", "Tagflow")]))
        return .object(context)
    }

    /// A sentence of the strings table as HTML: its text escaped, each placeholder in `links` a link.
    static func sentenceHTML(_ sentence: String, links: [String: (url: String, text: String)]) -> String {
        var html = ""
        for part in SiteStrings.parts(of: sentence) {
            switch part {
            case .text(let text): html += HTMLEscaping.escaped(text)
            case .placeholder(let name):
                if let link = links[name] {
                    html += "<a href=\"\(HTMLEscaping.escaped(link.url))\">\(HTMLEscaping.escaped(link.text))</a>"
                } else {
                    html += HTMLEscaping.escaped("{\(name)}")
                }
            }
        }
        return html
    }

    /// The `site` object every page's template gets, made once.
    ///
    /// Made per page it was a measurable share of a large build. It holds no posts and no tags, what
    /// ``replace(_:)`` changes.
    private let siteContext: TemplateValue

    private static func makeSiteContext(
        site: Site, hooks: PluginContext, routes: Routes, strings: SiteStrings
    ) -> TemplateValue {
        let config = site.config
        var context: TemplateObject = [
            "title": .text(config.title), "language": .text(config.language), "base_url": .text(config.baseURL),
            "base_path": .text(config.basePath),
            "permalink": .text(routes.permalink(Routes.home)), "home_url": .text(routes.url(Routes.home)),
            "tags_url": .text(routes.url(Routes.tags)), "feed_url": .text(routes.url(Routes.feed)),
            // A page of the site's own at `/archive/` takes the address (``hasArchive``): the same URL.
            "archive_url": .text(routes.url(Routes.archive)),
            "css_url": .text(routes.url(Routes.stylesheet)),
            "stylesheets": .list(hooks.stylesheets.map { .text(routes.url($0)) }),
            "pages": .list(
                site.pages.map { .object(["title": .text($0.title), "url": .text(routes.url(Routes.page($0.slug)))]) }),
        ]
        if !config.description.isEmpty { context["description"] = .text(config.description) }
        if !config.author.isEmpty { context["author"] = .text(config.author) }
        if strings.isRightToLeft { context["is_rtl"] = .flag(true) }
        return .object(context)
    }

    private func tagIndices(of postIndex: Int) -> [Int] {
        if postTagIndices.indices.contains(postIndex) { return postTagIndices[postIndex] }
        return site.posts[postIndex].tagKeys.compactMap { site.taxonomy.indexByKey[$0] }
    }

    /// A post's summary: the one ``prepared(digests:reusing:)`` made, or a new one for a renderer
    /// that was not prepared.
    private func postSummary(_ index: Int) -> PostSummary {
        summaries.indices.contains(index) ? summaries[index] : makeSummary(of: index)
    }

    func makeSummary(of index: Int) -> PostSummary {
        let post = site.posts[index]
        let path = Routes.post(post.slug)
        let tagIndices = tagIndices(of: index)
        let html =
            tagIndices.isEmpty ? nil : hooks.tagListRenderer?.html(for: tagIndices.map { tagLinks[$0] }, role: .summary)
        let permalink = routes.permalink(path)
        let day = post.date.isoDay(in: timeZone)
        let sitemapEntry =
            post.isUnreleased
            ? nil
            : SharedContext([
                "loc": .text(permalink), "lastmod": .text(post.updated.map { $0.isoDay(in: timeZone) } ?? day),
            ])
        return PostSummary(
            title: post.title, url: routes.url(path), permalink: permalink,
            dateDisplay: post.date.displayDay(in: timeZone, strings: strings),
            dateISO: day, dateRFC3339: post.date.rfc3339(in: timeZone), summary: post.summary, isDraft: post.isDraft,
            isScheduled: post.isScheduled, tagsHTML: html, sitemapEntry: sitemapEntry)
    }

    /// A post's summary (made anew unless given) and its context in lists of posts, which notes
    /// the post's tags as read only where a template looks them up.
    private func listEntry(of index: Int, summary: PostSummary? = nil) -> (PostSummary, SharedContext) {
        let summary = summary ?? makeSummary(of: index)
        let context = SharedContext(
            context(of: summary, tags: tagIndices(of: index), role: .summary),
            noting: (Self.tagNames, PageInput(.summaryTags, index)))
        return (summary, context)
    }

    /// The names of a post's context that show its tags.
    private static let tagNames = ["tags", "has_tags", "tags_html"]

    /// A post's context in a list of posts.
    private func listed(_ index: Int, _ reads: PageReads) -> SharedContext {
        reads.note(.summary, index)
        return listedPosts.indices.contains(index) ? listedPosts[index] : SharedContext(summary(of: index, reads))
    }

    private func summary(of index: Int, role: TagListRole = .summary, _ reads: PageReads) -> TemplateObject {
        reads.note(.summaryWithTags, index)
        let summary = postSummary(index)
        return context(of: summary, tags: tagIndices(of: index), role: role)
    }

    private func context(of summary: PostSummary, tags: [Int], role: TagListRole) -> TemplateObject {
        let links = tags.map { tagLinks[$0] }
        var context: TemplateObject = [
            "title": .text(summary.title), "url": .text(summary.url), "permalink": .text(summary.permalink),
            "date_display": .text(summary.dateDisplay), "date_iso": .text(summary.dateISO),
            "date_rfc3339": .text(summary.dateRFC3339), "summary": .text(summary.summary),
            "is_draft": .flag(summary.isDraft), "is_scheduled": .flag(summary.isScheduled),
            "tags": .list(tags.map { .shared(postTagContexts[$0]) }),
            "has_tags": .flag(!links.isEmpty),
        ]
        let drawnAsSummary =
            role == .summary || links.isEmpty || (role == .post && hooks.tagListRenderer?.drawsPostsAsSummaries == true)
        let html = drawnAsSummary ? summary.tagsHTML : hooks.tagListRenderer?.html(for: links, role: role)
        if let html { context["tags_html"] = .text(html) }
        return context
    }

    /// A related post's context on a post's page: as in lists of posts, with only the tags the
    /// two share (in the order the page's post lists them).
    private func relatedContext(of other: Int, to post: Int, _ reads: PageReads) -> TemplateObject {
        reads.note(.summaryWithTags, other)
        let summary = postSummary(other)
        let theirs = Set(tagIndices(of: other))
        let shared = tagIndices(of: post).filter(theirs.contains)
        var context = context(of: summary, tags: shared, role: .summary)
        context["tags_html"] = nil
        if !shared.isEmpty, let html = hooks.tagListRenderer?.html(for: shared.map { tagLinks[$0] }, role: .summary) {
            context["tags_html"] = .text(html)
        }
        return context
    }

    private func tagContext(_ link: TagLink) -> TemplateObject {
        [
            "name": .text(link.name), "url": .text(link.url), "count": .number(link.count),
            "feed_url": .text(link.url + "feed.xml"),
        ]
    }

    /// A nested tag's place (`tags.hierarchy`): the tags above it, for breadcrumbs, and the tags
    /// right under it, as a block of their own.
    private func hierarchyContext(
        of index: Int, into details: inout TemplateObject, page: inout TemplateObject, _ reads: PageReads
    ) {
        reads.note(.hierarchy, index)
        func link(_ tag: Int) -> TemplateObject {
            reads.note(.tagLink, tag)
            var link = tagContext(tagLinks[tag])
            link["leaf_name"] = .text(TagHierarchy.leafName(tagLinks[tag].name))
            return link
        }
        let ancestors = tagAncestors(of: index)
        let children = tagChildren[index]
        details["leaf_name"] = .text(TagHierarchy.leafName(tagLinks[index].name))
        details["parents"] = .list(ancestors.map { .object(link($0)) })
        details["has_parents"] = .flag(!ancestors.isEmpty)
        details["children"] = .list(children.map { .object(link($0)) })
        details["has_children"] = .flag(!children.isEmpty)
        details["children_label"] = .text(strings.text("child_tags", ["tag": tagLinks[index].name]))
        guard !children.isEmpty else { return }
        let leaves = children.map { child in
            reads.note(.tagLink, child)
            var leaf = tagLinks[child]
            leaf.name = TagHierarchy.leafName(leaf.name)
            return leaf
        }
        if let html = hooks.tagListRenderer?.html(for: leaves, role: .children(of: tagLinks[index])) {
            page["children_html"] = .text(html)
        }
    }

    /// The tag first, then tags sharing posts with it: most shared first, then by identity (the
    /// taxonomy's order).
    func relatedTags(of tagIndex: Int) -> [TagLink] {
        relatedTagIndices(of: tagIndex).map { tagLinks[$0] }
    }

    /// ``relatedTags(of:)`` as indices into the taxonomy.
    func relatedTagIndices(of tagIndex: Int) -> [Int] {
        var shared: [Int: Int] = [:]
        for postIndex in site.taxonomy.tags[tagIndex].postIndices {
            for other in tagIndices(of: postIndex) where other != tagIndex { shared[other, default: 0] += 1 }
        }
        let related = shared.sorted { lhs, rhs in lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key < rhs.key }
        return [tagIndex] + related.map(\.key)
    }

    /// The first page of a name of another taxonomy (`/categories/guides/`).
    func termPath(_ taxonomy: Int, _ index: Int) -> String {
        Routes.term(site.termTaxonomies[taxonomy].tags[index].slug, in: site.config.taxonomies[taxonomy].name)
    }

    /// Another taxonomy as its pages name it: its key, title and list.
    private func taxonomyContext(_ taxonomy: Int, _ reads: PageReads) -> TemplateObject {
        reads.note(.listExists, taxonomy)
        var context: TemplateObject = [
            "name": .text(site.config.taxonomies[taxonomy].name), "title": .text(termTitles[taxonomy]),
        ]
        if hasTermList(taxonomy) {
            context["url"] = .text(routes.url(Routes.terms(in: site.config.taxonomies[taxonomy].name)))
        }
        return context
    }

    /// A post's names in the other taxonomies, each taxonomy with its title, names and block.
    private func termsContext(of post: Int, _ reads: PageReads) -> [TemplateObject] {
        termIndices(of: post).compactMap { taxonomy, indices in
            guard !indices.isEmpty else { return nil }
            for index in indices { reads.note(.termLink, taxonomy, index) }
            let links = indices.map { termLinks[taxonomy][$0] }
            var context = taxonomyContext(taxonomy, reads)
            context["terms"] = .list(links.map { .object(tagContext($0)) })
            if let html = hooks.tagListRenderer?.html(
                for: links, role: .terms(title: termTitles[taxonomy], counts: false))
            {
                context["html"] = .text(html)
            }
            return context
        }
    }

    /// Each other taxonomy and the indices of a post's names in it, in the post's order.
    func termIndices(of post: Int) -> [(taxonomy: Int, indices: [Int])] {
        zip(site.config.taxonomies, site.termTaxonomies).enumerated().map { taxonomy, pair in
            let names = site.posts[post].terms[pair.0.name]
            return (taxonomy, names.compactMap { pair.1.indexByKey[TagKey($0)] })
        }
    }

    /// A series as lists show it: its name, its page and feed, and how many posts it has.
    private func seriesLink(_ index: Int) -> TemplateObject {
        let members = series.series[index]
        return [
            "name": .text(members.name), "url": .text(routes.url(Routes.series(members.slug))),
            "feed_url": .text(routes.url(Routes.seriesFeed(members.slug))), "count": .number(members.posts.count),
            "count_text": .text(strings.counted("post_count", members.posts.count)),
        ]
    }

    /// A post's series: its name and page, the post's part, and every part in order.
    private func seriesContext(of index: Int, _ reads: PageReads) -> TemplateObject? {
        guard let place = series.membership[index] else { return nil }
        reads.note(.series, place.series)
        let members = series.series[place.series].posts
        let part = String(place.position + 1)
        return [
            "name": .text(series.series[place.series].name), "part": .number(place.position + 1),
            "url": .text(routes.url(Routes.series(series.series[place.series].slug))),
            "count": .number(members.count),
            "part_text": .text(strings.text("series_part", ["part": part, "parts": String(members.count)])),
            "posts": .list(
                members.enumerated().map { position, member in
                    reads.note(.summary, member)
                    let summary = postSummary(member)
                    return .object([
                        "title": .text(summary.title), "url": .text(summary.url), "part": .number(position + 1),
                        "date_display": .text(summary.dateDisplay), "is_current": .flag(member == index),
                    ])
                }),
        ]
    }

    /// `lang` and `dir` of a post or page written in a language of its own: `dir` only where its
    /// direction is not the site's, which the page already has.
    private func languageAttributes(_ language: String?, into details: inout TemplateObject) {
        guard let language else { return }
        details["lang"] = .text(language)
        let rightToLeft = SiteStrings.isRightToLeft(language)
        if rightToLeft != strings.isRightToLeft { details["dir"] = .text(rightToLeft ? "rtl" : "ltr") }
    }

    private func paginationContext(_ pagination: Pagination, firstPagePath: String) -> TemplateObject {
        var context: TemplateObject = [
            "page": .number(pagination.page), "page_count": .number(pagination.pageCount),
            "is_first": .flag(pagination.page == 1), "has_many": .flag(pagination.pageCount > 1),
            "page_text": .text(strings.text("page_number", ["page": String(pagination.page)])),
            "position_text": .text(
                strings.text("page_of", ["page": String(pagination.page), "pages": String(pagination.pageCount)])),
        ]
        if pagination.page > 1 {
            context["newer_url"] = .text(
                routes.url(Pagination.path(of: pagination.page - 1, firstPagePath: firstPagePath)))
        }
        if pagination.page < pagination.pageCount {
            context["older_url"] = .text(
                routes.url(Pagination.path(of: pagination.page + 1, firstPagePath: firstPagePath)))
        }
        return context
    }

    /// A post's or page's content: links to Markdown files resolved and embeds drawn (a
    /// diagnostic for each that fails), images sized.
    private func contentHTML(_ body: ContentBody, sourcePath: String, pagePath: String, _ reads: PageReads) -> (
        String, [Diagnostic]
    ) {
        let bodyHTML: String
        do {
            bodyHTML = try body.html.text()
        } catch {
            return (
                "",
                [
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: sourcePath), step: "render", message: "\(error)",
                            hint: "check the temporary folder's disk (TMPDIR)", underlying: error))
                ]
            )
        }
        guard !body.embeds.isEmpty || !body.fileLinks.isEmpty else {
            return (images.sized(bodyHTML, pagePath: pagePath), [])
        }
        if !body.fileLinks.isEmpty { reads.note(.fileLinks) }
        var (html, diagnostics) = fileLinks.resolved(bodyHTML, links: body.fileLinks, sourcePath: sourcePath)
        for embed in body.embeds {
            guard let renderer = hooks.embedRenderers[embed.language] else { continue }
            do {
                html = html.replacingOccurrences(of: embed.placeholder, with: try renderer.html(for: embed))
            } catch var error as TagflowError {
                if error.location == nil {
                    error.location = SourceLocation(path: sourcePath, line: embed.line, column: 1)
                }
                diagnostics.append(Diagnostic(.error, error))
            } catch {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: sourcePath, line: embed.line, column: 1), step: "render",
                            message: "```\(embed.language) block: \(error)", underlying: error)))
            }
        }
        return (images.sized(html, pagePath: pagePath), diagnostics)
    }

    /// The site's feed: its newest released posts.
    private func feedContext(_ reads: PageReads) -> TemplateObject {
        // Its id stays the site's address, as it always was: readers know the feed by it.
        feedContext(
            entries: site.posts.indices, title: site.config.title, path: Routes.feed,
            alternate: routes.permalink(Routes.home), id: routes.permalink(Routes.home), fullContent: true, reads)
    }

    /// A tag's feed: the newest released posts with the tag, as summaries.
    ///
    /// Not whole posts: the site's feed has those, and 20 whole posts for each of a large blog's
    /// 600 tags were more bytes than the blog (docs/performance.md).
    private func tagFeedContext(_ index: Int, _ reads: PageReads) -> TemplateObject {
        let tag = site.taxonomy.tags[index]
        return feedContext(
            entries: tag.postIndices, title: "\(tag.name) · \(site.config.title)", path: Routes.tagFeed(tag.slug),
            alternate: routes.permalink(Routes.tag(tag.slug)), id: routes.permalink(Routes.tagFeed(tag.slug)),
            fullContent: false, reads)
    }

    /// A series' feed: its newest released posts, as summaries (as a tag's feed).
    private func seriesFeedContext(_ index: Int, _ reads: PageReads) -> TemplateObject {
        let members = series.series[index]
        return feedContext(
            entries: members.posts.sorted(), title: "\(members.name) · \(site.config.title)",
            path: Routes.seriesFeed(members.slug), alternate: routes.permalink(Routes.series(members.slug)),
            id: routes.permalink(Routes.seriesFeed(members.slug)), fullContent: false, reads)
    }

    /// The first `feed_entries` released posts of `indices`: a feed's entries, for its page and
    /// its key.
    ///
    /// By index: filtering the posts copied all of them to keep the first few.
    func feedEntries(_ indices: some Sequence<Int>) -> [Int] {
        Array(indices.lazy.filter { !site.posts[$0].isUnreleased }.prefix(site.config.feedEntries))
    }

    /// The feed of the first `feed_entries` released posts of `indices` (newest first).
    private func feedContext(
        entries indices: some Sequence<Int>, title: String, path: String, alternate: String, id: String,
        fullContent: Bool, _ reads: PageReads
    ) -> TemplateObject {
        let entryIndices = feedEntries(indices)
        // What an entry shows is its summary (the tags' names included), and its body when the
        // feed carries whole posts.
        for index in entryIndices {
            reads.note(.summaryWithTags, index)
            if fullContent { reads.note(.post, index) }
        }
        let entries = entryIndices.map { site.posts[$0] }
        let updated = entries.map { $0.updated ?? $0.date }.max() ?? ContentDate(secondsSince1970: 0)
        return [
            "site": siteValue(reads),
            "feed": .object([
                "title": .text(title), "permalink": .text(routes.permalink(path)), "alternate": .text(alternate),
                "id": .text(id), "full_content": .flag(fullContent),
                "updated": .text(updated.rfc3339(in: timeZone)),
                "author": .text(site.config.author.isEmpty ? site.config.title : site.config.author),
            ]),
            "entries": .list(
                entries.map { post in
                    let path = Routes.post(post.slug)
                    var entry: TemplateObject = [
                        "title": .text(post.title), "permalink": .text(routes.permalink(path)),
                        "date_rfc3339": .text(post.date.rfc3339(in: timeZone)),
                        "updated_rfc3339": .text((post.updated ?? post.date).rfc3339(in: timeZone)),
                        "summary": .text(post.summary),
                        "tags": .list(
                            post.tagKeys.compactMap { site.taxonomy[$0] }.map { .object(["name": .text($0.name)]) }),
                    ]
                    if fullContent {
                        entry["content"] = .text(
                            contentHTML(post.body, sourcePath: post.sourcePath, pagePath: path, reads).0)
                    }
                    return .object(entry)
                }),
        ]
    }

    /// A page that sends the reader on to another (a tag's, a post's): a refresh for browsers, a
    /// canonical link for search engines, and a plain link for the rest; no script.
    ///
    /// The link is `placeholder` in the string `sentence`.
    private func redirectPage(
        at file: String, to path: String, title: String, sentence: String, placeholder: String
    ) -> String {
        var link = routes.url(path)
        // With `relative_links`, opened from the file system, a link from the root would lead to
        // the disk's root.
        if site.config.relativeLinks,
            let relative = RelativeLinks.relative(
                link, from: SiteFiles.parentFolder(of: file), basePath: site.config.basePath)
        {
            link = relative
        }
        let url = HTMLEscaping.escaped(link)
        let permalink = HTMLEscaping.escaped(routes.permalink(path))
        let name = HTMLEscaping.escaped(title)
        let text = Self.sentenceHTML(strings.text(sentence), links: [placeholder: (url, title)])
        let direction = strings.isRightToLeft ? #" dir="rtl""# : ""
        return """
            <!doctype html>
            <html lang="\(HTMLEscaping.escaped(site.config.language))"\(direction)>
            <head>
            <meta charset="utf-8">
            <title>\(name)</title>
            <link rel="canonical" href="\(permalink)">
            <meta name="robots" content="noindex">
            <meta http-equiv="refresh" content="0; url=\(url)">
            </head>
            <body>
            <p>\(text)</p>
            </body>
            </html>

            """
    }

    /// Every post, newest first, by year and then month (in the site's time zone), with counts.
    private func archiveContext(_ reads: PageReads) -> TemplateObject {
        reads.note(.allPosts)
        var years: [TemplateValue] = []
        var months: [TemplateValue] = []
        var posts: [TemplateValue] = []
        var year = ""
        var month = ""
        var yearCount = 0
        func closeMonth() {
            guard !posts.isEmpty else { return }
            let number = Int(month) ?? 1
            months.append(
                .object([
                    "month": .text(month), "name": .text(strings.monthName(number)),
                    "count": .number(posts.count), "posts": .list(posts),
                ]))
            yearCount += posts.count
            posts = []
        }
        func closeYear() {
            closeMonth()
            guard !months.isEmpty else { return }
            years.append(.object(["year": .text(year), "count": .number(yearCount), "months": .list(months)]))
            months = []
            yearCount = 0
        }
        for index in site.posts.indices {
            let summary = postSummary(index)
            // `2024-03-05`: the day in the site's time zone, as the post shows it.
            let day = summary.dateISO
            let (postYear, postMonth) = (String(day.prefix(4)), String(day.dropFirst(5).prefix(2)))
            if postYear != year {
                closeYear()
                year = postYear
                month = postMonth
            } else if postMonth != month {
                closeMonth()
                month = postMonth
            }
            posts.append(.shared(listed(index, reads)))
        }
        closeYear()
        return [
            "years": .list(years), "post_count": .number(site.posts.count),
            "post_count_text": .text(strings.counted("post_count", site.posts.count)),
        ]
    }

    private func sitemapContext(_ reads: PageReads) -> TemplateObject {
        // The pages (and whether one takes `/archive/`), which posts there are, the tags', series'
        // and names' addresses, and which generated lists exist.
        reads.note(.menu)
        reads.note(.allPosts)
        reads.note(.tagAddresses)
        reads.note(.seriesList)
        reads.note(.listExists, -1)
        for taxonomy in site.termTaxonomies.indices {
            reads.note(.terms, taxonomy)
            reads.note(.listExists, taxonomy)
        }
        var urls: [TemplateValue] = [.object(["loc": .text(routes.permalink(Routes.home))])]
        urls.reserveCapacity(site.posts.count + site.pages.count + site.taxonomy.tags.count + 2)
        // By index: a `Post` copied out of the array is a dozen retains.
        for index in site.posts.indices {
            reads.note(.sitemapEntry, index)
            guard !site.posts[index].isUnreleased else { continue }
            let summary = postSummary(index)
            if let entry = summary.sitemapEntry { urls.append(.shared(entry)) }
        }
        for page in site.pages { urls.append(.object(["loc": .text(routes.permalink(Routes.page(page.slug)))])) }
        urls.append(.object(["loc": .text(routes.permalink(Routes.tags))]))
        if hasArchive { urls.append(.object(["loc": .text(routes.permalink(Routes.archive))])) }
        for tag in site.taxonomy.tags { urls.append(.object(["loc": .text(routes.permalink(Routes.tag(tag.slug)))])) }
        if hasSeriesList { urls.append(.object(["loc": .text(routes.permalink(Routes.seriesList))])) }
        for taxonomy in site.termTaxonomies.indices {
            if hasTermList(taxonomy) {
                urls.append(
                    .object(["loc": .text(routes.permalink(Routes.terms(in: site.config.taxonomies[taxonomy].name)))]))
            }
            for index in site.termTaxonomies[taxonomy].tags.indices {
                urls.append(.object(["loc": .text(routes.permalink(termPath(taxonomy, index)))]))
            }
        }
        for members in series.series {
            urls.append(.object(["loc": .text(routes.permalink(Routes.series(members.slug)))]))
        }
        return ["urls": .list(urls)]
    }

    /// Front matter values as template values.
    static func templateValue(_ value: YAMLValue) -> TemplateValue {
        switch value {
        case .null: return .flag(false)
        case .bool(let flag): return .flag(flag)
        case .int(let number): return .number(number)
        case .double(let number): return .decimal(number)
        case .string(let text): return .text(text)
        case .list(let items): return .list(items.map(templateValue))
        case .map(let mapping):
            var object: TemplateObject = [:]
            for entry in mapping.entries { object[entry.key] = templateValue(entry.value) }
            return .object(object)
        }
    }
}
