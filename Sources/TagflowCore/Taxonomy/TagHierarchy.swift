/// Tags nested with `/` (`lang/swift` is `swift` under `lang`), when `tags.hierarchy` is on.
///
/// A nested tag keeps its whole path as its name and identity, so its URL is the one it had
/// before the setting was turned on (`/tags/lang-swift/`); the tags above it become tags of their
/// own, with the posts of every tag under them.
enum TagHierarchy {
    static let separator: Character = "/"
    /// The deepest a tag may nest: deeper paths are more likely a mistake than a taxonomy.
    static let maximumDepth = 8

    /// The tags above a tag, nearest the root first, each spelt as the written tag spells it:
    /// `Lang/Swift/UI` → `Lang`, `Lang/Swift`.
    static func ancestors(of spelling: String, key: TagKey) -> [(spelling: String, key: TagKey)] {
        guard key.rawValue.contains(separator) else { return [] }
        let levels = spelling.split(separator: separator, omittingEmptySubsequences: false)
        guard levels.count > 1 else { return [] }
        return (1..<levels.count).map { depth in
            let prefix = levels[..<depth].joined(separator: String(separator))
            return (prefix, TagKey(prefix))
        }
    }

    /// The tag right above a tag, or `nil` at the root.
    static func parent(of key: TagKey) -> TagKey? {
        guard let last = key.rawValue.lastIndex(of: separator) else { return nil }
        let prefix = key.rawValue[..<last]
        return prefix.isEmpty ? nil : TagKey(String(prefix))
    }

    /// The last level of a tag's name: `swift` for `lang/swift`.
    static func leafName(_ name: String) -> String {
        name.lastIndex(of: separator).map { String(name[name.index(after: $0)...]) } ?? name
    }

    /// Tags whose nesting is malformed: an empty level (`a/`, `/b`, `a//b`), a level with spaces
    /// at its ends (`a / b`), or more than ``maximumDepth`` levels; each an error at the post's
    /// `tags:` line.
    static func problems(posts: [Post]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for post in posts.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            for tag in post.tags where tag.contains(separator) {
                let levels = tag.split(separator: separator, omittingEmptySubsequences: false)
                let message: String
                let hint: String
                if levels.contains(where: { $0.allSatisfy(\.isWhitespace) }) {
                    message = "the tag '\(tag)' has an empty level"
                    hint = "write the levels between single slashes, as in `lang/swift`"
                } else if levels.contains(where: { $0.first?.isWhitespace == true || $0.last?.isWhitespace == true }) {
                    message = "the tag '\(tag)' has spaces around a '/'"
                    hint = "write it without them, as in `lang/swift`"
                } else if levels.count > maximumDepth {
                    message = "the tag '\(tag)' is \(levels.count) levels deep; at most \(maximumDepth) are allowed"
                    hint = "nest it less deeply"
                } else {
                    continue
                }
                problems.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: post.tagsLocation ?? SourceLocation(path: post.sourcePath), step: "content",
                            message: message, hint: hint + " (or turn off `tags.hierarchy` in site.yml)")))
            }
        }
        return problems
    }
}
