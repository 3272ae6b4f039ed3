/// One value a page's rendering read: a post's summary, a tag's link, which posts are on the
/// second page of a tag.
///
/// Inputs are named by places in the site that was rendered (a post's index, a tag's).
///
/// A page's key is the digest of the values of the inputs its rendering read
/// (``SiteRenderer/keys(of:)``), so the keys follow what the pages show with no list
/// kept by hand of what each kind of page shows: a template that shows something new reads it
/// through the renderer, which notes it (``PageReads``). What is kept by hand is one digest per
/// kind of input (`SiteRenderer.value(of:_:_:)`, in `PageKeys.swift`).
///
/// A list's composition is an input of its own (``Kind/tagPage``: which posts, in which order),
/// apart from what the list shows of each post (``Kind/summary``): a page that read posts A, B
/// and C must also learn that D joined its list.
struct PageInput: Hashable, Sendable {
    enum Kind: UInt8, Sendable, CaseIterable {
        /// The pages menu, which every page shows.
        case menu
        /// `site.posts` and `site.tags`, for a theme that reads them.
        case siteLists
        /// A post's source file (`first`: the post).
        case post
        /// A page's source file (`first`: the page).
        case page
        /// Where links to Markdown files lead: every post's and page's file and URL.
        case fileLinks
        /// What lists show of a post apart from its tags (`first`: the post).
        case summary
        /// Which posts are just newer and just older than a post (`first`).
        case neighbours
        /// Which posts are a post's related posts (`first`), in order.
        case relatedPosts
        /// A post's entry in the sitemap: its address and dates (`first`: the post).
        case sitemapEntry
        /// Which posts the site has, in order.
        case allPosts
        /// How many posts the site has.
        case postCount
        /// A series: its name, address, and which posts are its parts, in order (`first`).
        case series
        /// Every series' name, address and size.
        case seriesList
        /// Whether a generated list exists: of series (`first` -1), or of another taxonomy's
        /// names (`first`: the taxonomy).
        case listExists
        /// A tag's link: name, URL, count (`first`: the tag).
        case tagLink
        /// Every tag's address.
        case tagAddresses
        /// A tag's related tags, as its page shows them (`first`).
        case relatedTags
        /// The tags above a tag and right under it (`first`).
        case hierarchy
        /// Every tag's link.
        case allTags
        /// The home page's cloud.
        case homeCloud
        /// A name of another taxonomy: `first` the taxonomy, `second` the name.
        case termLink
        /// Every name of another taxonomy (`first`).
        case terms
        /// Which posts are on a page of the home list: `first` the page number.
        case homePage
        /// Which posts are on a page of a tag's list: `first` the tag, `second` the page number.
        case tagPage
        /// Which posts are on a page of a name's list: `first` the taxonomy, `second` the name,
        /// `third` the page number.
        case termPage
        /// Which posts are the site feed's entries.
        case feed
        /// Which posts are a tag's feed's entries (`first`: the tag).
        case tagFeed
        /// Which posts are a series' feed's entries (`first`: the series).
        case seriesFeed
        /// Which posts are a name's feed's entries: `first` the taxonomy, `second` the name.
        case termFeed
        /// A post's tags as lists show them (`first`: the post): noted only by a page whose
        /// templates look them up (``SharedContext``).
        case summaryTags
        /// ``summary`` and ``summaryTags`` as one input, for a context made for one page (a
        /// related post, a feed's entry), which notes them as it is made.
        case summaryWithTags
    }

    var kind: Kind
    var first: Int32
    var second: Int32
    var third: Int32

    init(_ kind: Kind, _ first: Int = 0, _ second: Int = 0, _ third: Int = 0) {
        self.kind = kind
        self.first = Int32(truncatingIfNeeded: first)
        self.second = Int32(truncatingIfNeeded: second)
        self.third = Int32(truncatingIfNeeded: third)
    }
}

