import Foundation
import TagflowMarkdown

/// A site's settings, read from `site.yml`.
///
/// Every key is optional; the defaults make a working blog.
///
/// ```yaml
/// title: Mira's notes
/// base_url: https://mira.example/
/// posts_per_page: 10
/// markdown: { unsafe: false }
/// ```
public struct SiteConfig: Sendable, Hashable {
    /// The site's name, shown in the header and the feed.
    public var title = "My Tagflow Blog"
    /// One sentence about the site, for the home page and the feed.
    public var description = ""
    /// The absolute URL the site is published at, ending in `/` (`https://example.org/blog/`).
    public var baseURL = "http://localhost:8000/"
    /// The site's language, a BCP 47 tag (`en`, `de-CH`).
    public var language = "en"
    /// The author's name, for the feed and page metadata.
    public var author = ""
    /// The time zone for dates written without one, as a tz database name (`Europe/Zurich`).
    public var timeZone = "UTC"
    /// Posts per page on the home page and on tag pages.
    public var postsPerPage = 10
    /// Posts in the Atom feed.
    public var feedEntries = 20
    /// Write every link into the site relative to its page, so that the output works opened
    /// from the file system.
    public var relativeLinks = false
    /// Where things are, relative to the site folder.
    public var paths = Paths()
    /// How Markdown is rendered.
    public var markdown = Markdown()
    /// How tag lists are laid out as chips.
    public var chips = ChipsConfig()
    /// Related posts on each post's page.
    public var related = Related()
    /// Other names of tags, merged into the tags they name (`tags.aliases`).
    public var tagAliases = TagAliases()
    /// Whether a `/` in a tag nests it under another (`lang/swift` under `lang`; `tags.hierarchy`).
    ///
    /// Off by default: `CI/CD` and `TCP/IP` are single tags on most blogs.
    public var tagHierarchy = false
    /// The taxonomies besides tags and series (`taxonomies:`), each with pages, feeds and a list.
    public var taxonomies = TermTaxonomy.defaults
    /// The site's own wording of the theme's strings, by key, over the built-in translations
    /// (`strings:`; see ``SiteStrings``).
    public var strings: [String: Phrase] = [:]

    /// Folder settings.
    public struct Paths: Sendable, Hashable {
        /// The folder holding `posts/` and `pages/`.
        public var content = "."
        /// The folder whose `.mustache` files override the built-in theme.
        public var templates = "templates"
        /// The folder copied as is into the output.
        public var `static` = "static"
        /// Where the site is written when no `--output` is given.
        public var output = "_site"
        public init() {}

        /// Why ``static`` cannot be the folder copied into the output, or `nil`: it must not be
        /// the site folder, nor hold or sit inside the sources, the templates or the output, or
        /// `site.yml`, the drafts and the previous build would be published.
        var staticFolderProblem: String? {
            let folder = Self.normalized(`static`)
            if folder.isEmpty {
                return "'paths.static' cannot be the site folder: it would publish site.yml and the sources"
            }
            let content = Self.normalized(content)
            let protected: [(String, String)] =
                [
                    (content.isEmpty ? "posts" : content + "/posts", "the posts"),
                    (content.isEmpty ? "pages" : content + "/pages", "the pages"),
                    (Self.normalized(templates), "the templates"), (Self.normalized(output), "the output"),
                ]
                + (content.isEmpty ? [] : [(content, "the content")])
            for (path, what) in protected where !path.isEmpty {
                if folder == path || folder.hasPrefix(path + "/") || path.hasPrefix(folder + "/") {
                    return
                        "'paths.static' ('\(`static`)') overlaps \(what) ('\(path)'): they would be published as files"
                }
            }
            return nil
        }

        /// Site-relative folders a build reads, which the output must stay out of.
        var sourceFolders: [String] {
            (content == "." ? [] : [content]) + ["posts", "pages"].map(contentFolder) + [templates, `static`]
        }

        /// A folder of the content, site-relative (`posts` → `content/posts`, or `posts` when the
        /// content is the site folder).
        func contentFolder(_ name: String) -> String {
            content == "." ? name : "\(content)/\(name)"
        }

        /// A site-relative folder without `./`, empty segments or a trailing slash (`.` is empty).
        static func normalized(_ path: String) -> String {
            path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        }
    }

