import Foundation

/// Finds the links of a rendered site that lead nowhere.
///
/// ```swift
/// let checker = LinkChecker(basePath: "/blog", paths: ["index.html", "posts/a/index.html"])
/// checker.resolve("/blog/posts/b/", onPage: "index.html")  // .missing("posts/b/index.html")
/// ```
///
/// Every `href`, `src`, `srcset` and `poster` of every HTML page is checked, unless it has a
/// scheme (`https:`, `mailto:`, `data:`…) or starts with `//`. A root-relative link must be under
/// the site's base path; a relative one is resolved against the page's folder. The path (query
/// dropped, percent-encoding decoded) must be a generated file or a static file, `x/` meaning
/// `x/index.html` and `x` accepted for a folder `x/` with an `index.html`. A broken link is an
/// error at the Markdown file and line that hold it when it can be found there, else at the
/// output page. A fragment (`#notes`) that names no `id` on a generated page is a warning.
struct LinkChecker: Sendable {
    /// The site's base path without the trailing slash (`/blog`, or empty at the root).
    let basePath: String
    /// Every output path the site has: generated and static files (`posts/a/index.html`).
    let paths: Set<String>
    /// The Markdown file behind each generated page, by output path.
    var sources: [String: String] = [:]
    /// The site folder, to read those Markdown files.
    var siteRoot: URL?

    /// Where a link leads.
    enum Resolution: Equatable {
        /// Another site, or a scheme the checker does not follow.
        case external
        /// An output file, and the fragment the link names, if any.
        case file(String, fragment: String?)
        /// A path the site does not have.
        case missing(String)
        /// A root-relative link that is not under the base path.
        case outsideBasePath
        /// A relative link that climbs above the site's root.
        case aboveRoot
    }

    /// What checking found.
    struct Result: Sendable {
        /// Links checked (external ones not counted).
        var linkCount = 0
        /// Broken links (errors) and missing anchors (warnings).
        var diagnostics: [Diagnostic] = []
    }

    /// Where `url`, found on the page at output path `page`, leads.
    func resolve(_ url: String, onPage page: String) -> Resolution {
        let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        if url.hasPrefix("//") || Self.hasScheme(url) { return .external }
        var reference = Substring(url)
        var fragment: String?
        if let hash = reference.firstIndex(of: "#") {
            let raw = String(reference[reference.index(after: hash)...])
            fragment = raw.removingPercentEncoding ?? raw
            reference = reference[..<hash]
        }
        if let question = reference.firstIndex(of: "?") { reference = reference[..<question] }
        if reference.isEmpty { return .file(page, fragment: fragment) }
        var joined: String
        if reference.hasPrefix("/") {
            if basePath.isEmpty {
                joined = String(reference)
            } else if reference == basePath || reference.hasPrefix(basePath + "/") {
                joined = String(reference.dropFirst(basePath.count))
            } else {
                return .outsideBasePath
            }
        } else {
            joined = "/" + Self.folder(of: page) + reference
        }
        guard let normalized = Self.normalize(joined) else { return .aboveRoot }
        let path = normalized.removingPercentEncoding ?? normalized
        if path.isEmpty || path.hasSuffix("/") {
            let index = path + "index.html"
            return paths.contains(index) ? .file(index, fragment: fragment) : .missing(index)
        }
        if paths.contains(path) { return .file(path, fragment: fragment) }
        if paths.contains(path + "/index.html") { return .file(path + "/index.html", fragment: fragment) }
        return .missing(path)
    }

    /// Checks every HTML page of `files`.
    func check(_ files: [OutputFile]) -> Result {
        let pages = files.filter { $0.path.hasSuffix(".html") }
        var scanned: [String: HTMLLinks] = [:]
        for page in pages { scanned[page.path] = HTMLLinks(scanning: page.contents) }
        var result = Result()
        var problems: [Problem] = []
        for page in pages.map(\.path) {
            guard let links = scanned[page]?.links else { continue }
            var reported: Set<String> = []
            for link in links {
                let resolution = resolve(link.url, onPage: page)
                if resolution == .external { continue }
                result.linkCount += 1
                guard let problem = problem(with: link, resolution, ids: scanned), reported.insert(link.url).inserted
                else { continue }
                problems.append(Problem(page: page, link: link, severity: problem.severity, message: problem.message))
            }
        }
        result.diagnostics = place(problems).sortedForDisplay()
        return result
    }

