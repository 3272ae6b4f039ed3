/// Which elements of a page are tag lists, and how to read them.
public struct ListRule: Sendable, Hashable {
    /// The lists.
    public var selector: Selector
    /// When set, every item's link (or span) must match it, or the element is not a tag list and
    /// is left alone without a warning (a theme's category line looks like its tag line).
    public var itemFilter: Selector?
    /// Lay the chips out as a weighted cloud (sizes from the counts).
    public var isWeighted: Bool
    /// Where the rule comes from, for messages (`--selector 'ul.tags'`, `preset hugo`).
    public var origin: String
    /// When set, every item must link within the site (no scheme, no `//host`), or the element is
    /// left alone: a post's list of links to other sites (`…/releases/tag/v1.2`) is not a tag list.
    public var requiresSiteLinks: Bool

    /// Creates a rule.
    public init(
        selector: Selector, itemFilter: Selector? = nil, isWeighted: Bool = false, origin: String,
        requiresSiteLinks: Bool = false
    ) {
        self.selector = selector
        self.itemFilter = itemFilter
        self.isWeighted = isWeighted
        self.origin = origin
        self.requiresSiteLinks = requiresSiteLinks
    }
}

/// Rules for the tag-list markup of popular generators and themes.
///
/// Each was read from sites built by the real generator (`Integrations/examples/MARKUP.md`).
public enum ListPresets {
    /// The presets by name.
    public static let all: [String: [ListRule]] = {
        // A link to a tag page: `/tag/swift/`, `tag/swift.html`, `/tags/#swift`; not `author/tagflow.html`.
        let tagLink = #"a[href*="tag/"], a[href*="tags/"], a[href*="tag#"], a[href*="tags#"]"#
        func rule(_ list: String, items: String? = nil, weighted: Bool = false, _ name: String) -> ListRule {
            // The presets are written here and tested; a typo is a programming error.
            guard let selector = try? Selector(list), let filter = items.map({ try? Selector($0) }) ?? .some(nil)
            else { preconditionFailure("preset \(name): bad selector") }
            return ListRule(
                selector: selector, itemFilter: filter, isWeighted: weighted, origin: "preset \(name)",
                requiresSiteLinks: filter != nil)
        }
        return [
            // PaperMod and themes that copy its markup; `ul.tags` is the common minimal theme's.
            "hugo": [
                rule("ul.post-tags", "hugo"), rule("ul.terms-tags", weighted: true, "hugo"),
                rule("ul.tags", "hugo"),
            ],
            // MkDocs Material's tags plugin: `nav.md-tags` of `a.md-tag` (a `span` without a link).
            "mkdocs-material": [rule("nav.md-tags", items: ".md-tag", "mkdocs-material")],
            // Minimal Mistakes, Chirpy and themes that print `page.tags` as a line or a cloud.
            "jekyll": [
                rule(".post-tags", items: tagLink, "jekyll"), rule("ul.tag-cloud", weighted: true, "jekyll"),
                rule(".page__taxonomy", items: tagLink, "jekyll"),
                rule("ul.taxonomy__index", items: tagLink, weighted: true, "jekyll"),
            ],
            // notmyidea (the default) and simple: unclassed lines and lists whose links go to tag pages.
            "pelican": [
                rule("footer.post-info p", items: tagLink, "pelican"),
                rule("[id=content] ul", items: tagLink, weighted: true, "pelican"),
                rule("article footer p", items: tagLink, "pelican"),
                rule("main ul", items: tagLink, weighted: true, "pelican"),
            ],
        ]
    }()

    /// The names, sorted.
    public static var names: [String] { all.keys.sorted() }
}