    /// Markdown settings.
    public struct Markdown: Sendable, Hashable {
        /// Keep raw HTML written in Markdown (off: it is dropped).
        public var unsafe = false
        /// Typographic quotes and dashes.
        public var smartPunctuation = false
        /// Soft line breaks become `<br>`.
        public var hardBreaks = false
        /// Post pages show a table of contents of their h2–h3 headings (a post's `toc:` decides for it).
        public var toc = false
        /// Code blocks are highlighted at build time (spans with `tok-` classes the theme colours).
        public var highlight = true
        /// Code blocks number their lines (a block's `{linenos=false}` decides for itself).
        public var lineNumbers = false
        public init() {}
    }

    /// Related posts: the posts that share a post's tags, rarer tags counting more.
    public struct Related: Sendable, Hashable {
        /// The most related posts a post's page shows (0: none).
        public var limit = 5
        public init() {}
    }

    /// The default configuration.
    public init() {}

    /// The path part of ``baseURL`` without the trailing slash (`/blog`, or empty at the root).
    public var basePath: String {
        var path = Self.path(of: baseURL)
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// `baseURL` without the trailing slash, for building absolute URLs (`https://example.org/blog`).
    public var baseURLWithoutSlash: String {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url.hasPrefix("/") ? url : "/" + url }
        let afterScheme = url[scheme.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return "/" }
        return String(afterScheme[slash...])
    }
}

extension SiteConfig {
    /// Every key `site.yml` accepts, in the order the reference lists them (a test checks the docs).
    package static let knownKeys: [String] = [
        "title", "description", "base_url", "language", "strings", "author", "timezone", "posts_per_page",
        "feed_entries",
        "relative_links", "paths.content", "paths.templates", "paths.static", "paths.output",
        "markdown.unsafe", "markdown.smart_punctuation", "markdown.hard_breaks", "markdown.toc",
        "markdown.highlight", "markdown.line_numbers", "related.limit", "tags.aliases", "tags.hierarchy", "taxonomies",
        "chips.enabled", "chips.font", "chips.font_size", "chips.line_height", "chips.padding_x", "chips.padding_y",
        "chips.border", "chips.radius", "chips.column_gap", "chips.row_gap", "chips.justify", "chips.breakpoints",
        "chips.weights", "chips.cloud_order", "chips.home_rows", "chips.related_limit", "chips.align",
        "chips.colors.text",
        "chips.colors.background", "chips.colors.border", "chips.colors.dark_text", "chips.colors.dark_background",
        "chips.colors.dark_border",
    ]

    /// Keys other tools put in the same file, accepted without a warning (Hugo's `baseURL` is read as
    /// `base_url` when that is absent).
    static let toleratedKeys: Set<String> = ["baseURL", "baseurl"]

