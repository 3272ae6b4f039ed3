/// What in a site's posts and pages would lose a page: two with one slug, a page at the site's
/// own addresses, an alias where another page is, a series numbered twice.
enum ContentProblems {
    /// Two posts (or two pages) with one slug would write one page; pages must not take the
    /// site's own top-level names.
    static func find(posts: [Post], pages: [Page]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func check(_ items: [(slug: Slug, path: String)], kind: String, url: (Slug) -> String) {
            // Nearly always no slug repeats: that is known without sorting 10 000 paths.
            var seen = Set<Slug>(minimumCapacity: items.count)
            guard items.contains(where: { !seen.insert($0.slug).inserted }) else { return }
            var owners: [Slug: String] = [:]
            for item in items.sorted(by: { $0.path < $1.path }) {
                if let first = owners[item.slug] {
                    problems.append(
                        Diagnostic(
                            .error,
                            TagflowError(
                                location: SourceLocation(path: item.path), step: "content",
                                message:
                                    "\(kind) '\(item.slug)' is also the slug of \(first); both would be written to \(url(item.slug))",
                                hint: "give one of them a different `slug:` in its front matter")))
                } else {
                    owners[item.slug] = item.path
                }
            }
        }
        check(posts.map { ($0.slug, $0.sourcePath) }, kind: "slug", url: Routes.post)
        check(pages.map { ($0.slug, $0.sourcePath) }, kind: "slug", url: Routes.page)
        for page in pages where Routes.reservedPageSlugs.contains(page.slug.rawValue) {
            problems.append(
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: page.sourcePath), step: "content",
                        message: "a page cannot use the slug '\(page.slug)': the site's own pages live there",
                        hint: "set another `slug:` in its front matter")))
        }
        return problems + aliasProblems(posts: posts, pages: pages) + SeriesIndex.problems(posts: posts)
    }

    /// An alias may not stand where a post, a page, another alias or the site's own pages are:
    /// one of the two pages would be lost.
    private static func aliasProblems(posts: [Post], pages: [Page]) -> [Diagnostic] {
        let aliased = posts.lazy.map { ($0.sourcePath, $0.aliases) } + pages.lazy.map { ($0.sourcePath, $0.aliases) }
        guard aliased.contains(where: { !$0.1.isEmpty }) else { return [] }
        var owners: [String: String] = [:]
        // Each file taken so far, with what takes it, for the message.
        for post in posts { owners[Routes.file(for: Routes.post(post.slug))] = "the page of \(post.sourcePath)" }
        for page in pages { owners[Routes.file(for: Routes.page(page.slug))] = "the page of \(page.sourcePath)" }
        var problems: [Diagnostic] = []
        for (source, aliases) in aliased.sorted(by: { $0.0 < $1.0 }) {
            for alias in aliases {
                let file = Routes.file(for: alias)
                let message: String
                if PageAliases.isReserved(file: file) {
                    message = "alias '\(alias)' is among the site's own pages (home, tags, feeds, archive, assets)"
                } else if let owner = owners[file] {
                    message = "alias '\(alias)' is also \(owner); both would be written to \(file)"
                } else {
                    owners[file] = "an alias of \(source)"
                    continue
                }
                problems.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: source), step: "content", message: message,
                            hint: "remove the alias, or give the other page another address")))
            }
        }
        return problems
    }
}
