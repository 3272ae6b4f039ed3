internal import TagflowMarkdown

/// `tags.aliases` in `site.yml`: other names of tags (`golang: Go`), merged into one tag under the
/// name they point to, whose old pages redirect to it.
public struct TagAliases: Sendable, Hashable {
    /// Each alias's identity → the spelling of the tag it stands for, chains followed
    /// (`a: b`, `b: C` sends `a` to `C`).
    public private(set) var targets: [TagKey: String] = [:]
    /// Each alias as written, in the order of `site.yml`: the pages at their old addresses.
    public private(set) var names: [String] = []

    public init() {}

    /// The tag a post's tag stands for: its alias's target, or itself.
    func resolve(_ spelling: String) -> String {
        targets.isEmpty ? spelling : targets[TagKey(spelling)] ?? spelling
    }

    /// Reads the mapping, reporting a value that is not text, an alias of itself, an alias given
    /// twice and a cycle of aliases at their lines.
    static func read(_ entry: YAMLMapping.Entry, into reader: inout ConfigReader) -> TagAliases? {
        guard case .map(let mapping) = entry.value else {
            reader.error(
                entry, "'tags.aliases' must be a mapping of names, like `golang: Go`, not \(entry.value.kindName)")
            return nil
        }
        var direct: [TagKey: (target: String, entry: YAMLMapping.Entry)] = [:]
        var aliases = TagAliases()
        for alias in mapping.entries {
            guard let target = alias.value.scalarText.map(TagKey.cleanedSpelling), !target.isEmpty else {
                reader.error(alias, "the alias '\(alias.key)' must name a tag, not \(alias.value.kindName)")
                continue
            }
            let key = TagKey(alias.key)
            if key == TagKey(target) {
                reader.error(alias, "'\(alias.key)' is an alias of itself", hint: "remove the line")
                continue
            }
            if direct[key] != nil {
                reader.error(alias, "'\(alias.key)' is an alias twice", hint: "keep one line for it")
                continue
            }
            direct[key] = (target, alias)
            aliases.names.append(TagKey.cleanedSpelling(alias.key))
        }
        var failed = false
        for (key, first) in direct {
            var target = first.target
            var seen: Set<TagKey> = [key]
            while let next = direct[TagKey(target)] {
                guard seen.insert(TagKey(target)).inserted else {
                    reader.error(
                        first.entry, "the aliases of '\(first.entry.key)' lead back to it",
                        hint: "an alias must end at a tag that is not itself an alias")
                    failed = true
                    break
                }
                target = next.target
            }
            aliases.targets[key] = target
        }
        return failed ? nil : aliases
    }
}
