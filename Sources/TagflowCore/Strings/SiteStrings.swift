import TagflowMarkdown

/// The words the built-in theme shows ("Posts", "min read", month names), in the site's
/// `language`, with `site.yml`'s `strings:` over the built-in translations.
///
/// Templates read them as `strings.KEY`; what needs a count or a name filled in is given to them
/// ready (`post.reading_time`, `pagination.position_text`).
public struct SiteStrings: Sendable, Hashable {
    /// The site's language tag (`de-CH`).
    public let language: String
    private var phrases: [String: Phrase]
    /// The language's plural rule, for every counted string.
    private let pluralRule: PluralRule
    /// How a day is written, parsed from `date_format`.
    private var dayPieces: [DayPiece] = []
    private var monthNames: [String] = []

    /// What one string is for, and what it may hold.
    package struct Key: Sendable {
        /// Its name in `strings:` and in templates (`skip_to_content`).
        package let name: String
        /// The names it fills in, each written `{name}`; all of them must appear, except in
        /// `date_format`, which needs `{day}`, `{year}` and `{month}` or `{month_number}`.
        package let placeholders: [String]
        /// Whether it says a number (`{count}`) and so has a form for each plural category.
        package let isCounted: Bool
    }

    /// Every string the built-in theme shows.
    package static let keys: [Key] = {
        func key(_ name: String, _ placeholders: String...) -> Key {
            Key(name: name, placeholders: placeholders, isCounted: false)
        }
        func counted(_ name: String, _ placeholders: String...) -> Key {
            Key(name: name, placeholders: ["count"] + placeholders, isCounted: true)
        }
        return [
            key("skip_to_content"), key("site_navigation"), key("posts"), key("tags"), key("archive"), key("feed"),
            key("atom_feed"), key("built_with", "tagflow"), key("updated"), counted("reading_time"), key("draft"),
            key("scheduled"), key("contents"), key("related_posts"), key("more_posts"), key("newer"), key("older"),
            key("newer_arrow"), key("older_arrow"), key("pages"), key("page_number", "page"),
            key("page_of", "page", "pages"), key("tagged", "tag"), counted("post_count"), counted("tag_count"),
            key("tags_across_posts", "tags", "posts"), key("all_tags_link"), key("page_not_found"),
            key("not_found_text", "latest_posts", "tag_list"), key("latest_posts"), key("tag_list"),
            key("tag_moved", "tag"), key("page_moved", "page"), key("tag_description", "tag", "site"),
            key("tags_description", "site"), key("archive_description", "site"), key("related_tags"),
            key("all_tags"), key("most_used_tags"), counted("show_all_tags"), counted("more_tags"),
            key("date_format", "day", "month", "month_number", "year"), key("series"),
            key("series_part", "part", "parts"), key("all_series_link"), key("series_description", "series", "site"),
            key("series_list_description", "site"), key("breadcrumbs"), key("child_tags", "tag"),
            key("categories"), key("term_description", "term", "site"),
        ] + monthKeys.map { key($0) }
    }()

