import Foundation
import TagflowMarkdown

/// Turns a file's front matter into a ``Post`` or ``Page``, reporting each bad key at its line.
struct FrontMatterReader {
    let path: String
    /// The whole file, for quoting a line in an error (split only then: most files have none).
    let text: String
    let mapping: YAMLMapping
    let timeZone: TimeZone
    let templateNames: Set<String>
    /// Whether the file is a page bundle's `index.md`: its folder's name then gives the date,
    /// slug and title.
    var isBundleIndex = false
    /// The site's tag aliases: a post's tag that is one becomes the tag it names.
    var tagAliases = TagAliases()
    /// The site's other taxonomies' names (`categories`): front matter keys read as lists of names.
    var taxonomyNames: [String] = []
    /// Where the body's HTML is kept (`nil`: in memory).
    var bodies: BodyStore?
    var diagnostics: [Diagnostic] = []

    /// The most tags one post may have.
    static let maximumTagCount = 1_000

    /// Keys with a meaning; the rest reach templates as `params`.
    static let postKeys: Set<String> = [
        "title", "date", "updated", "tags", "draft", "slug", "summary", "description", "template", "toc",
        "aliases", "lang", "series", "series_part",
    ]

    init(path: String, text: String, mapping: YAMLMapping, timeZone: TimeZone, templateNames: Set<String>) {
        self.templateNames = templateNames
        self.path = path
        self.text = text
        self.mapping = mapping
        self.timeZone = timeZone
    }

    /// The name the defaults come from: the file's, or a bundle's folder's (`2024-04-01-trip.md`).
    var fileName: String {
        isBundleIndex ? Self.fileName(of: SiteFiles.parentFolder(of: path)) + ".md" : Self.fileName(of: path)
    }

    var baseName: String {
        let fileName = fileName
        return fileName.lastIndex(of: ".").map { String(fileName[..<$0]) } ?? fileName
    }

