import Foundation
import TagflowHTML
import TagflowMarkdown

/// Links by file name: `[x](2024-03-05-other.md)` or `[x](../pages/about.md#team)` in a post
/// leads to that post's or page's URL, so authors link the files they see in their editor and
/// the links survive a slug change.
///
/// A destination resolves against the folder of the file that holds it; one starting with `/`
/// against the content folder. A Markdown file under `posts/` or `pages/` that the site does not
/// publish is an error at the link; a `.md` path elsewhere (a static file) is left as written for
/// the link check.
struct FileLinks: Sendable {
    /// Each published post's and page's source path (`posts/2024-03-05-other.md`) with its path
    /// in the site (`/posts/other/`).
    private let routeBySource: [String: String]
    /// The source paths in site order (posts, then pages).
    private let sources: [String]
    /// The content folder's path in the site folder, with a last slash (or empty).
    private let contentPrefix: String
    private let routes: Routes

    init(site: Site, routes: Routes) {
        var routeBySource: [String: String] = [:]
        routeBySource.reserveCapacity(site.posts.count + site.pages.count)
        for post in site.posts { routeBySource[post.sourcePath] = Routes.post(post.slug) }
        for page in site.pages { routeBySource[page.sourcePath] = Routes.page(page.slug) }
        self.routeBySource = routeBySource
        // Not sorted: `tagflow serve` makes these again after each edit it assembles the site for,
        // and only a broken link's suggestion needs the names in order. (A post that moves then
        // renders again the few pages that link by file name.)
        sources = site.posts.map(\.sourcePath) + site.pages.map(\.sourcePath)
        let content = site.config.paths.content
        contentPrefix = content == "." || content.isEmpty ? "" : content + "/"
        self.routes = routes
    }

    /// Every source path with its route, in site order: what a page that links by file name
    /// reads.
    var digest: Digest {
        var digest = Digest()
        for source in sources {
            digest.update(source)
            digest.update(routeBySource[source] ?? "")
        }
        return digest
    }

    /// `html` with each file link's placeholder replaced by the URL of the page it names.
    ///
    /// - Parameters:
    ///   - html: A post's or page's content.
    ///   - links: The document's links to Markdown files.
    ///   - sourcePath: The file that holds them (`posts/2024-01-01-a.md`).
    /// - Returns: The HTML, and an error for each link to a post or page that is not published.
    func resolved(_ html: String, links: [MarkdownFileLink], sourcePath: String) -> (String, [Diagnostic]) {
        var html = html
        var diagnostics: [Diagnostic] = []
        for link in links {
            let href: String
            switch resolve(link.destination, from: sourcePath) {
            case .page(let url):
                href = url
            case .elsewhere:
                href = link.destination.hasPrefix("/") ? routes.basePath + link.destination : link.destination
            case .missing(let target):
                href = link.destination
                var hint = "a draft is published only with --drafts"
                if let near = nearest(to: target) {
                    hint = "did you mean '\(near)'? (A draft is published only with --drafts.)"
                }
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: sourcePath, line: link.line, column: link.column),
                            step: "links",
                            message: "link to '\(link.destination)': no published post or page is \(target)",
                            hint: hint)))
            }
            html = html.replacingOccurrences(
                of: "href=\"\(link.placeholder)\"", with: "href=\"\(HTMLEscaping.escaped(href))\"")
        }
        return (html, diagnostics)
    }

    /// Where a destination leads.
    enum Resolution: Equatable {
        /// A published post or page: its URL with the fragment.
        case page(String)
        /// A path that is not a post or page source: kept as written.
        case elsewhere
        /// A post or page source that is not published: the path looked for.
        case missing(String)
    }

    /// Where `destination`, written in `sourcePath`, leads.
    func resolve(_ destination: String, from sourcePath: String) -> Resolution {
        let pathEnd = destination.firstIndex { $0 == "?" || $0 == "#" } ?? destination.endIndex
        let fragment = destination[pathEnd...].drop { $0 != "#" }
        guard let path = String(destination[..<pathEnd]).removingPercentEncoding else { return .elsewhere }
        let folder: String
        if path.hasPrefix("/") {
            folder = contentPrefix
        } else if let slash = sourcePath.lastIndex(of: "/") {
            folder = String(sourcePath[...slash])
        } else {
            folder = ""
        }
        guard let target = LinkChecker.normalize("/" + folder + path) else { return .elsewhere }
        if let route = routeBySource[target] { return .page(routes.url(route) + fragment) }
        let inContent = target.dropFirst(target.hasPrefix(contentPrefix) ? contentPrefix.count : 0)
        return inContent.hasPrefix("posts/") || inContent.hasPrefix("pages/") ? .missing(target) : .elsewhere
    }

    /// The published source most like `target`: the same name without its date, or a near typo.
    private func nearest(to target: String) -> String? {
        func undated(_ path: String) -> Substring {
            let name = path.split(separator: "/").last ?? ""
            let datePrefix = name.prefix(11)
            let isDated =
                datePrefix.count == 11
                && datePrefix.enumerated().allSatisfy { index, character in
                    [4, 7, 10].contains(index) ? character == "-" : character.isASCII && character.isNumber
                }
            return isDated ? name.dropFirst(11) : name
        }
        let name = undated(target)
        let sources = sources.sorted()
        if let sameName = sources.first(where: { undated($0) == name }) { return sameName }
        return Suggestion.closest(to: target, in: sources)
    }
}