    /// A broken link, or a link to an anchor that is missing, on one page.
    private struct Problem {
        var page: String
        var link: HTMLLinks.Link
        var severity: Diagnostic.Severity
        var message: String
    }

    private func problem(
        with link: HTMLLinks.Link, _ resolution: Resolution, ids: [String: HTMLLinks]
    ) -> (severity: Diagnostic.Severity, message: String)? {
        switch resolution {
        case .external:
            return nil
        case .file(let target, let fragment):
            guard let fragment, !fragment.isEmpty, fragment.lowercased() != "top", let targetIDs = ids[target]?.ids,
                !targetIDs.contains(fragment)
            else { return nil }
            return (.warning, "\(describe(link)): no id '\(fragment)' on \(basePath)\(Self.url(of: target))")
        case .missing(let path):
            return (.error, "broken \(describe(link)): the site has no page or file at \(basePath)/\(path)")
        case .outsideBasePath:
            return (.error, "broken \(describe(link)): it is outside the site's base path \(basePath)/")
        case .aboveRoot:
            return (.error, "broken \(describe(link)): it climbs above the site's root")
        }
    }

    /// Gives each problem a place: the lines of the Markdown file that hold the link, when the
    /// page has one and the link is found there; else the page, once per URL and message, so a
    /// broken link in a template is one diagnostic rather than one per page.
    private func place(_ problems: [Problem]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var sourceLines: [String: [Substring]?] = [:]
        var placed: Set<String> = []
        var unplaced: [String: [Problem]] = [:]
        for problem in problems {
            if let source = sources[problem.page] {
                if sourceLines[source] == nil { sourceLines[source] = readLines(of: source) }
                let places = sourceLines[source].flatMap { $0 }.map { find(problem.link.url, in: $0) } ?? []
                if !places.isEmpty {
                    placed.insert(problem.link.url)
                    for place in places {
                        diagnostics.append(
                            Diagnostic(
                                problem.severity,
                                TagflowError(
                                    location: SourceLocation(path: source, line: place.line, column: place.column),
                                    step: "links", message: problem.message, hint: hint(for: problem),
                                    sourceLine: place.text)))
                    }
                    continue
                }
            }
            unplaced[problem.link.url + "\u{0}" + problem.message, default: []].append(problem)
        }
        // A post's body can show on other pages too (a theme that lists whole posts); a link in it
        // was reported at the post.
        for group in unplaced.values where !placed.contains(group[0].link.url) {
            let others = group.count - 1
            let hint =
                hint(for: group[0])
                ?? "it is not written in a post or page, so it comes from a template or a plugin"
            diagnostics.append(
                Diagnostic(
                    group[0].severity,
                    TagflowError(
                        location: SourceLocation(path: group[0].page), step: "links",
                        message: group[0].message
                            + (others == 0 ? "" : " (and on \(others) other page\(others == 1 ? "" : "s"))"),
                        hint: hint)))
        }
        return diagnostics
    }

    private func hint(for problem: Problem) -> String? {
        if problem.severity == .warning {
            return "a heading's id is its text as GitHub makes it: lowercase, '-' for spaces, punctuation dropped"
        }
        if problem.message.contains("outside the site's base path") {
            return
                "start links in templates with {{site.base_path}}; Markdown links starting with / get it by themselves"
        }
        return nil
    }

    private func describe(_ link: HTMLLinks.Link) -> String {
        let what =
            switch (link.tag, link.attribute) {
            case ("a", _), ("area", _): "link"
            case ("img", _), ("source", "srcset"), ("picture", _): "image"
            case ("link", _): "<link>"
            case ("script", _): "script"
            default: "<\(link.tag) \(link.attribute)>"
            }
        return link.text.isEmpty ? "\(what) \(link.url)" : "\(what) '\(link.text)' → \(link.url)"
    }

