/// Where each page of a site lives: output file paths and the URLs that link to them.
struct Routes: Sendable {
    let basePath: String
    let baseURL: String

    init(config: SiteConfig) {
        basePath = config.basePath
        baseURL = config.baseURLWithoutSlash
    }

    static let home = "/"
    static let tags = "/tags/"
    static let archive = "/archive/"
    static let seriesList = "/series/"
    static let feed = "/feed.xml"
    static let sitemap = "/sitemap.xml"
    static let notFound = "/404.html"
    static let stylesheet = "/assets/tagflow.css"

    static func post(_ slug: Slug) -> String { "/posts/\(slug.rawValue)/" }
    static func page(_ slug: Slug) -> String { "/\(slug.rawValue)/" }
    static func tag(_ slug: Slug) -> String { "/tags/\(slug.rawValue)/" }
    static func tagFeed(_ slug: Slug) -> String { "/tags/\(slug.rawValue)/feed.xml" }
    static func terms(in taxonomy: String) -> String { "/\(taxonomy)/" }
    static func term(_ slug: Slug, in taxonomy: String) -> String { "/\(taxonomy)/\(slug.rawValue)/" }
    static func termFeed(_ slug: Slug, in taxonomy: String) -> String { "/\(taxonomy)/\(slug.rawValue)/feed.xml" }
    static func series(_ slug: Slug) -> String { "/series/\(slug.rawValue)/" }
    static func seriesFeed(_ slug: Slug) -> String { "/series/\(slug.rawValue)/feed.xml" }

    /// Top-level names a page's slug must not take, because the site's own pages live there.
    static let reservedPageSlugs: Set<String> = [
        "posts", "tags", "page", "assets", "feed.xml", "sitemap.xml", "404.html", "index.html",
    ]

    /// The site-relative link to a path (`/blog/tags/c-sharp/`).
    func url(_ path: String) -> String { basePath + percentEncodedPath(path) }

    /// The absolute URL of a path (`https://example.org/blog/tags/c-sharp/`).
    func permalink(_ path: String) -> String { baseURL + percentEncodedPath(path) }

    /// The output file for a path: `index.html` inside folders.
    static func file(for path: String) -> String {
        // By bytes, not characters: `tagflow serve` works out every page's file after a tag edit.
        let utf8 = path.utf8
        let start = utf8.firstIndex { $0 != UInt8(ascii: "/") } ?? utf8.endIndex
        let trimmed = String(Substring(utf8[start...]))
        return utf8.last == UInt8(ascii: "/") ? trimmed + "index.html" : trimmed
    }
}