    /// Reads `site.yml` text.
    ///
    /// - Parameters:
    ///   - yaml: The file's text.
    ///   - path: The file's path for messages (`site.yml`).
    /// - Returns: The configuration and warnings (unknown keys).
    /// - Throws: ``BuildFailure`` listing every bad value.
    package static func parse(_ yaml: String, path: String = "site.yml") throws(BuildFailure) -> (
        SiteConfig, [Diagnostic]
    ) {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        let mapping: YAMLMapping
        do {
            mapping = try YAMLReader.mapping(from: yaml)
        } catch {
            let line = error.line
            throw BuildFailure(diagnostics: [
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: path, line: line, column: error.column), step: "config",
                        message: error.message.replacingOccurrences(of: "front matter", with: "site config"),
                        hint: error.hint, sourceLine: line - 1 < lines.count ? String(lines[line - 1]) : nil))
            ])
        }
        var reader = ConfigReader(path: path, lines: lines)
        var config = SiteConfig()
        var pathsEntry: YAMLMapping.Entry?
        var stringsEntry: YAMLMapping.Entry?
        reader.read(mapping, prefix: "") { key, entry, reader in
            switch key {
            case "title": reader.string(entry) { config.title = $0 }
            case "description": reader.string(entry) { config.description = $0 }
            case "base_url": reader.baseURL(entry) { config.baseURL = Self.normalizedBaseURL($0) }
            case "baseURL", "baseurl":
                if mapping["base_url"] == nil { reader.baseURL(entry) { config.baseURL = Self.normalizedBaseURL($0) } }
            case "language": reader.string(entry) { config.language = $0 }
            // Read once the language is known, whichever comes first: it decides the plural forms.
            case "strings": stringsEntry = entry
            case "author": reader.string(entry) { config.author = $0 }
            case "timezone":
                if let name = reader.string(entry) {
                    if ContentDate.timeZone(named: name) == nil {
                        reader.error(
                            entry, "unknown time zone '\(name)'",
                            hint: "use a tz database name such as 'UTC' or 'Europe/Zurich'")
                    } else {
                        config.timeZone = name
                    }
                }
            case "posts_per_page": reader.positiveInt(entry) { config.postsPerPage = $0 }
            case "feed_entries": reader.positiveInt(entry) { config.feedEntries = $0 }
            case "relative_links": reader.bool(entry) { config.relativeLinks = $0 }
            case "paths.content":
                pathsEntry = pathsEntry ?? entry
                reader.relativePath(entry) { config.paths.content = $0 }
            case "paths.templates":
                pathsEntry = pathsEntry ?? entry
                reader.relativePath(entry) { config.paths.templates = $0 }
            case "paths.static":
                pathsEntry = entry
                reader.relativePath(entry) { config.paths.static = $0 }
            case "paths.output": reader.string(entry) { config.paths.output = $0 }
            case "markdown.unsafe": reader.bool(entry) { config.markdown.unsafe = $0 }
            case "markdown.smart_punctuation": reader.bool(entry) { config.markdown.smartPunctuation = $0 }
            case "markdown.hard_breaks": reader.bool(entry) { config.markdown.hardBreaks = $0 }
            case "markdown.toc": reader.bool(entry) { config.markdown.toc = $0 }
            case "markdown.highlight": reader.bool(entry) { config.markdown.highlight = $0 }
            case "markdown.line_numbers": reader.bool(entry) { config.markdown.lineNumbers = $0 }
            case "chips.enabled": reader.bool(entry) { config.chips.enabled = $0 }
            case "chips.font": reader.relativePath(entry) { config.chips.font = $0 }
            case "chips.font_size": reader.length(entry, minimum: 1) { config.chips.fontSize = $0 }
            case "chips.line_height": reader.length(entry, minimum: 1) { config.chips.lineHeight = $0 }
            case "chips.padding_x": reader.length(entry) { config.chips.paddingX = $0 }
            case "chips.padding_y": reader.length(entry) { config.chips.paddingY = $0 }
            case "chips.border": reader.length(entry) { config.chips.border = $0 }
            case "chips.radius": reader.length(entry) { config.chips.radius = $0 }
            case "chips.column_gap": reader.length(entry) { config.chips.columnGap = $0 }
            case "chips.row_gap": reader.length(entry) { config.chips.rowGap = $0 }
            case "chips.justify": reader.choice(entry, ["start", "center", "end"]) { config.chips.justify = $0 }
            case "chips.align": reader.choice(entry, ["start", "center", "end"]) { config.chips.align = $0 }
            case let key where key.hasPrefix("chips.colors.") && SiteConfig.knownKeys.contains(key):
                reader.cssColor(entry) { config.chips.colors[String(key.dropFirst("chips.colors.".count))] = $0 }
            case "chips.cloud_order": reader.choice(entry, ["name", "count"]) { config.chips.cloudOrder = $0 }
            case "chips.home_rows":
                if case .int(let rows) = entry.value, rows >= 0 {
                    config.chips.homeRows = rows
                } else {
                    reader.error(entry, "'home_rows' must be a whole number, 0 or more")
                }
            case "tags.aliases":
                if let aliases = TagAliases.read(entry, into: &reader) { config.tagAliases = aliases }
            case "tags.hierarchy": reader.bool(entry) { config.tagHierarchy = $0 }
            case "taxonomies":
                if let taxonomies = TermTaxonomy.read(entry, into: &reader) { config.taxonomies = taxonomies }
            case "related.limit":
                if case .int(let limit) = entry.value, (0...100).contains(limit) {
                    config.related.limit = limit
                } else {
                    reader.error(entry, "'related.limit' must be a whole number from 0 to 100")
                }
            case "chips.related_limit":
                if case .int(let limit) = entry.value, limit >= 0 {
                    config.chips.relatedLimit = limit
                } else {
                    reader.error(entry, "'related_limit' must be a whole number, 0 or more")
                }
            case "chips.breakpoints":
                // Each breakpoint adds a set of positions to every chip: a long list multiplies
                // the site's size for no visible gain.
                let limits = ChipsConfig.breakpointLimits
                if case .list(let items) = entry.value, !items.isEmpty, items.count <= limits.count,
                    case let widths = items.compactMap({
                        if case .int(let w) = $0, limits.width.contains(w) { w } else { nil }
                    }),
                    widths.count == items.count
                {
                    config.chips.breakpoints = Array(Set(widths)).sorted()
                } else {
                    reader.error(
                        entry,
                        "'breakpoints' must be a list of 1 to \(limits.count) widths from \(limits.width.lowerBound) to \(limits.width.upperBound) px, e.g. [320, 480, 640, 800]"
                    )
                }
            case "chips.weights":
                if case .list(let items) = entry.value, !items.isEmpty, items.count <= ChipsConfig.maximumWeightSteps,
                    case let scales = items.compactMap({ (item: YAMLValue) -> Double? in
                        switch item {
                        case .int(let v) where v > 0: Double(v)
                        case .double(let v) where v > 0 && v < 10: v
                        default: nil
                        }
                    }), scales.count == items.count
                {
                    config.chips.weights = scales
                } else {
                    reader.error(
                        entry,
                        "'weights' must be a list of 1 to \(ChipsConfig.maximumWeightSteps) size multipliers, e.g. [1, 1.15, 1.35, 1.6]"
                    )
                }
            default: return false
            }
            return true
        }
        if let stringsEntry {
            config.strings = SiteStrings.readOverrides(stringsEntry, language: config.language, into: &reader)
        }
        if let pathsEntry, let problem = config.paths.staticFolderProblem {
            reader.error(pathsEntry, problem, hint: "keep the files to copy in a folder of their own, such as static/")
        }
        if reader.diagnostics.contains(where: { $0.severity == .error }) {
            throw BuildFailure(diagnostics: reader.diagnostics.sortedForDisplay())
        }
        return (config, reader.diagnostics)
    }

    /// Whether a base URL is one a site can be published at.
    ///
    /// That is `http://` or `https://` with a host, or a path from the root. Anything else
    /// (`javascript:…`, `file:`) would end up in every link and feed the site writes.
    package static func isValidBaseURL(_ url: String) -> Bool {
        let text = url.trimmingCharacters(in: .whitespaces)
        guard !text.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "\\" })
        else { return false }
        if text.hasPrefix("/") { return !text.hasPrefix("//") }
        let lower = text.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            let host = text.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return !host.isEmpty && !host.hasPrefix(":") && !host.hasPrefix("@")
        }
        return false
    }

    static func normalizedBaseURL(_ url: String) -> String {
        var url = url.trimmingCharacters(in: .whitespaces)
        if !url.hasSuffix("/") { url += "/" }
        return url
    }
}

