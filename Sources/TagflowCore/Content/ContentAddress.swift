/// Where `tagflow build` publishes a post or page file, for tools that write sites
/// (`tagflow import`): the same rules as the build's, in one place.
package enum ContentAddress {
    /// The site path of a post (`/posts/hello/`).
    ///
    /// - Parameters:
    ///   - name: The file name (`2024-03-05-hello.md`), or a bundle's folder name.
    ///   - slug: The front matter's `slug:`, if any.
    /// - Returns: The path, or `nil` when `slug` is not a valid slug.
    package static func postPath(name: String, slug: String?) -> String? {
        let base = name.hasSuffix(".md") || name.hasSuffix(".markdown") ? withoutExtension(name) : name
        guard let slug = chosenSlug(slug, default: FrontMatterReader.stripDatePrefix(base)) else { return nil }
        return Routes.post(slug)
    }

    /// The site path of a page (`/about/`), by the same rules without the date prefix.
    package static func pagePath(name: String, slug: String?) -> String? {
        let base = name.hasSuffix(".md") || name.hasSuffix(".markdown") ? withoutExtension(name) : name
        guard let slug = chosenSlug(slug, default: base) else { return nil }
        return Routes.page(slug)
    }

    /// Whether a text is a slug the front matter may give (one URL segment).
    package static func isValidSlug(_ text: String) -> Bool { Slug.validated(text) != nil }

    /// Whether a page may take a slug: the site's own pages live at some top-level names.
    package static func isReservedPageSlug(_ text: String) -> Bool { Routes.reservedPageSlugs.contains(text) }

    /// The output file of a site path (`/a/` → `a/index.html`).
    package static func file(for path: String) -> String { Routes.file(for: path) }

    private static func chosenSlug(_ given: String?, default fallback: String) -> Slug? {
        guard let given else { return Slug(from: fallback) }
        return Slug.validated(given)
    }

    private static func withoutExtension(_ name: String) -> String {
        name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    }
}
