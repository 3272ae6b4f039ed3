/// Everything a site is made of, after reading: the input of plugins and of rendering.
package struct Site: Sendable, Hashable {
    /// The settings.
    package var config: SiteConfig
    /// Published posts (drafts too when asked for), newest first; ties by slug.
    package var posts: [Post]
    /// Pages that are not posts, by slug.
    package var pages: [Page]
    /// The tags.
    package var taxonomy: Taxonomy
    /// The other taxonomies' names (`categories`), in the order of ``SiteConfig/taxonomies``.
    package var termTaxonomies: [Taxonomy] = []

    /// Creates a site from loaded content, sorting it and building the taxonomy.
    package init(config: SiteConfig, posts: [Post], pages: [Page]) {
        self = Self.assemble(config: config, posts: posts, pages: pages).site
    }

    /// Holds loaded content as it is, for ``assemble(config:posts:pages:)`` to sort and index later.
    init(config: SiteConfig, unassembledPosts posts: [Post], pages: [Page]) {
        self.init(config: config, sortedPosts: posts, sortedPages: pages, taxonomy: Taxonomy(tags: [], indexByKey: [:]))
    }

    private init(config: SiteConfig, sortedPosts: [Post], sortedPages: [Page], taxonomy: Taxonomy) {
        self.config = config
        self.posts = sortedPosts
        self.pages = sortedPages
        self.taxonomy = taxonomy
    }

    /// Sorts content, builds the taxonomy and returns its warnings (tag URL collisions).
    package static func assemble(config: SiteConfig, posts: consuming [Post], pages: [Page]) -> (
        site: Site, diagnostics: [Diagnostic]
    ) {
        // In place: a list no one else holds is sorted without copying a post.
        var sortedPosts = consume posts
        sortedPosts.sort { lhs, rhs in
            lhs.date != rhs.date ? lhs.date > rhs.date : lhs.slug < rhs.slug
        }
        let (taxonomy, tagDiagnostics) = Taxonomy.build(posts: sortedPosts, hierarchy: config.tagHierarchy)
        var diagnostics = tagDiagnostics
        var site = Site(
            config: config, sortedPosts: sortedPosts, sortedPages: pages.sorted { $0.slug < $1.slug },
            taxonomy: taxonomy)
        for termTaxonomy in config.taxonomies {
            let (terms, warnings) = Taxonomy.build(posts: site.posts, hierarchy: false, of: .terms(termTaxonomy.name))
            site.termTaxonomies.append(terms)
            diagnostics += warnings
        }
        return (site, diagnostics)
    }
}

/// A slice of a list shown on one page (`/`, `/page/2/`…).
package struct Pagination: Sendable, Hashable {
    /// 1-based page number.
    package var page: Int
    /// Number of pages (at least 1, also for an empty list).
    package var pageCount: Int
    /// The indices of the items on this page.
    package var range: Range<Int>

    /// Splits `itemCount` items into pages of `perPage`.
    package static func pages(itemCount: Int, perPage: Int) -> [Pagination] {
        (1...pageCount(itemCount: itemCount, perPage: perPage)).map { number in
            Pagination(number, itemCount: itemCount, perPage: perPage)
        }
    }

    /// Page `number` of `itemCount` items in pages of `perPage`; `nil` past the last page.
    package static func page(_ number: Int, itemCount: Int, perPage: Int) -> Pagination? {
        (1...pageCount(itemCount: itemCount, perPage: perPage)).contains(number)
            ? Pagination(number, itemCount: itemCount, perPage: perPage) : nil
    }

    private init(_ number: Int, itemCount: Int, perPage: Int) {
        page = number
        pageCount = Self.pageCount(itemCount: itemCount, perPage: perPage)
        range = ((number - 1) * perPage)..<min(itemCount, number * perPage)
    }

    private static func pageCount(itemCount: Int, perPage: Int) -> Int {
        precondition(perPage > 0, "perPage must be positive")
        return max(1, (itemCount + perPage - 1) / perPage)
    }

    /// The URL path of page `number` of a list whose first page is at `firstPagePath` (ending in `/`).
    package static func path(of number: Int, firstPagePath: String) -> String {
        number == 1 ? firstPagePath : "\(firstPagePath)page/\(number)/"
    }
}
