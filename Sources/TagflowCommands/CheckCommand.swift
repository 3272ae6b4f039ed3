import ArgumentParser
import Foundation
import TagflowCore

/// `tagflow check`: validates a site and its internal links without writing anything.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a site (settings, front matter, templates and internal links) without writing anything.",
        discussion: """
            Reads and renders the site as `tagflow build` does, in memory, then checks that every link and \
            image inside the site leads to a generated page or a static file. Links with a scheme (https:, \
            mailto:…) are not followed. Exits with 1 when the site has errors (or warnings, with --strict), \
            2 on bad usage.
            """
    )

    @Argument(help: "The site folder.", completion: .directory)
    var site: String = "."

    @Option(name: .customLong("base-url"), help: "The URL the site is published at, e.g. https://me.github.io/blog/.")
    var baseURL: String?

    @Flag(help: "Check draft posts too.")
    var drafts = false

    @Flag(help: "Check posts dated in the future (scheduled posts) too.")
    var future = false

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Flag(name: .shortAndLong, help: "Print only errors and warnings.")
    var quiet = false

    func validate() throws {
        if let baseURL, !SiteConfig.isValidBaseURL(baseURL) {
            throw ValidationError(
                "--base-url must be an http:// or https:// URL, or a path from the root, not '\(baseURL)'")
        }
    }

    func run() async throws {
        let checker = SiteChecker(
            siteRoot: URL(fileURLWithPath: site),
            options: BuildOptions(includeDrafts: drafts, includeFuture: future, baseURL: baseURL, strict: strict),
            plugins: DefaultPlugins.all)
        let report = try await checker.check()
        Console.printDiagnostics(report.warnings)
        if !quiet {
            let warnings =
                report.warnings.isEmpty
                ? "" : ", \(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s")"
            Console.output(
                "Checked \(report.pageCount) pages (\(report.postCount) posts, \(report.linkCount) internal links) "
                    + "in \(String(format: "%.2f", report.seconds)) s: no errors\(warnings)")
        }
    }
}
