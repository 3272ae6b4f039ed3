import Foundation

/// Lists a site's source files in a stable order, whatever order the file system gives.
package enum SiteFiles {
    /// Markdown files (`.md`, `.markdown`) under a site-relative folder, sorted by path.
    ///
    /// The search is recursive. Hidden files and editor backups are skipped; symbolic links are followed within the
    /// site folder only (one that leads out is an error), and a link back to a folder already visited is reported
    /// instead of followed forever. FIFOs, sockets and devices are skipped with a warning.
    static func markdownFiles(under folder: String, in root: URL) -> (files: [String], diagnostics: [Diagnostic]) {
        let listing = contentFiles(under: folder, in: root)
        return (listing.markdown, listing.diagnostics)
    }

    /// The files of a content folder: its posts' (or pages') Markdown files, and every other
    /// file (the files of page bundles among them), each sorted by path.
    static func contentFiles(under folder: String, in root: URL) -> (
        markdown: [String], others: [String], diagnostics: [Diagnostic]
    ) {
        var markdown: [String] = []
        var others: [String] = []
        var diagnostics: [Diagnostic] = []
        var visited = Set<String>()
        walk(folder, in: root, visited: &visited, diagnostics: &diagnostics) { path in
            if isMarkdown(path) { markdown.append(path) } else { others.append(path) }
        }
        // A bundle's other Markdown files belong to it, as its photos do: they are not posts.
        let bundles = Set(markdown.filter { isBundleIndex($0, under: folder) }.map { parentFolder(of: $0) })
        if !bundles.isEmpty {
            let inBundles = markdown.filter { file in
                !isBundleIndex(file, under: folder)
                    && ancestors(of: file, below: folder).contains(where: bundles.contains)
            }
            let moved = Set(inBundles)
            markdown.removeAll { moved.contains($0) }
            others += inBundles
        }
        return (markdown.sorted(), others.sorted(), diagnostics)
    }

    /// Whether a path is a page bundle's text: `index.md` (or `index.markdown`) in a folder below
    /// the content folder `folder` (`posts/2024-04-01-trip/index.md`; not `posts/index.md`).
    static func isBundleIndex(_ path: String, under folder: String) -> Bool {
        // By the last bytes first: every post's path is asked, on the way to "Up to date" too.
        guard let name = ["/index.md", "/index.markdown"].first(where: { endsInLowercase(path, $0) }),
            path.hasPrefix(folder + "/")
        else { return false }
        return path.utf8.count - name.utf8.count > folder.utf8.count
    }

    /// Whether `text` ends in `suffix` (lowercase ASCII) with its ASCII letters in any case.
    private static func endsInLowercase(_ text: String, _ suffix: String) -> Bool {
        let tail = text.utf8.suffix(suffix.utf8.count)
        return tail.count == suffix.utf8.count
            && zip(tail, suffix.utf8).allSatisfy { byte, expected in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 == expected : byte == expected
            }
    }

    /// The folder part of a path (`posts/trip` for `posts/trip/index.md`).
    static func parentFolder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// The folders that hold `path`, innermost first, down to (not including) `folder`.
    static func ancestors(of path: String, below folder: String) -> [String] {
        var found: [String] = []
        var current = parentFolder(of: path)
        while current.count > folder.count, current.hasPrefix(folder + "/") {
            found.append(current)
            current = parentFolder(of: current)
        }
        return found
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
    ///
    /// - Parameters:
    ///   - folder: The site-relative folder.
    ///   - root: The site folder.
    ///   - protected: Site-relative paths that no file listed may resolve into or contain
    ///     (through a symbolic link): the sources, the templates and the output, for the static
    ///     folder, whose files are published.
    /// - Returns: The files' site-relative paths, and what is wrong with the listing.
    static func allFiles(under folder: String, in root: URL, protected: [String] = []) -> (
        files: [String], diagnostics: [Diagnostic]
    ) {
        var files: [String] = []
        var diagnostics: [Diagnostic] = []
        var visited = Set<String>()
        walk(
            folder, in: root, visited: &visited, diagnostics: &diagnostics, includeHidden: true, protected: protected
        ) { files.append($0) }
        return (files.sorted(), diagnostics)
    }

    private static func walk(
        _ folder: String, in root: URL, visited: inout Set<String>, diagnostics: inout [Diagnostic],
        includeHidden: Bool = false, protected: [String] = [], found: (String) -> Void
    ) {
        let url = root.appendingPathComponent(folder)
        let real = url.resolvingSymlinksInPath().path
        // The folder itself may be a link (`static` → `/etc`): the same rule as for a link inside it.
        if real != url.standardizedFileURL.path, let problem = linkProblem(to: real, root: root, protected: protected) {
            diagnostics.append(
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: folder), step: "content", message: problem.message,
                        hint: problem.hint)))
            return
        }
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
            func skip(_ severity: Diagnostic.Severity, _ message: String, hint: String? = nil) {
                diagnostics.append(
                    Diagnostic(
                        severity,
                        TagflowError(
                            location: SourceLocation(path: relative), step: "content", message: message, hint: hint)))
            }
            var kind = entry.kind
            // A link (or a file system that does not say) is looked at more closely: a link is
            // followed only within the site, and only to a regular file or a folder.
            if kind == .other {
                let path = folderPath + "/" + name
                if Self.isSymbolicLink(path) {
                    guard let target = Self.realPath(path) else {
                        skip(.warning, "broken symbolic link; skipping it")
                        continue
                    }
                    if let problem = linkProblem(to: target, root: root, protected: protected) {
                        skip(.error, problem.message, hint: problem.hint)
                        continue
                    }
                }
                kind = Self.kind(ofFileAt: path)
            }
            switch kind {
            case .folder:
                walk(
                    relative, in: root, visited: &visited, diagnostics: &diagnostics, includeHidden: includeHidden,
                    protected: protected, found: found)
            case .file:
                found(relative)
            case .special:
                // Reading a FIFO waits for a writer forever; a device or socket is not content.
                skip(.warning, "not a regular file or folder (a FIFO, socket or device); skipping it")
            case .other:
                skip(.warning, "broken symbolic link; skipping it")
            }
        }
    }

    /// Why a link to `target` (a real path) may not be followed: it leads out of the site, or into
    /// (or to a folder holding) one of `protected`'s site-relative paths; `nil` when it may.
    private static func linkProblem(to target: String, root: URL, protected: [String]) -> (
        message: String, hint: String
    )? {
        let site = Self.realPath(root.path) ?? root.path
        guard target == site || target.hasPrefix(site + "/") else {
            return (
                "symbolic link to '\(target)', outside the site folder; it is not read",
                "copy the file into the site, or link only to files inside it"
            )
        }
        let inside = target == site ? "" : String(target.dropFirst(site.count + 1))
        guard
            let reached = protected.first(where: {
                inside.isEmpty || inside == $0 || inside.hasPrefix($0 + "/") || $0.hasPrefix(inside + "/")
            })
        else { return nil }
        let linked = inside.isEmpty ? "the site folder" : "'\(inside)'"
        return (
            "symbolic link to \(linked), which holds or is part of '\(reached)'; it would be published",
            "link only to files meant to be published"
        )
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The path with every symbolic link resolved, or `nil` when it does not resolve.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What a path is once links are followed; `.other` when it cannot be looked at.
    private static func kind(ofFileAt path: String) -> Entry.Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .special
        }
    }

    /// A name in a folder and what the folder listing says it is.
    struct Entry {
        /// `special` is a FIFO, socket or device; `other` needs a closer look (a link, or a file
        /// system that does not say).
        enum Kind { case file, folder, special, other }
        var name: String
        var kind: Kind
    }

    /// The names in a folder (without `.` and `..`), each with the kind its directory entry gives.
    ///
    /// `FileManager.contentsOfDirectory` drops the kind, and asking again with a `stat` per name
    /// made listing a large blog's posts slow, before anything else could start.
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
                case Int32(DT_FIFO), Int32(DT_SOCK), Int32(DT_CHR), Int32(DT_BLK): .special
                default: .other
                }
            entries.append(Entry(name: name, kind: kind))
        }
        return entries
    }
}
