internal import TagflowMarkdown

/// A taxonomy besides tags (`taxonomies:` in site.yml; `categories` unless the site says
/// otherwise): a front matter key whose names get pages, feeds and a list, as tags do.
public struct TermTaxonomy: Sendable, Hashable {
    /// The front matter key and the URL segment (`categories` → `/categories/NAME/`).
    public var name: String
    /// The title site.yml gives it; `nil`: the strings' for `categories`, else the name with a
    /// capital (``displayTitle(strings:)``).
    public var title: String?

    public init(name: String, title: String? = nil) {
        self.name = name
        self.title = title
    }

    /// The taxonomies a site has when site.yml names none: Hugo's and Jekyll's `categories`.
    public static let defaults = [TermTaxonomy(name: "categories")]

    /// Names a taxonomy cannot take: front matter keys with another meaning, and the site's own
    /// top-level addresses.
    static let reservedNames: Set<String> = FrontMatterReader.postKeys.union([
        "posts", "page", "assets", "archive", "feed", "sitemap", "params", "index",
    ])

    /// The title pages show.
    func displayTitle(strings: SiteStrings) -> String {
        if let title { return title }
        if name == "categories" { return strings.text("categories") }
        let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// Reads `taxonomies:`: a list of names, or a mapping of names to titles.
    ///
    /// An empty list turns them off. Each bad name is an error at its line.
    static func read(_ entry: YAMLMapping.Entry, into reader: inout ConfigReader) -> [TermTaxonomy]? {
        var taxonomies: [TermTaxonomy] = []
        switch entry.value {
        case .null: return []
        case .list(let items):
            for item in items {
                guard case .string(let name) = item else {
                    reader.error(entry, "each taxonomy must be a name, not \(item.kindName)")
                    return nil
                }
                taxonomies.append(TermTaxonomy(name: name))
            }
        case .map(let mapping):
            for item in mapping.entries {
                guard let title = item.value.scalarText, !title.isEmpty else {
                    reader.error(
                        item, "the title of the taxonomy '\(item.key)' must be text, not \(item.value.kindName)")
                    return nil
                }
                taxonomies.append(TermTaxonomy(name: item.key, title: title))
            }
        default:
            reader.error(
                entry,
                "'taxonomies' must be a list of names or a mapping of names to titles, not \(entry.value.kindName)",
                hint: "write `taxonomies: [categories, topics]`")
            return nil
        }
        var seen = Set<String>()
        for taxonomy in taxonomies {
            let name = taxonomy.name
            if !isValidName(name) {
                reader.error(
                    entry, "'\(name)' cannot name a taxonomy",
                    hint: "use lowercase letters, digits, '-' and '_', starting with a letter, as in `categories`")
                return nil
            }
            if reservedNames.contains(name) {
                reader.error(
                    entry, "'\(name)' cannot name a taxonomy: the key means something else",
                    hint: name == "tags" || name == "series" ? "tags and series have their pages already" : nil)
                return nil
            }
            if !seen.insert(name).inserted {
                reader.error(entry, "the taxonomy '\(name)' is named twice")
                return nil
            }
        }
        return taxonomies
    }

    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
            name.utf8.count <= 40
        else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
