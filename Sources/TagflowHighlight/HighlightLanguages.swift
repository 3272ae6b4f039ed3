internal import Foundation

/// Which language definition file highlights which language name.
///
/// Source-highlight's own definitions (`/usr/share/source-highlight`, named by its `lang.map`)
/// cover most languages; Tagflow adds definitions for those it lacks (Swift, Kotlin, TypeScript…),
/// which live in `Sources/TagflowHighlight/Languages/` and are embedded in the binary.
struct HighlightLanguages: Sendable {
    /// A definition file and the folder it (and what it includes) is read from.
    struct Definition: Sendable, Hashable {
        var folder: String
        var file: String
    }

    private let definitions: [String: Definition]

    /// The names Tagflow's own definitions answer to, besides their file names.
    static let tagflowAliases: [String: String] = [
        "swift": "swift.lang",
        "objc": "objc.lang", "objective-c": "objc.lang", "objectivec": "objc.lang", "obj-c": "objc.lang",
        "objective-c++": "objc.lang", "objc++": "objc.lang", "m": "objc.lang", "mm": "objc.lang",
        "typescript": "typescript.lang", "ts": "typescript.lang", "tsx": "typescript.lang",
        "mts": "typescript.lang", "cts": "typescript.lang",
        "kotlin": "kotlin.lang", "kt": "kotlin.lang", "kts": "kotlin.lang",
        "powershell": "powershell.lang", "ps1": "powershell.lang", "pwsh": "powershell.lang",
        "psm1": "powershell.lang", "posh": "powershell.lang",
        "yaml": "yaml.lang", "yml": "yaml.lang",
        "toml": "toml.lang",
        "markdown": "markdown.lang", "md": "markdown.lang", "mkd": "markdown.lang",
        "dockerfile": "dockerfile.lang", "docker": "dockerfile.lang", "containerfile": "dockerfile.lang",
    ]

    /// Names writers use that Source-highlight's map lacks, for its own definitions.
    static let systemAliases: [String: String] = [
        "c++": "cpp.lang", "golang": "go.lang", "rust": "rust.lang", "python3": "python.lang",
        "py3": "python.lang", "jsx": "javascript.lang", "mjs": "javascript.lang", "cjs": "javascript.lang",
        "node": "javascript.lang", "c#": "csharp.lang", "cs": "csharp.lang", "console": "sh.lang",
        "shell-session": "sh.lang", "shellsession": "sh.lang", "zsh": "sh.lang", "fish": "sh.lang",
        "svg": "xml.lang", "xhtml": "html.lang", "vue": "html.lang", "scss": "css.lang", "less": "css.lang",
        "jsonc": "json.lang", "json5": "json.lang", "make": "makefile.lang", "mk": "makefile.lang",
        "postgresql": "sql.lang", "postgres": "sql.lang", "mysql": "sql.lang", "sqlite": "sql.lang",
        "plsql": "sql.lang", "udiff": "diff.lang", "rb": "ruby.lang",
    ]

    /// Reads Source-highlight's map from `systemFolder` and puts Tagflow's own definitions, in
    /// `tagflowFolder`, over it.
    init(systemFolder: String?, tagflowFolder: String?) {
        var definitions: [String: Definition] = [:]
        if let systemFolder {
            for (name, file) in Self.readLangMap(in: systemFolder) {
                definitions[name] = Definition(folder: systemFolder, file: file)
            }
            for (name, file) in Self.systemAliases where definitions[name] == nil {
                if FileManager.default.fileExists(atPath: systemFolder + "/" + file) {
                    definitions[name] = Definition(folder: systemFolder, file: file)
                }
            }
        }
        if let tagflowFolder {
            for (name, file) in Self.tagflowAliases {
                definitions[name] = Definition(folder: tagflowFolder, file: file)
            }
        }
        self.definitions = definitions
    }

    /// The definition for a language name as a writer spells it (case does not matter), or `nil`.
    func definition(for language: String) -> Definition? {
        definitions[language.lowercased()]
    }

    /// Every language name known, sorted.
    var names: [String] { definitions.keys.sorted() }

    /// `name = file.lang` lines; comments and blank lines skipped.
    static func readLangMap(in folder: String) -> [(String, String)] {
        guard let text = try? String(contentsOfFile: folder + "/lang.map", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let file = parts[1].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, file.hasSuffix(".lang"), !file.contains("/") else { return nil }
            return (name, file)
        }
    }
}
