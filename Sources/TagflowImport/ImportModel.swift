import TagflowMarkdown

/// The generators a site can be brought over from.
package enum SourceGenerator: String, CaseIterable, Sendable {
    case hugo
    case jekyll
}

/// Choices a user makes about an import.
package struct ImportOptions: Sendable {
    /// Whether a post's categories join its tags (otherwise they stay in its front matter, where
    /// templates can read them as params).
    package var categoriesAsTags: Bool

    /// Creates options; by default categories stay categories.
    package init(categoriesAsTags: Bool = false) {
        self.categoriesAsTags = categoriesAsTags
    }
}

/// Something the import could not carry over as it was, at its place in the source site.
package struct ImportNote: Sendable, Hashable, CustomStringConvertible {
    /// The file, relative to the source site.
    package var path: String
    /// The line in that file, when the note is about one.
    package var line: Int?
    /// What was not converted, and what to do about it.
    package var message: String

    /// Creates a note.
    package init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`, as compilers write.
    package var description: String { path + (line.map { ":\($0)" } ?? "") + ": " + message }
}

/// What an import wrote.
package struct ImportReport: Sendable {
    /// Posts written, drafts among them.
    package var postCount = 0
    /// Drafts among the posts.
    package var draftCount = 0
    /// Pages written.
    package var pageCount = 0
    /// Files copied as they are (static files, and files of page bundles).
    package var copiedFileCount = 0
    /// Old addresses that became `aliases:` (redirect pages).
    package var aliasCount = 0
    /// What could not be converted, in file and line order.
    package var notes: [ImportNote] = []
}

/// An import that cannot start or finish: nothing is written.
package struct ImportError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}

/// A post or page of the source site, on its way to the Tagflow site.
struct ImportedDocument {
    enum Kind { case post, page }

    /// The file in the source site.
    var sourcePath: String
    var kind: Kind
    /// Where it goes in the Tagflow site (`posts/2024-03-05-hello.md`, `posts/trip/index.md`).
    var destination: String
    /// The front matter to write, in order.
    var frontMatter: [(key: String, value: YAMLValue)]
    /// The Markdown body, and its first line in the source file (for notes).
    var body: String
    var bodyFirstLine: Int
    /// The site path it had (`/posts/hello/`, `/2024/03/05/hello.html`), when it had one.
    var oldPath: String?
    /// Files published beside it (a page bundle's): source path → destination path.
    var bundleFiles: [(source: String, destination: String)] = []

    /// The value of a front matter key.
    subscript(key: String) -> YAMLValue? {
        get { frontMatter.first { $0.key == key }?.value }
        set {
            if let index = frontMatter.firstIndex(where: { $0.key == key }) {
                if let newValue { frontMatter[index].value = newValue } else { frontMatter.remove(at: index) }
            } else if let newValue {
                frontMatter.append((key, newValue))
            }
        }
    }

    /// Whether it is a page bundle's `index.md`, whose folder names it.
    var isBundleIndex: Bool {
        let name = destination.split(separator: "/").last.map(String.init) ?? destination
        return name == "index.md" || name == "index.markdown"
    }

    /// The name its address comes from: its file's, or its bundle folder's.
    var addressName: String {
        let parts = destination.split(separator: "/").map(String.init)
        return isBundleIndex && parts.count >= 2 ? parts[parts.count - 2] : (parts.last ?? destination)
    }
}

/// A source site read by a generator's reader: what the writer turns into a Tagflow site.
struct ImportPlan {
    var documents: [ImportedDocument] = []
    /// Files copied as they are: source path → destination path (`static/…`).
    var copies: [(source: String, destination: String)] = []
    /// The settings for `site.yml`, in order, each with the comment written above it.
    var settings: [(key: String, value: YAMLValue, comment: String?)] = []
    var notes: [ImportNote] = []

    mutating func note(_ path: String, _ line: Int? = nil, _ message: String) {
        notes.append(ImportNote(path: path, line: line, message: message))
    }
}
