/// Where the static folder's files meet the files a build generates.
///
/// One rule for every build path: a static file may replace a theme or plugin asset of the same
/// path (a site's own `assets/site.css`), but never a page, and never stand where a generated file
/// needs a folder or inside a generated file. Either would silently drop generated pages (a static
/// file named `posts` replaced every post page), so each is an error naming both paths.
enum OutputCollisions {
    /// The errors for static files that collide with generated files.
    ///
    /// - Parameters:
    ///   - staticPaths: Output paths of the static files.
    ///   - generated: Output paths of every generated file (pages and assets).
    ///   - replaceable: The generated paths a static file may replace (assets).
    ///   - source: The site-relative file a static file's output path comes from, for the messages.
    ///   - noun: What the messages call the file at an output path: a page bundle's files are
    ///     copied by the same rule as the static folder's, but are not in it.
    /// - Returns: One error per colliding static file, in path order.
    static func problems(
        staticPaths: some Collection<String>, generated: some Sequence<String>, replaceable: Set<String>,
        source: (String) -> String, noun: (String) -> String = { _ in "static file" }
    ) -> [Diagnostic] {
        guard !staticPaths.isEmpty else { return [] }
        var files = Set<String>()
        // Each folder a generated file needs, with the first file found in it (for the message).
        var folders: [String: String] = [:]
        for path in generated {
            files.insert(path)
            var folder = path[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                // Once a folder is known, so are the folders above it.
                guard folders[String(folder)] == nil else { break }
                folders[String(folder)] = path
            }
        }
        var problems: [Diagnostic] = []
        for path in staticPaths.sorted() {
            let message: String
            let file = noun(path)
            if files.contains(path) {
                if replaceable.contains(path) { continue }
                message = "\(file) has the same path as the generated page '\(path)'"
            } else if let page = folders[path] {
                message = "\(file) '\(path)' stands where the generated pages need a folder (for '\(page)')"
            } else if let page = Self.folders(of: path).first(where: files.contains) {
                message = "\(file) is inside '\(page)', which is a generated page"
            } else {
                continue
            }
            problems.append(
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: source(path)), step: "render", message: message,
                        hint: "rename or move the \(file); generated pages are never replaced")))
        }
        return problems
    }

    /// The folders a path lies in, nearest first (`a/b/c` → `a/b`, `a`).
    private static func folders(of path: String) -> [String] {
        var result: [String] = []
        var folder = path[...]
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            result.append(String(folder))
        }
        return result
    }
}
