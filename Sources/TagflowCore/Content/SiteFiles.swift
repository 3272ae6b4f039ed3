import Foundation

/// Lists a site's source files in a stable order, whatever order the file system gives.
enum SiteFiles {
    /// Markdown files (`.md`, `.markdown`) under a site-relative folder, sorted by path.
    ///
    /// The search is recursive. Hidden files and editor backups are skipped; symbolic links are followed, and a link
    /// back to a folder already visited is reported instead of followed forever.
    static func markdownFiles(under folder: String, in root: URL) -> (files: [String], diagnostics: [Diagnostic]) {
        var files: [String] = []
        var diagnostics: [Diagnostic] = []
        var visited = Set<String>()
        walk(folder, in: root, visited: &visited, diagnostics: &diagnostics) { path in
            if isMarkdown(path) { files.append(path) }
        }
        return (files.sorted(), diagnostics)
    }

    /// Whether a path names a Markdown file (`.md`, `.markdown`, in any case).
    static func isMarkdown(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
    }

    /// Whether the listings skip a file or folder name: editor backups, and hidden names unless
    /// asked for (never `.DS_Store` or the build cache).
    static func isSkipped(_ name: some StringProtocol, includeHidden: Bool = false) -> Bool {
        if name.hasPrefix(".") && !(includeHidden && name != ".DS_Store" && name != BuildCache.folderName) {
            return true
        }
        return name.hasSuffix("~") || name.hasPrefix("#")
    }

    /// Every regular file under a site-relative folder, sorted by path.
    static func allFiles(under folder: String, in root: URL) -> (files: [String], diagnostics: [Diagnostic]) {
        var files: [String] = []
        var diagnostics: [Diagnostic] = []
        var visited = Set<String>()
        walk(folder, in: root, visited: &visited, diagnostics: &diagnostics, includeHidden: true) { files.append($0) }
        return (files.sorted(), diagnostics)
    }

    private static func walk(
        _ folder: String, in root: URL, visited: inout Set<String>, diagnostics: inout [Diagnostic],
        includeHidden: Bool = false, found: (String) -> Void
    ) {
        let url = root.appendingPathComponent(folder)
        let real = url.resolvingSymlinksInPath().path
        guard visited.insert(real).inserted else {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    TagflowError(
                        location: SourceLocation(path: folder), step: "content",
                        message: "symbolic link loop: this folder was already read; skipping it")))
            return
        }
        let entries: [Entry]
        do {
            entries = try Self.entries(of: url.path)
        } catch {
            // A missing folder (no `pages/`) is fine; one that exists but cannot be listed is not.
            if FileManager.default.fileExists(atPath: url.path) {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: folder), step: "content",
                            message: "cannot read folder: \(ContentLoader.reason(error))", underlying: error)))
            }
            return
        }
        // Joined as text: `URL.appendingPathComponent` would stat each entry a second time.
        let folderPath = url.path
        for entry in entries.sorted(by: { $0.name < $1.name }) {
            let name = entry.name
            if isSkipped(name, includeHidden: includeHidden) { continue }
            let relative = folder == "." ? name : "\(folder)/\(name)"
            var isDirectory = ObjCBool(entry.kind == .folder)
            // A link (or a file system that does not say) is followed with a `stat`.
            guard
                entry.kind != .other
                    || FileManager.default.fileExists(atPath: folderPath + "/" + name, isDirectory: &isDirectory)
            else {
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        TagflowError(
                            location: SourceLocation(path: relative), step: "content",
                            message: "broken symbolic link; skipping it")))
                continue
            }
            if isDirectory.boolValue {
                walk(
                    relative, in: root, visited: &visited, diagnostics: &diagnostics, includeHidden: includeHidden,
                    found: found)
            } else {
                found(relative)
            }
        }
    }

    /// A name in a folder and what the folder listing says it is.
    struct Entry {
        enum Kind { case file, folder, other }
        var name: String
        var kind: Kind
    }

    /// The names in a folder (without `.` and `..`), each with the kind its directory entry gives.
    ///
    /// `FileManager.contentsOfDirectory` drops the kind, and asking again with a `stat` per name
    /// was most of the time spent listing 10 000 posts, before anything else could start.
    ///
    /// - Throws: What `FileManager.contentsOfDirectory(atPath:)` throws, when the folder cannot be
    ///   opened.
    static func entries(of path: String) throws -> [Entry] {
        guard let directory = opendir(path) else {
            // The same error, with the same wording, as before.
            return try FileManager.default.contentsOfDirectory(atPath: path).map { Entry(name: $0, kind: .other) }
        }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            // Read in place: a directory entry is only as long as its name, not `d_name`'s size.
            // A name that is not UTF-8 is repaired, as FileManager does; then the `stat` of the
            // repaired name fails and the entry is reported and skipped, as before.
            let (name, isUTF8) = withUnsafePointer(to: &entry.pointee.d_name) { field in
                UnsafeRawPointer(field).withMemoryRebound(to: CChar.self, capacity: 1) { name in
                    String(validatingCString: name).map { ($0, true) } ?? (String(cString: name), false)
                }
            }
            if name == "." || name == ".." { continue }
            let kind: Entry.Kind =
                switch Int32(entry.pointee.d_type) {
                case _ where !isUTF8: .other
                case Int32(DT_REG): .file
                case Int32(DT_DIR): .folder
                default: .other
                }
            entries.append(Entry(name: name, kind: kind))
        }
        return entries
    }
}