    private func readLines(of source: String) -> [Substring]? {
        guard let siteRoot,
            let data = FileManager.default.contents(atPath: siteRoot.appendingPathComponent(source).path)
        else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Every line where a link appears in Markdown source, as written there: the rendered URL
    /// may have gained the base path, percent-encoding or entity-encoding on the way.
    private func find(_ url: String, in lines: [Substring]) -> [(line: Int, column: Int, text: String)] {
        // Under a base path, Markdown links from the root gain it, so a root link rendered as
        // written can only come from raw HTML (`href="/x/"`), and one with the base path came
        // from Markdown without it (`](/x/)`).
        let rawHTMLOnly = !basePath.isEmpty && url.hasPrefix("/") && !url.hasPrefix("//")
        var candidates = [(text: url, rawHTMLOnly: rawHTMLOnly)]
        if !basePath.isEmpty, url.hasPrefix(basePath + "/") {
            candidates.append((String(url.dropFirst(basePath.count)), false))
        }
        for candidate in candidates {
            if let decoded = candidate.text.removingPercentEncoding, decoded != candidate.text {
                candidates.append((decoded, candidate.rawHTMLOnly))
            }
        }
        for candidate in candidates {
            var places: [(line: Int, column: Int, text: String)] = []
            for (number, line) in lines.enumerated() {
                guard
                    let range = Self.range(
                        of: candidate.text, in: line, after: candidate.rawHTMLOnly ? "\"'=" : "(\"'<= \t")
                else { continue }
                let text = String(line.hasSuffix("\r") ? line.dropLast() : line)
                places.append((number + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1, text))
            }
            if !places.isEmpty { return places }
        }
        return []
    }

    /// The first place `url` stands alone in `line`, as a link target does: `(url)`, `"url"`,
    /// `<url>`, `[x]: url`, `Swift -> url`, not inside a longer word or path.
    ///
    /// - Parameters:
    ///   - url: The text to find.
    ///   - line: The line to search.
    ///   - after: The characters that may come just before `url` (the start of the line counts as a space).
    /// - Returns: Where `url` is, or `nil`.
    static func range(of url: String, in line: Substring, after: String) -> Range<Substring.Index>? {
        var rest = line[...]
        while let range = rest.range(of: url) {
            let before = range.lowerBound == line.startIndex ? " " : line[line.index(before: range.lowerBound)]
            let next = range.upperBound == line.endIndex ? " " : line[range.upperBound]
            if after.contains(before), ")\"'> \t\r".contains(next) { return range }
            rest = line[line.index(after: range.lowerBound)...]
        }
        return nil
    }

    /// The URL a reader sees for an output path (`posts/a/index.html` → `/blog/posts/a/`).
    static func url(of path: String) -> String {
        path == "index.html" ? "/" : "/" + (path.hasSuffix("/index.html") ? String(path.dropLast(10)) : path)
    }

    /// The folder a page's relative links start from (`posts/a/index.html` → `posts/a/`).
    static func folder(of page: String) -> String {
        guard let slash = page.lastIndex(of: "/") else { return "" }
        return String(page[...slash])
    }

    /// Drops `.` and `..` segments and repeated slashes from a root-relative path, returning it
    /// without the leading slash (`/a/./b/../c/` → `a/c/`), or `nil` when it climbs above the root.
    static func normalize(_ path: String) -> String? {
        var segments: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for part in parts {
            switch part {
            case "", ".": continue
            case "..":
                guard segments.popLast() != nil else { return nil }
            default: segments.append(part)
            }
        }
        let isFolder = parts.last.map { $0.isEmpty || $0 == "." || $0 == ".." } ?? true
        let joined = segments.joined(separator: "/")
        return isFolder && !joined.isEmpty ? joined + "/" : joined
    }

    /// Whether a URL starts with a scheme (`https:`, `mailto:`, `data:`).
    static func hasScheme(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":"), let first = url.first, first.isASCII, first.isLetter else {
            return false
        }
        return url[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