    static let monthKeys = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    static let keysByName = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })

    /// The strings for a language: the built-in translation of its language (`de` for `de-CH`),
    /// English for a language Tagflow has none for, and `overrides` over either.
    public init(language: String, overrides: [String: Phrase] = [:]) {
        self.language = language
        pluralRule = PluralRule(language: language)
        let table = BuiltInStrings.tables[Self.baseLanguage(of: language)] ?? BuiltInStrings.english
        phrases = table.merging(overrides) { _, override in override }
        monthNames = Self.monthKeys.map { phrases[$0]?.form(.other) ?? $0 }
        dayPieces = Self.dayPieces(of: phrases["date_format"]?.form(.other) ?? "{day} {month} {year}")
    }

    /// `de` of `de-CH`, lowercased.
    static func baseLanguage(of tag: String) -> String {
        String(tag.lowercased().split(separator: "-").first ?? "")
    }

    /// Whether the language is written right to left (Arabic, Hebrew, Persian, Urdu…).
    public var isRightToLeft: Bool { Self.isRightToLeft(language) }

    /// Whether a language tag names a language written right to left.
    public static func isRightToLeft(_ language: String) -> Bool {
        ["ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"].contains(baseLanguage(of: language))
    }

    /// A string with its placeholders filled in (`values` are plain text; the caller escapes).
    public func text(_ key: String, _ values: [String: String] = [:]) -> String {
        Self.filled(phrases[key]?.form(.other) ?? key, values)
    }

    /// A counted string's form for `count`, with `{count}` and the other placeholders filled in.
    public func counted(_ key: String, _ count: Int, _ values: [String: String] = [:]) -> String {
        let form = phrases[key]?.form(PluralCategory.of(count, rule: pluralRule)) ?? key
        return Self.filled(form, values.merging(["count": String(count)]) { given, _ in given })
    }

    /// Every plain string by key, for templates (`strings.posts`); the `other` form of counted ones.
    public var all: [String: String] {
        phrases.mapValues { $0.form(.other) }
    }

    /// A month's name (1 is January).
    package func monthName(_ month: Int) -> String { monthNames[min(max(month, 1), 12) - 1] }

    /// A day as `date_format` writes it (`5 March 2024`, `5. März 2024`, `2024年3月5日`).
    package func day(year: Int, month: Int, day: Int) -> String {
        var out = ""
        out.reserveCapacity(24)
        for piece in dayPieces {
            switch piece {
            case .literal(let text): out += text
            case .day: out += String(day)
            case .month: out += monthName(month)
            case .monthNumber: out += String(month)
            case .year: out += String(year)
            }
        }
        return out
    }

    private enum DayPiece: Sendable, Hashable {
        case literal(String), day, month, monthNumber, year
    }

    private static func dayPieces(of format: String) -> [DayPiece] {
        var pieces: [DayPiece] = []
        var literal = ""
        for part in Self.parts(of: format) {
            switch part {
            case .text(let text): literal += text
            case .placeholder(let name):
                let piece: DayPiece? =
                    switch name {
                    case "day": .day
                    case "month": .month
                    case "month_number": .monthNumber
                    case "year": .year
                    default: nil
                    }
                guard let piece else {
                    literal += "{\(name)}"
                    continue
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(piece)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    static func filled(_ text: String, _ values: [String: String]) -> String {
        guard text.contains("{") else { return text }
        var out = ""
        for part in parts(of: text) {
            switch part {
            case .text(let text): out += text
            case .placeholder(let name): out += values[name] ?? "{\(name)}"
            }
        }
        return out
    }

    /// A piece of a string: text, or a `{placeholder}`.
    enum Part: Equatable {
        case text(String)
        case placeholder(String)
    }

    /// A string cut into text and placeholders; a `{` with no `}` after it is text.
    static func parts(of text: String) -> [Part] {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            parts.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        return parts
    }
}

extension SiteStrings {
    /// Why a string does not fit its key, or `nil`: a placeholder it does not have, or one it
    /// needs and leaves out (`needsAll`: false for the forms of a counted string other than
    /// `other`, which may say the number in words).
    static func problem(in text: String, of key: Key, needsAll: Bool = true) -> String? {
        // Each '{' is closed before the next opens, and each '}' closes one: a lone '}' is as
        // surely a slip as a lone '{'.
        var isOpen = false
        for character in text where character == "{" || character == "}" {
            guard isOpen == (character == "}") else { return "a '{' or '}' that is not around a placeholder" }
            isOpen.toggle()
        }
        if isOpen { return "a '{' or '}' that is not around a placeholder" }
        let used = Set(
            parts(of: text).compactMap { part -> String? in
                if case .placeholder(let name) = part { return name } else { return nil }
            })
        let known = key.placeholders.map { "{\($0)}" }.joined(separator: ", ")
        if let unknown = used.subtracting(key.placeholders).sorted().first {
            return key.placeholders.isEmpty
                ? "'{\(unknown)}' is not filled in: '\(key.name)' has no placeholders"
                : "'{\(unknown)}' is not a placeholder of '\(key.name)' (it has \(known))"
        }
        guard needsAll else { return nil }
        let missing: [String]
        if key.name == "date_format" {
            missing =
                ["day", "year"].filter { !used.contains($0) }
                + (used.contains("month") || used.contains("month_number") ? [] : ["month"])
        } else {
            missing = key.placeholders.filter { !used.contains($0) }
        }
        if let first = missing.first {
            return "'\(key.name)' must contain {\(first)}"
        }
        return nil
    }

    /// Reads `strings:` of `site.yml`: each key's text, or for a counted string a text or a
    /// mapping of plural categories (`one: "{count} Beitrag"`, `other: "{count} Beiträge"`).
    ///
    /// An unknown key is a warning; a text that leaves out or invents a placeholder, a counted
    /// string with no `other`, and an unknown category are errors; a category the language never
    /// uses is a warning.
    static func readOverrides(
        _ entry: YAMLMapping.Entry, language: String, into reader: inout ConfigReader
    ) -> [String: Phrase] {
        guard case .map(let mapping) = entry.value else {
            reader.error(entry, "'strings' must be a mapping of names to texts, like `posts: Beiträge`")
            return [:]
        }
        var overrides: [String: Phrase] = [:]
        let categories = PluralCategory.used(by: language)
        for item in mapping.entries {
            guard let key = keysByName[item.key] else {
                let hint = Suggestion.closest(to: item.key, in: keys.map(\.name)).map { "did you mean '\($0)'?" }
                reader.warning(
                    item, "unknown string '\(item.key)' is ignored",
                    hint: hint ?? "the strings are listed in docs/templates.md#strings")
                continue
            }
            switch item.value {
            case .string, .int, .double, .bool:
                let text = item.value.scalarText ?? ""
                if let problem = problem(in: text, of: key) {
                    reader.error(item, "strings.\(key.name): \(problem)")
                } else {
                    overrides[key.name] = .text(text)
                }
            case .map(let forms) where key.isCounted:
                var phrase: [PluralCategory: String] = [:]
                var failed = false
                for form in forms.entries {
                    guard let category = PluralCategory(rawValue: form.key) else {
                        reader.error(
                            form, "'\(form.key)' is not a plural category",
                            hint: "use zero, one, two, few, many and other (other is required)")
                        failed = true
                        continue
                    }
                    guard let text = form.value.scalarText else {
                        reader.error(form, "strings.\(key.name).\(form.key) must be a text")
                        failed = true
                        continue
                    }
                    if let problem = problem(in: text, of: key, needsAll: category == .other) {
                        reader.error(form, "strings.\(key.name).\(form.key): \(problem)")
                        failed = true
                        continue
                    }
                    if !categories.contains(category) {
                        reader.warning(
                            form, "'\(form.key)' is never used in '\(language)'",
                            hint: "its numbers take \(categories.sorted().map(\.rawValue).joined(separator: ", "))")
                    }
                    phrase[category] = text
                }
                guard !failed else { continue }
                if phrase[.other] == nil {
                    reader.error(item, "strings.\(key.name) needs an 'other' form, used for every count not given")
                } else {
                    overrides[key.name] = Phrase(forms: phrase)
                }
            case .map:
                reader.error(item, "strings.\(key.name) does not take a count: write one text")
            default:
                reader.error(item, "strings.\(key.name) must be a text, not \(item.value.kindName)")
            }
        }
        return overrides
    }
}
