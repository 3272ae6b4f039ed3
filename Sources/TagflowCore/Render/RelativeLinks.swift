import TagflowHTML

/// `relative_links: true`: each link of a page into the site is written relative to the page, and
/// a link to a folder ends in `index.html`, so the built site works opened from the file system
/// (`file://…/_site/index.html`), where `/` is the disk's root and folders show no index.
///
/// It rewrites `href`, `src`, `poster` and `srcset` values that start with the site's base path;
/// absolute URLs (the feed's, `canonical`) and links elsewhere stay as they are.
enum RelativeLinks {
    /// The attributes that hold URLs.
    static let attributes: Set<String> = ["href", "src", "poster", "srcset"]

    /// A page with its links into the site made relative.
    ///
    /// - Parameters:
    ///   - bytes: The page's HTML.
    ///   - file: The page's path in the output folder (`posts/trip/index.html`).
    ///   - basePath: The site's base path without its last slash (`/blog`, or empty).
    /// - Returns: The page, unchanged when it has no such link.
    static func rewritten(_ bytes: [UInt8], file: String, basePath: String) -> [UInt8] {
        let folder = SiteFiles.parentFolder(of: file)
        var output: [UInt8] = []
        var copied = 0
        for token in HTMLScanner.tokens(of: bytes) where token.kind == .startTag {
            for (index, attribute) in token.attributes.enumerated() where attributes.contains(attribute.name) {
                guard token.valueRanges.indices.contains(index) else { continue }
                let value =
                    attribute.name == "srcset"
                    ? relativeSourceSet(attribute.value, from: folder, basePath: basePath)
                    : relative(attribute.value, from: folder, basePath: basePath)
                guard let value else { continue }
                let range = token.valueRanges[index]
                if output.isEmpty { output.reserveCapacity(bytes.count) }
                output += bytes[copied..<range.lowerBound]
                output += Array(HTMLEscaping.escaped(value).utf8)
                copied = range.upperBound
            }
        }
        guard copied > 0 else { return bytes }
        output += bytes[copied...]
        return output
    }

    /// A URL into the site, relative to the folder `folder` (`posts/trip`, or empty for the
    /// top); `nil` for a URL elsewhere.
    static func relative(_ url: String, from folder: String, basePath: String) -> String? {
        guard url.hasPrefix(basePath + "/"), !url.hasPrefix("//") else { return nil }
        let sitePath = url.dropFirst(basePath.count + 1)
        let pathEnd = sitePath.firstIndex { $0 == "?" || $0 == "#" } ?? sitePath.endIndex
        var target = String(sitePath[..<pathEnd])
        if target.isEmpty || target.hasSuffix("/") { target += "index.html" }
        let from = folder.split(separator: "/")
        let to = target.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...].map(String.init)).joined(separator: "/") + sitePath[pathEnd...]
    }

    /// A `srcset` with each URL into the site made relative; `nil` when none is.
    static func relativeSourceSet(_ value: String, from folder: String, basePath: String) -> String? {
        var changed = false
        let candidates = value.split(separator: ",").map { candidate -> String in
            let parts = candidate.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard let url = parts.first, let relative = relative(String(url), from: folder, basePath: basePath) else {
                return String(candidate)
            }
            changed = true
            return ([relative] + parts.dropFirst().map(String.init)).joined(separator: " ")
        }
        return changed ? candidates.joined(separator: ", ") : nil
    }
}
