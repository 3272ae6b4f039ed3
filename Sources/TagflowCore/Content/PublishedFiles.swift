import Foundation

/// The files a build copies into the output as they are: the static folder's, and the files of
/// page bundles beside their pages.
enum PublishedFiles {
    /// The static folder's files, and what is wrong with its listing (links that lead out of the
    /// site or into its sources, FIFOs, unreadable folders).
    static func staticFiles(config: SiteConfig, siteRoot: URL) -> (
        files: [(source: URL, path: String)], diagnostics: [Diagnostic]
    ) {
        let paths = config.paths
        let folder = paths.static
        let protected =
            (paths.sourceFolders.filter { $0 != paths.static } + [paths.output, "site.yml"])
            .map(SiteConfig.Paths.normalized).filter { !$0.isEmpty } + hiddenEntries(siteRoot)
        let listing = SiteFiles.allFiles(under: folder, in: siteRoot, protected: protected)
        let files = listing.files.map { path in
            (siteRoot.appendingPathComponent(path), String(path.dropFirst(folder.count + 1)))
        }
        return (files, listing.diagnostics)
    }

    /// The hidden entries at the site's top (`.git`, `.env`, the build cache): never published.
    private static func hiddenEntries(_ siteRoot: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: siteRoot.path)) ?? []).filter { $0.hasPrefix(".") }
    }

    /// The files of the site's page bundles, published beside their pages: everything in the
    /// folder of a bundle's `index.md` but Markdown (`posts/2024-04-01-trip/photo.jpg` →
    /// `posts/trip/photo.jpg`), each one's site-relative source by output path, and what is wrong
    /// with the listings (links out of the site).
    static func bundleFiles(of site: Site, siteRoot: URL) -> (
        files: [(source: URL, path: String)], sources: [String: String], diagnostics: [Diagnostic]
    ) {
        let paths = site.config.paths
        let protected =
            [paths.output, "site.yml", paths.templates].map(SiteConfig.Paths.normalized).filter { !$0.isEmpty }
            + hiddenEntries(siteRoot)
        var files: [(source: URL, path: String)] = []
        var sources: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        // The routes of bundles' pages only: `tagflow serve` does this after each edit it assembles
        // the site again for, and few posts are bundles.
        let (posts, pages) = (paths.contentFolder("posts"), paths.contentFolder("pages"))
        let bundles: [(source: String, route: String)] =
            site.posts.filter { SiteFiles.isBundleIndex($0.sourcePath, under: posts) }
            .map { ($0.sourcePath, Routes.post($0.slug)) }
            + site.pages.filter { SiteFiles.isBundleIndex($0.sourcePath, under: pages) }
            .map { ($0.sourcePath, Routes.page($0.slug)) }
        for (source, route) in bundles {
            let bundle = SiteFiles.parentFolder(of: source)
            let listing = SiteFiles.allFiles(under: bundle, in: siteRoot, protected: protected)
            diagnostics += listing.diagnostics
            let target = String(Routes.file(for: route).dropLast("index.html".count))
            for path in listing.files where !SiteFiles.isMarkdown(path) {
                let output = target + String(path.dropFirst(bundle.count + 1))
                files.append((siteRoot.appendingPathComponent(path), output))
                sources[output] = path
            }
        }
        return (files, sources, diagnostics)
    }
}