/// Reads typed values out of a YAML mapping, collecting errors (wrong types) and warnings (unknown keys).
struct ConfigReader {
    let path: String
    let lines: [Substring]
    var diagnostics: [Diagnostic] = []

    /// Visits every key, nested mappings with dotted keys (`paths.output`).
    ///
    /// `handle` returns false for a key it does not know.
    mutating func read(
        _ mapping: YAMLMapping, prefix: String,
        handle: (String, YAMLMapping.Entry, inout ConfigReader) -> Bool
    ) {
        for entry in mapping.entries {
            let key = prefix.isEmpty ? entry.key : "\(prefix).\(entry.key)"
            if case .map(let nested) = entry.value,
                SiteConfig.knownKeys.contains(where: { $0.hasPrefix(key + ".") })
            {
                read(nested, prefix: key, handle: handle)
                continue
            }
            if !handle(key, entry, &self) {
                if SiteConfig.knownKeys.contains(where: { $0.hasPrefix(key + ".") }) {
                    error(entry, "'\(key)' must be a mapping, not \(entry.value.kindName)")
                } else if !SiteConfig.toleratedKeys.contains(key) {
                    warning(entry, "unknown config key '\(key)' is ignored", hint: suggestion(for: key))
                }
            }
        }
    }

    private func suggestion(for key: String) -> String? {
        let lower = key.lowercased().replacingOccurrences(of: "-", with: "_")
        if let match = SiteConfig.knownKeys.first(where: { $0 == lower || $0.hasSuffix("." + lower) }) {
            return "did you mean '\(match)'?"
        }
        if let match = Suggestion.closest(to: lower, in: SiteConfig.knownKeys) {
            return "did you mean '\(match)'?"
        }
        return "see the configuration reference in docs/configuration.md for the keys Tagflow reads"
    }

