import Foundation

/// Old addresses of a post or page (`aliases:` in its front matter, as in Hugo), each of which
/// becomes a small page that sends readers on, so links to where it used to live keep working.
package enum PageAliases {
    /// The site path an alias is written at (`/2019/05/03/hello.html`, `/old-name/`), or why the
    /// text is not one.
    ///
    /// An address without a trailing slash or a file extension is a folder, as in Hugo
    /// (`/old-name` → `/old-name/`), since that is how a server answers it. Percent escapes are
    /// decoded: the file on disk carries the characters they stand for.
    package static func sitePath(of text: String) -> Result<String, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("://") || trimmed.hasPrefix("//") { return .failure(.otherHost) }
        guard trimmed.hasPrefix("/") else { return .failure(.relative) }
        if trimmed.contains(where: { $0 == "?" || $0 == "#" || $0 == "\\" || $0.isWhitespace || $0.isASCIIControl }) {
            return .failure(.character)
        }
        guard let decoded = trimmed.removingPercentEncoding else { return .failure(.character) }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let inner = segments.last == "" ? segments.dropLast() : segments[...]
        guard !inner.isEmpty else { return .failure(.home) }
        guard inner.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return .failure(.segment) }
        let path = "/" + inner.joined(separator: "/")
        let isFile = segments.last != "" && (inner.last?.contains(".") ?? false)
        return .success(isFile ? path : path + "/")
    }

    /// Why a text is not an alias.
    package enum Problem: Error, Equatable, Sendable {
        case otherHost, relative, character, home, segment

        /// What is wrong, for a message.
        package var message: String {
            switch self {
            case .otherHost: "an alias is an address on this site, not on another host"
            case .relative: "an alias is written from the site's root, starting with '/'"
            case .character: "an alias may not hold '?', '#', '\\', spaces or broken percent escapes"
            case .home: "an alias cannot be the home page"
            case .segment: "an alias may not hold empty, '.' or '..' segments"
            }
        }
    }

    /// Files an alias may not take, because the site's own pages are there: the home page, the
    /// feed, the sitemap, the 404 page and the archive, and everything under `tags/`, `page/`
    /// and `assets/`.
    package static func isReserved(file: String) -> Bool {
        if ["index.html", "404.html", "feed.xml", "sitemap.xml", "archive/index.html"].contains(file) { return true }
        let top = file.prefix { $0 != "/" }
        return ["tags", "page", "assets"].contains(top)
    }
}

extension Character {
    fileprivate var isASCIIControl: Bool { asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false }
}