/// Where the rendering of one page notes what it reads (``PageInput``).
///
/// One per page rendered, used by one thread.
final class PageReads: @unchecked Sendable {
    // @unchecked: a page is rendered on one thread, and its reads are ``current`` only while that
    // rendering runs (``SiteRenderer/render(_:reads:)``).
    private(set) var inputs: [PageInput] = []

    /// The reads of the page being rendered, where values its templates look up note themselves
    /// (``SharedContext``); `nil` outside a page's rendering.
    @TaskLocal static var current: PageReads?

    init() {}

    func note(_ kind: PageInput.Kind, _ first: Int = 0, _ second: Int = 0, _ third: Int = 0) {
        inputs.append(PageInput(kind, first, second, third))
    }

    /// Where the inputs of a text being rendered to be kept start (``SharedContext/Rendering``):
    /// each such text notes its own inputs from there.
    var keptTextStart = 0

    /// Notes an input unless it is the one noted last in the text being rendered: a template looks
    /// a post's tags up by several names, one after another.
    func note(_ input: PageInput) {
        if inputs.count > keptTextStart, inputs.last == input { return }
        inputs.append(input)
    }

    func note(contentsOf inputs: some Sequence<PageInput>) { self.inputs.append(contentsOf: inputs) }
}

/// The names of a site's posts, pages, tags, series and other taxonomies' names that stay the same
/// in every version of it: source paths, tag keys, slugs.
///
/// Inputs recorded against one version of a site are carried to another by them
/// (``PageInputMap``).
struct SiteIdentities: Sendable, Equatable {
    var posts: [String]
    var pages: [String]
    var tags: [String]
    var series: [String]
    /// Each other taxonomy's names' keys, in the order of ``SiteConfig/taxonomies``.
    var terms: [[String]]

    init(posts: [String], pages: [String], tags: [String], series: [String], terms: [[String]]) {
        self.posts = posts
        self.pages = pages
        self.tags = tags
        self.series = series
        self.terms = terms
    }

    init(_ renderer: SiteRenderer) {
        posts = renderer.site.posts.map { $0.sourcePath }
        pages = renderer.site.pages.map { $0.sourcePath }
        tags = renderer.site.taxonomy.tags.map { $0.key.rawValue }
        series = renderer.series.series.map { $0.slug.rawValue }
        terms = renderer.site.termTaxonomies.map { $0.tags.map { $0.key.rawValue } }
    }
}

/// Carries inputs recorded against one version of a site to another: each post, page, tag,
/// series and name to its index in the new version, by identity.
struct PageInputMap {
    /// Old index → new index (-1: gone) of each kind of thing; `nil` where the two versions have
    /// the same ones in the same order (a tag edit keeps every post in its place, say).
    private var posts: [Int32]?
    private var pages: [Int32]?
    private var tags: [Int32]?
    private var series: [Int32]?
    private var terms: [[Int32]?]
    /// Whether the two versions have the same things in the same places (a post's tags edited to
    /// ones other posts have, say).
    private var movesNothing: Bool

    init(from old: SiteIdentities, to new: SiteIdentities) {
        func map(_ old: [String], _ new: [String]) -> [Int32]? {
            guard old != new else { return nil }
            var places: [String: Int32] = [:]
            places.reserveCapacity(new.count)
            for (index, name) in new.enumerated() where places[name] == nil { places[name] = Int32(index) }
            return old.map { places[$0] ?? -1 }
        }
        posts = map(old.posts, new.posts)
        pages = map(old.pages, new.pages)
        tags = map(old.tags, new.tags)
        series = map(old.series, new.series)
        // The taxonomies are the settings' (a change to those is a full build).
        terms =
            old.terms.count == new.terms.count
            ? zip(old.terms, new.terms).map { map($0, $1) } : old.terms.map { map($0, []) }
        movesNothing =
            posts == nil && pages == nil && tags == nil && series == nil && old.terms.count == new.terms.count
            && terms.allSatisfy { $0 == nil }
    }