    mutating func string(_ entry: YAMLMapping.Entry, _ assign: (String) -> Void) {
        if let text = string(entry) { assign(text) }
    }

    mutating func string(_ entry: YAMLMapping.Entry) -> String? {
        switch entry.value {
        case .string(let text): return text
        case .int, .double, .bool: return entry.value.scalarText ?? ""
        default:
            error(entry, "'\(entry.key)' must be a string, not \(entry.value.kindName)")
            return nil
        }
    }

    mutating func bool(_ entry: YAMLMapping.Entry, _ assign: (Bool) -> Void) {
        guard case .bool(let value) = entry.value else {
            error(entry, "'\(entry.key)' must be true or false, not \(entry.value.kindName)")
            return
        }
        assign(value)
    }

    mutating func baseURL(_ entry: YAMLMapping.Entry, _ assign: (String) -> Void) {
        guard let text = string(entry) else { return }
        guard SiteConfig.isValidBaseURL(text) else {
            error(
                entry, "'\(entry.key)' must be an http:// or https:// URL, or a path from the root, not '\(text)'",
                hint: "for example https://example.org/blog/")
            return
        }
        assign(text)
    }

    mutating func positiveInt(_ entry: YAMLMapping.Entry, _ assign: (Int) -> Void) {
        guard case .int(let value) = entry.value, value > 0 else {
            error(entry, "'\(entry.key)' must be a whole number greater than 0")
            return
        }
        assign(value)
    }

    mutating func length(_ entry: YAMLMapping.Entry, minimum: Double = 0, _ assign: (Double) -> Void) {
        let value: Double? =
            switch entry.value {
            case .int(let number): Double(number)
            case .double(let number): number
            default: nil
            }
        guard let value, value >= minimum, value <= 1000 else {
            error(entry, "'\(entry.key)' must be a length in px from \(Int(minimum)) to 1000")
            return
        }
        assign(value)
    }

    /// A CSS colour: `#rgb`/`#rrggbb`, a name, or `rgb(…)`/`hsl(…)`; nothing that could end the rule.
    mutating func cssColor(_ entry: YAMLMapping.Entry, _ assign: (String) -> Void) {
        guard let text = string(entry),
            !text.isEmpty, text.count < 64,
            text.allSatisfy({ $0.isLetter || $0.isNumber || "#(),.% -".contains($0) })
        else {
            error(entry, "'\(entry.key)' must be a CSS colour such as #0b4a8c or rgb(11 74 140)")
            return
        }
        assign(text)
    }

    mutating func choice(_ entry: YAMLMapping.Entry, _ choices: [String], _ assign: (String) -> Void) {
        guard let text = string(entry), choices.contains(text) else {
            error(entry, "'\(entry.key)' must be one of \(choices.joined(separator: ", "))")
            return
        }
        assign(text)
    }

    mutating func relativePath(_ entry: YAMLMapping.Entry, _ assign: (String) -> Void) {
        guard let path = string(entry) else { return }
        if path.hasPrefix("/") || path.split(separator: "/").contains("..") {
            error(entry, "'\(entry.key)' must be a folder inside the site, not '\(path)'")
        } else {
            assign(path)
        }
    }

    mutating func error(_ entry: YAMLMapping.Entry, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(.error, tagflowError(entry, message, hint: hint)))
    }

    mutating func warning(_ entry: YAMLMapping.Entry, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(.warning, tagflowError(entry, message, hint: hint)))
    }

    private func tagflowError(_ entry: YAMLMapping.Entry, _ message: String, hint: String?) -> TagflowError {
        TagflowError(
            location: SourceLocation(path: path, line: entry.line, column: entry.column), step: "config",
            message: message, hint: hint,
            sourceLine: entry.line - 1 < lines.count ? String(lines[entry.line - 1]) : nil)
    }
}
