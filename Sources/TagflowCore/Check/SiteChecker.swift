package import Foundation

/// Checks a site the way a build would, and its internal links, without writing anything.
///
/// ```swift
/// let report = try await SiteChecker(siteRoot: URL(filePath: "site-example")).check()
/// print(report.linkCount)
/// ```
///
/// Runs every step of ``SiteBuilder`` up to rendering (config, front matter, templates,
/// content), then checks every link of every rendered page: a link inside the site must lead to
/// a generated page or a static file (see the link rules in docs/commands.md).
package struct SiteChecker: Sendable {
    /// The builder whose steps run.
    package let builder: SiteBuilder

    /// Creates a checker.
    package init(siteRoot: URL, options: BuildOptions = BuildOptions(), plugins: [Plugin] = []) {
        builder = SiteBuilder(siteRoot: siteRoot, options: options, plugins: plugins)
    }

    /// Checks the site.
    ///
    /// - Returns: What was checked, with the warnings.
    /// - Throws: ``BuildFailure`` with every error (and, in strict mode, every warning) found.
    package func check() async throws(BuildFailure) -> CheckReport {
        let start = ContinuousClock.now
        var context = try await builder.run()
        let linkStart = ContinuousClock.now
        let result = LinkChecker(context: context).check(context.files)
        context.diagnostics += result.diagnostics
        context.timings.append(("links", (ContinuousClock.now - linkStart).seconds))
        try context.failIfNeeded()
        return CheckReport(
            pageCount: context.files.filter { $0.path.hasSuffix(".html") }.count,
            postCount: context.site?.posts.count ?? 0,
            linkCount: result.linkCount,
            warnings: context.diagnostics.filter { $0.severity == .warning }.sortedForDisplay(),
            timings: context.timings,
            seconds: (ContinuousClock.now - start).seconds)
    }
}

/// What a check looked at.
package struct CheckReport: Sendable {
    /// HTML pages rendered and checked.
    package var pageCount: Int
    /// Posts published.
    package var postCount: Int
    /// Internal links checked.
    package var linkCount: Int
    /// Warnings, sorted by location.
    package var warnings: [Diagnostic]
    /// Seconds per step.
    package var timings: [(step: String, seconds: Double)]
    /// Seconds in all.
    package var seconds: Double
}

extension LinkChecker {
    /// A checker for a rendered build: its generated and static files, and the Markdown file
    /// behind each post and page.
    init(context: BuildContext) {
        var paths = Set(context.files.map(\.path))
        paths.formUnion(context.staticFiles.map(\.path))
        self.init(basePath: context.config.basePath, paths: paths)
        siteRoot = context.siteRoot
        for post in context.site?.posts ?? [] { sources[Routes.file(for: Routes.post(post.slug))] = post.sourcePath }
        for page in context.site?.pages ?? [] { sources[Routes.file(for: Routes.page(page.slug))] = page.sourcePath }
    }
}
