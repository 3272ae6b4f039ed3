package import Foundation
package import TagflowCore

/// Builds the site for the preview server into its private output folder.
///
/// Every rebuild is given the files that changed. For now it rebuilds the whole site, atomically, with
/// ``SiteBuilder``; the change set is the seam where a later version rebuilds only the pages a change affects.
package struct PreviewBuilder: Sendable {
    /// The site folder.
    package let siteRoot: URL
    /// The private output folder (never the site's own `_site`).
    package let output: URL
    /// Build options: drafts, and the preview's base URL.
    package let options: BuildOptions
    /// The plugins every build installs.
    package let plugins: [Plugin]

    /// Creates a builder.
    package init(siteRoot: URL, output: URL, options: BuildOptions, plugins: [Plugin]) {
        self.siteRoot = siteRoot
        self.output = output
        self.options = options
        self.plugins = plugins
    }

    /// Builds after `changes` (`nil` for the first build).
    ///
    /// - Parameter changes: The site files that changed since the previous build.
    /// - Returns: The report of a good build, or the failure; on failure the output folder keeps the last good build.
    package func rebuild(after changes: ChangeSet?) async -> Result<BuildReport, BuildFailure> {
        do throws(BuildFailure) {
            let report = try await SiteBuilder(siteRoot: siteRoot, options: options, plugins: plugins).build(to: output)
            return .success(report)
        } catch {
            return .failure(error)
        }
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
