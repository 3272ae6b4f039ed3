package import Foundation
package import TagflowCore

/// Builds the site for the preview server into its private output folder.
///
/// Every rebuild is given the files that changed, and hands them to an ``IncrementalBuilder``: an edit to posts or
/// pages renders and rewrites only the pages that show it; any other change rebuilds the whole site.
package struct PreviewBuilder: Sendable {
    /// The site folder.
    package let siteRoot: URL
    /// The private output folder (never the site's own `_site`).
    package let output: URL
    /// Build options: drafts, and the preview's base URL.
    package let options: BuildOptions
    /// The plugins every build installs.
    package let plugins: [Plugin]
    private let builder: IncrementalBuilder

    /// Creates a builder.
    package init(siteRoot: URL, output: URL, options: BuildOptions, plugins: [Plugin]) {
        self.siteRoot = siteRoot
        self.output = output
        self.options = options
        self.plugins = plugins
        builder = IncrementalBuilder(siteRoot: siteRoot, output: output, options: options, plugins: plugins)
    }

    /// Builds after `changes` (`nil` for the first build).
    ///
    /// - Parameter changes: The site files that changed since the previous build.
    /// - Returns: The report of a good build, or the failure; on failure the output folder keeps the last good build.
    package func rebuild(after changes: ChangeSet?) async -> Result<BuildReport, BuildFailure> {
        await builder.build(changedPaths: changes.map { Set($0.paths) })
    }

    /// The site-relative folders the watcher should skip: the site's own output folder, from `site.yml`.
    package static func ignoredFolders(siteRoot: URL) -> Set<String> {
        var folders: Set<String> = ["_site"]
        let configURL = siteRoot.appendingPathComponent("site.yml")
        if let data = FileManager.default.contents(atPath: configURL.path),
            let text = String(data: data, encoding: .utf8),
            let config = try? SiteConfig.parse(text).0
        {
            var output = config.paths.output
            while output.hasPrefix("./") { output.removeFirst(2) }
            while output.hasSuffix("/") { output.removeLast() }
            if !output.isEmpty && !output.hasPrefix("/") && !output.hasPrefix("..") { folders.insert(output) }
        }
        return folders
    }
}
