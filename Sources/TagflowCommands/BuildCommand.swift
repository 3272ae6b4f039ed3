import ArgumentParser
import Foundation
import TagflowChipPlugin
import TagflowCore

/// `tagflow build`: builds a site into a folder.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a site into a folder of static files.",
        discussion: """
            Reads SITE/site.yml, posts/, pages/, templates/ and static/, and writes the site into \
            the output folder atomically: a failed build leaves the previous output untouched. \
            Exits with 1 when the site has errors, 2 on bad usage.
            """
    )

    @Argument(help: "The site folder.", completion: .directory)
    var site: String = "."

    @Option(
        name: .shortAndLong, help: "The output folder (default: the site's paths.output, _site).",
        completion: .directory)
    var output: String?

    @Option(name: .customLong("base-url"), help: "The URL the site is published at, e.g. https://me.github.io/blog/.")
    var baseURL: String?

    @Flag(help: "Publish draft posts too.")
    var drafts = false

    @Flag(help: "Publish posts dated in the future (scheduled posts) too.")
    var future = false

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Flag(name: .shortAndLong, help: "Print only errors and warnings.")
    var quiet = false

    @Flag(
        name: .customLong("no-cache"),
        help: "Build everything, even when nothing changed since the last build (see SITE/.tagflow-cache).")
    var noCache = false

    @Option(help: "Write a JSON summary (pages, bytes, seconds per stage) to this file, for CI jobs.")
    var report: String?

    func validate() throws {
        if let baseURL, !SiteConfig.isValidBaseURL(baseURL) {
            throw ValidationError(
                "--base-url must be an http:// or https:// URL, or a path from the root, not '\(baseURL)'")
        }
    }

    func run() async throws {
        let siteURL = URL(fileURLWithPath: site)
        let progress = BuildProgress()
        let builder = SiteBuilder(
            siteRoot: siteURL,
            options: BuildOptions(
                includeDrafts: drafts, includeFuture: future, baseURL: baseURL, strict: strict, useCache: !noCache),
            plugins: DefaultPlugins.all, progress: progress)
        let target = output.map { URL(fileURLWithPath: $0) }
        let report =
            quiet
            ? try await builder.build(to: target)
            : try await ProgressLine(progress: progress).whileRunning { try await builder.build(to: target) }
        Console.printDiagnostics(report.warnings)
        if let path = self.report { try BuildReportJSON.write(report, to: URL(fileURLWithPath: path)) }
        if !quiet {
            let warnings =
                report.warnings.isEmpty
                ? "" : ", \(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s")"
            if report.isUpToDate {
                print(
                    "Up to date: nothing changed since the last build of \(report.output.path) "
                        + "(\(report.pageCount) pages; checked in \(String(format: "%.2f", report.seconds)) s)")
            } else {
                print(
                    "Built \(report.pageCount) pages (\(report.postCount) posts, \(report.tagCount) tags) into "
                        + "\(report.output.path) in \(String(format: "%.2f", report.seconds)) s\(warnings)")
            }
            if let line = Console.heldBackLine(report.heldBack) { print(line) }
        }
    }
}

/// The plugins every `tagflow build` installs.
enum DefaultPlugins {
    static let all: [Plugin] = [.chips]
}

/// The `--report` file: a stable, machine-readable summary of a build.
enum BuildReportJSON {
    struct Summary: Encodable {
        var output: String
        var pages: Int
        var files: Int
        var bytes: Int
        var posts: Int
        var tags: Int
        var warnings: Int
        var seconds: Double
        var stages: [Stage]
    }

    struct Stage: Encodable {
        var name: String
        var seconds: Double
    }

    static func write(_ report: BuildReport, to url: URL) throws {
        let summary = Summary(
            output: report.output.path, pages: report.pageCount, files: report.fileCount, bytes: report.byteCount,
            posts: report.postCount, tags: report.tagCount, warnings: report.warnings.count, seconds: report.seconds,
            stages: report.timings.map { Stage(name: $0.step, seconds: $0.seconds) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(summary).write(to: url)
    }
}