    /// The inputs in the new version of the site; `nil` when what one names is gone.
    func carried(_ inputs: [PageInput]) -> [PageInput]? {
        guard !movesNothing else { return inputs }
        // Copied only when an input moves: most pages read nothing that moved.
        var carried = inputs
        for (position, input) in inputs.enumerated() {
            guard let moved = self.carried(input) else { return nil }
            if moved != input { carried[position] = moved }
        }
        return carried
    }

    /// The input in the new version of the site; `nil` when what it names is gone.
    func carried(_ input: PageInput) -> PageInput? {
        var input = input
        func carry(_ index: inout Int32, _ table: [Int32]?) -> Bool {
            guard let table else { return true }
            guard table.indices.contains(Int(index)), table[Int(index)] >= 0 else { return false }
            index = table[Int(index)]
            return true
        }
        switch input.kind {
        case .menu, .siteLists, .fileLinks, .allPosts, .postCount, .seriesList, .tagAddresses, .allTags, .homeCloud,
            .feed, .homePage, .listExists, .terms:
            return input
        case .post, .summary, .summaryTags, .summaryWithTags, .neighbours, .relatedPosts, .sitemapEntry:
            return carry(&input.first, posts) ? input : nil
        case .page:
            return carry(&input.first, pages) ? input : nil
        case .series, .seriesFeed:
            return carry(&input.first, series) ? input : nil
        case .tagLink, .relatedTags, .hierarchy, .tagPage, .tagFeed:
            return carry(&input.first, tags) ? input : nil
        case .termLink, .termPage, .termFeed:
            guard terms.indices.contains(Int(input.first)) else { return nil }
            return carry(&input.second, terms[Int(input.first)]) ? input : nil
        }
    }
}

extension PageInput {
    /// Appends the inputs as the build cache writes them: each as its kind and up to three
    /// numbers joined by `.` (trailing zeros left out), the inputs separated by `,`.
    static func encode(_ inputs: [PageInput], into text: inout [UInt8]) {
        // Digit by digit: a large site's pages read hundreds of thousands of inputs.
        func append(_ number: Int32) {
            var value = Int64(number)
            if value < 0 {
                text.append(UInt8(ascii: "-"))
                value = -value
            }
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0
            )
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                    count += 1
                } while value > 0
                for index in stride(from: count - 1, through: 0, by: -1) { text.append(buffer[index]) }
            }
        }
        for (position, input) in inputs.enumerated() {
            if position > 0 { text.append(UInt8(ascii: ",")) }
            append(Int32(input.kind.rawValue))
            let used = input.third != 0 ? 3 : input.second != 0 ? 2 : input.first != 0 ? 1 : 0
            for number in [input.first, input.second, input.third].prefix(used) {
                text.append(UInt8(ascii: "."))
                append(number)
            }
        }
    }

    /// Reads what ``encode(_:into:)`` writes; `nil` for anything else.
    static func decoded(_ text: UnsafeRawBufferPointer) -> [PageInput]? {
        guard !text.isEmpty else { return [] }
        var inputs: [PageInput] = []
        var numbers: [Int] = []
        numbers.reserveCapacity(4)
        var start = 0
        // Each input ends at a `,` or at the end, each number at a `.`.
        for end in 0...text.count
        where end == text.count || text[end] == UInt8(ascii: ",") || text[end] == UInt8(ascii: ".") {
            guard let number = RecordReader.number(UnsafeRawBufferPointer(rebasing: text[start..<end])),
                numbers.count < 4
            else { return nil }
            numbers.append(number)
            start = end + 1
            guard end == text.count || text[end] == UInt8(ascii: ",") else { continue }
            guard let raw = UInt8(exactly: numbers[0]), let kind = Kind(rawValue: raw),
                numbers.dropFirst().allSatisfy({ Int32(exactly: $0) != nil })
            else { return nil }
            numbers += [0, 0, 0]
            inputs.append(PageInput(kind, numbers[1], numbers[2], numbers[3]))
            numbers.removeAll(keepingCapacity: true)
        }
        return inputs
    }
}