    /// The last non-empty segment of a `/`-separated path; the path itself when it has none.
    static func fileName(of path: String) -> String {
        // Found from the end: splitting the whole path showed in a large build.
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") {
            end = utf8.index(before: end)
        }
        guard end > utf8.startIndex else { return path }
        let start = utf8[..<end].lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        return String(path[start..<end])
    }

    mutating func post(body: RenderedMarkdown) -> Post? {
        let title = string("title") ?? defaultTitle()
        var date: ContentDate?
        if let entry = mapping.entry("date") {
            date = self.date(entry)
        } else if let fromName = ContentDate.fromFileName(fileName, timeZone: timeZone) {
            date = fromName
        } else if Self.startsWithDateShape(fileName) {
            error(
                nil, "invalid date '\(fileName.prefix(10))' at the start of the file name",
                hint: "name the file YYYY-MM-DD-slug.md with a real date, or add `date:` to the front matter")
        } else {
            error(
                nil, "post has no date",
                hint: "add `date: YYYY-MM-DD` to the front matter or start the file name with YYYY-MM-DD-")
        }
        let updated = mapping.entry("updated").flatMap { self.date($0) }
        let tags = self.tags()
        let draft = bool("draft") ?? false
        let toc = bool("toc")
        let slug = self.slug(default: Self.stripDatePrefix(baseName))
        // The author's `<!--more-->` comes first, as in Hugo; then `summary:`, then the first paragraph.
        let written = string("summary") ?? string("description")
        let excerpt = body.excerpt.flatMap { $0.isEmpty ? nil : $0 }
        let summary = excerpt ?? written ?? Self.shortened(body.firstParagraph)
        let description = string("description") ?? summary
        let template = self.template()
        let aliases = self.aliases()
        let language = self.language()
        let series = self.series()
        var terms = PostTerms()
        for taxonomy in taxonomyNames {
            guard let entry = mapping.entry(taxonomy) else { continue }
            terms.names[taxonomy] = names(in: entry, of: taxonomy)
            terms.locations[taxonomy] = SourceLocation(path: path, line: entry.line, column: entry.column)
        }
        guard let date, let slug, !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        return Post(
            sourcePath: path, title: title, date: date, updated: updated, slug: slug, tags: tags, isDraft: draft,
            summary: summary, description: description, template: template, params: params(),
            body: ContentBody(body, keptIn: bodies),
            tagsLocation: mapping.entry("tags").map { SourceLocation(path: path, line: $0.line, column: $0.column) },
            showsTableOfContents: toc, aliases: aliases, language: language, series: series, terms: terms)
    }

    mutating func page(body: RenderedMarkdown) -> Page? {
        let title = string("title") ?? defaultTitle()
        let slug = self.slug(default: baseName)
        let description = string("description") ?? string("summary") ?? Self.shortened(body.firstParagraph)
        let template = self.template()
        let aliases = self.aliases()
        let language = self.language()
        guard let slug, !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        return Page(
            sourcePath: path, title: title, slug: slug, description: description, template: template,
            params: params(), body: ContentBody(body, keptIn: bodies), aliases: aliases, language: language)
    }

    private mutating func defaultTitle() -> String {
        // A `title:` of the wrong type has its own error; it is not also missing.
        if mapping["title"] == nil || mapping["title"] == .null {
            warning(nil, "no title in front matter; using the file name", hint: "add `title: …` to the front matter")
        }
        return Self.stripDatePrefix(baseName).replacingOccurrences(of: "-", with: " ")
    }

    /// A `template:` value, which must name a template of the theme.
    private mutating func template() -> String? {
        guard let entry = mapping.entry("template"), let name = string("template") else { return nil }
        if !templateNames.contains(name) {
            error(
                entry, "template '\(name)' does not exist", hint: "add templates/\(name).mustache or remove `template:`"
            )
        }
        return name
    }

    /// The keys without a meaning of their own, for templates; a key that looks like a typo of
    /// a known one (`tittle`) is warned about (an error with `--strict`).
    private mutating func params() -> YAMLMapping {
        let entries = mapping.entries.filter { !Self.postKeys.contains($0.key) && !taxonomyNames.contains($0.key) }
        for entry in entries {
            if let known = Suggestion.closest(to: entry.key, in: Self.postKeys) {
                warning(
                    entry, "unknown front matter key '\(entry.key)'; did you mean '\(known)'?",
                    hint: "keys Tagflow does not know reach templates as params; docs/front-matter.md lists the others")
            }
        }
        return YAMLMapping(entries: entries)
    }

    private mutating func string(_ key: String) -> String? {
        guard let entry = mapping.entry(key) else { return nil }
        switch entry.value {
        case .null: return nil
        case .string, .int, .double, .bool: return entry.value.scalarText
        default:
            error(entry, "'\(key)' must be text, not \(entry.value.kindName)")
            return nil
        }
    }

    private mutating func bool(_ key: String) -> Bool? {
        guard let entry = mapping.entry(key) else { return nil }
        guard case .bool(let value) = entry.value else {
            error(entry, "'\(key)' must be true or false, not \(entry.value.kindName)")
            return nil
        }
        return value
    }

    private mutating func date(_ entry: YAMLMapping.Entry) -> ContentDate? {
        guard entry.value.scalarText != nil else {
            error(entry, "'\(entry.key)' must be a date, not \(entry.value.kindName)")
            return nil
        }
        guard let text = entry.value.scalarText, let date = ContentDate.parse(text, timeZone: timeZone) else {
            error(
                entry, "invalid \(entry.key) '\(entry.value.scalarText ?? entry.value.kindName)'",
                hint: "write a date as 2024-03-05, 2024-03-05 09:30 or 2024-03-05T09:30:00+01:00")
            return nil
        }
        return date
    }

    private mutating func tags() -> [String] {
        guard let entry = mapping.entry("tags") else { return [] }
        return names(in: entry, of: "tags")
    }

    /// The names of a `tags:` or another taxonomy's entry: a list, or comma-separated text.
    ///
    /// Cleaned, each once. Tag aliases apply to tags only.
    private mutating func names(in entry: YAMLMapping.Entry, of key: String) -> [String] {
        var names: [String] = []
        switch entry.value {
        case .null: return []
        case .string(let text): names = text.split(separator: ",").map(String.init)
        case .list(let items):
            for item in items {
                guard let text = item.scalarText else {
                    error(
                        entry,
                        key == "tags"
                            ? "each tag must be text, not \(item.kindName)"
                            : "each name in '\(key)' must be text, not \(item.kindName)",
                        hint: key == "tags"
                            ? "write tags as `tags: [swift, layout]`" : "write them as `\(key): [Guides]`")
                    return []
                }
                names.append(text)
            }
        default:
            error(entry, "'\(key)' must be a list or comma-separated text, not \(entry.value.kindName)")
            return []
        }
        var seen = Set<TagKey>()
        var cleaned: [String] = []
        for name in names {
            let spelling = TagKey.cleanedSpelling(name)
            let resolved = key == "tags" ? tagAliases.resolve(spelling) : spelling
            guard !resolved.isEmpty else { continue }
            if seen.insert(TagKey(resolved)).inserted { cleaned.append(resolved) }
        }
        // Every tag page lists its posts with their tags, so the output grows with the square of a
        // post's tag count: 100,000 tags would write some 10 GB.
        if cleaned.count > Self.maximumTagCount {
            error(
                entry, "a post may have at most \(Self.maximumTagCount) \(key), not \(cleaned.count)",
                hint: "\(key) are for finding posts; keep a few per post")
            return []
        }
        return cleaned
    }

    /// `series:` (a name, or a list of one, as Hugo's taxonomy writes it) and `series_part:`.
    private mutating func series() -> PostSeries? {
        let partEntry = mapping.entry("series_part")
        var part: Int?
        if let partEntry {
            if case .int(let number) = partEntry.value, (1...PostSeries.maximumPart).contains(number) {
                part = number
            } else {
                error(partEntry, "'series_part' must be a whole number from 1 to \(PostSeries.maximumPart)")
            }
        }
        guard let entry = mapping.entry("series"), entry.value != .null else {
            if let partEntry { error(partEntry, "'series_part' needs a `series:` to be a part of") }
            return nil
        }
        let name: String?
        switch entry.value {
        case .string, .int, .double: name = entry.value.scalarText
        case .list(let items) where items.count == 1: name = items[0].scalarText
        case .list(let items) where items.count > 1:
            error(entry, "a post belongs to one series, not \(items.count)", hint: "keep one name in `series:`")
            return nil
        default: name = nil
        }
        guard let name = name.map(TagKey.cleanedSpelling), !name.isEmpty else {
            error(entry, "'series' must be a name, not \(entry.value.kindName)")
            return nil
        }
        let at = partEntry ?? entry
        return PostSeries(
            name: name, part: part, location: SourceLocation(path: path, line: at.line, column: at.column))
    }

    /// `lang:`, a language tag (`de`, `pt-BR`, `zh-Hant`), which becomes an HTML `lang` attribute.
    private mutating func language() -> String? {
        guard let entry = mapping.entry("lang"), let written = string("lang") else { return nil }
        // `en_US`, as locales are often written, is the tag `en-US`.
        let tag = written.replacingOccurrences(of: "_", with: "-")
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        let valid =
            subtags.first.map { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } } ?? false
            && subtags.dropFirst().allSatisfy {
                (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            }
        guard valid else {
            error(entry, "'lang' must be a language tag such as 'de' or 'pt-BR', not '\(written)'")
            return nil
        }
        return tag
    }

    /// The `aliases:` list (or one text), each a site path (``PageAliases/sitePath(of:)``).
    private mutating func aliases() -> [String] {
        guard let entry = mapping.entry("aliases") else { return [] }
        let items: [YAMLValue]
        switch entry.value {
        case .null: return []
        case .list(let list): items = list
        case .string: items = [entry.value]
        default:
            error(entry, "'aliases' must be a list of addresses, not \(entry.value.kindName)")
            return []
        }
        var paths: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                error(entry, "each alias must be text, not \(item.kindName)", hint: "write `aliases: [/old/address/]`")
                return []
            }
            switch PageAliases.sitePath(of: text) {
            case .success(let path): if !paths.contains(path) { paths.append(path) }
            case .failure(let problem):
                error(
                    entry, "invalid alias '\(text)': \(problem.message)",
                    hint: "write the old address as `/2019/05/hello.html` or `/old-name/`")
                return []
            }
        }
        return paths
    }

    private mutating func slug(default fallback: String) -> Slug? {
        guard let entry = mapping.entry("slug"), let text = string("slug") else {
            return Slug(from: fallback)
        }
        guard let slug = Slug.validated(text) else {
            error(
                entry, "invalid slug '\(text)'",
                hint: "a slug is one URL segment of letters, digits, '-', '_' or '.', without '/' or '..'")
            return nil
        }
        return slug
    }

    /// Whether a file name starts like `2024-13-45-`, a date prefix whether or not the date exists.
    static func startsWithDateShape(_ name: String) -> Bool {
        let bytes = Array(name.utf8.prefix(11))
        guard bytes.count == 11 else { return false }
        return bytes.indices.allSatisfy { index in
            [4, 7, 10].contains(index)
                ? bytes[index] == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }
    }

    static func stripDatePrefix(_ name: String) -> String {
        guard ContentDate.fromFileName(name, timeZone: TimeZone(identifier: "UTC") ?? .current) != nil else {
            return name
        }
        return String(name.dropFirst(11))
    }

    /// About the first 50 words of a paragraph, for summaries.
    static func shortened(_ text: String, words limit: Int = 50) -> String {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        guard words.count > limit else { return words.joined(separator: " ") }
        return words.prefix(limit).joined(separator: " ") + "…"
    }

    private mutating func error(_ entry: YAMLMapping.Entry?, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(.error, problem(entry, message, hint: hint)))
    }

    private mutating func warning(_ entry: YAMLMapping.Entry?, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(.warning, problem(entry, message, hint: hint)))
    }

    private func problem(_ entry: YAMLMapping.Entry?, _ message: String, hint: String?) -> TagflowError {
        let line = entry?.line ?? 1
        return TagflowError(
            location: SourceLocation(path: path, line: line, column: entry?.column ?? 1), step: "content",
            message: message, hint: hint,
            sourceLine: entry != nil ? Self.line(line, of: text) : nil)
    }

    /// The 1-based line `number` of `text`, or `nil` past its end.
    static func line(_ number: Int, of text: String) -> String? {
        guard number >= 1 else { return nil }
        var remaining = number - 1
        var start = text.utf8.startIndex
        while remaining > 0 {
            guard let newline = text.utf8[start...].firstIndex(of: 0x0A) else { return nil }
            start = text.utf8.index(after: newline)
            remaining -= 1
        }
        let end = text.utf8[start...].firstIndex(of: 0x0A) ?? text.utf8.endIndex
        return String(text[start..<end])
    }
}
