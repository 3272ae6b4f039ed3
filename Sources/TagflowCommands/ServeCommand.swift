import ArgumentParser
import Foundation
import TagflowConcurrency
import TagflowCore
import TagflowServer

/// `tagflow serve`: a local preview that rebuilds on change and reloads open pages.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview a site locally: build, serve, rebuild on change and reload the page.",
        discussion: """
            Builds the site into a private folder (never your output folder), serves it, and watches site.yml, \
            posts, pages, templates and static files. An edit to posts or pages re-renders only the pages it \
            reaches; any other change rebuilds the whole site. Open pages then reload. When a \
            build fails, the error is printed here and shown at the top of every page, above the last good \
            version; fixing the file recovers by itself. Ctrl-C stops.
            """
    )

    @Argument(help: "The site folder.", completion: .directory)
    var site: String = "."

    @Option(name: .shortAndLong, help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8000

    @Option(help: "The address to listen on. Use 0.0.0.0 to let other machines connect.")
    var host: String = "127.0.0.1"

    @Flag(help: "Publish draft posts too.")
    var drafts = false

    @Flag(help: "Publish posts dated in the future (scheduled posts) too, marked \"Scheduled\".")
    var future = false

    @Flag(help: "Open the site in the default browser once it is built.")
    var open = false

    @Flag(help: "After each build, print how long each step took.")
    var timings = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
    }

    func run() async throws {
        Self.raiseOpenFileLimit()
        let siteURL = URL(fileURLWithPath: site)
        let open = self.open
        let timings = self.timings
        let configuration = PreviewServer.Configuration(
            siteRoot: siteURL, host: host, port: port, includeDrafts: drafts, includeFuture: future,
            plugins: DefaultPlugins.all)
        let listening = ListeningURL()
        let shownWarnings = ShownWarnings()
        let server = PreviewServer(configuration) { event in
            switch event {
            case .listening(let url):
                listening.set(url)
                Console.output("Serving \(siteURL.standardizedFileURL.path) at \(url.absoluteString) (Ctrl-C to stop)")
            case .rebuilding(let changes):
                Console.output("Changed: \(Self.summary(of: changes)); rebuilding…")
            case .built(let report, let first):
                // The same warnings after every save would bury what changed: they are shown again
                // only when they differ.
                if shownWarnings.replace(with: report.warnings.map(\.description)) {
                    Console.printDiagnostics(report.warnings)
                }
                Console.output(Self.builtLine(report, first: first))
                if first, let line = Console.heldBackLine(report.heldBack) { Console.output(line) }
                if timings { Console.output(Self.timingsLine(report)) }
                if first, open, let url = listening.get() { Self.openInBrowser(url) }
            case .failed(let failure, let first):
                _ = shownWarnings.replace(with: [])
                Console.printDiagnostics(failure.diagnostics)
                let errors = failure.errors.count
                Console.error(
                    "build failed: \(errors) error\(errors == 1 ? "" : "s"); "
                        + (first ? "pages show the error until it is fixed" : "serving the last good build"))
                if first, open, let url = listening.get() { Self.openInBrowser(url) }
            }
        }
        try await server.run()
        Console.output("Stopped.")
    }

    /// `Built <pages> pages in <seconds> s`, or after an edit
    /// `Rebuilt in <milliseconds> ms (<rewritten> of <files> files rewritten)`.
    static func builtLine(_ report: BuildReport, first: Bool) -> String {
        let warnings = report.warnings.isEmpty ? "" : ", \(report.warnings.count) warning(s)"
        if let rewritten = report.rewrittenFileCount {
            let time = String(format: "%.0f ms", report.seconds * 1000)
            return "Rebuilt in \(time) (\(rewritten) of \(report.fileCount) files rewritten)\(warnings)"
        }
        let verb = first ? "Built" : "Rebuilt"
        return "\(verb) \(report.pageCount) pages in \(String(format: "%.2f", report.seconds)) s\(warnings)"
    }

    /// Each step's time in milliseconds: `  config <ms> ms · content <ms> ms · render <ms> ms · …`.
    static func timingsLine(_ report: BuildReport) -> String {
        "  "
            + report.timings.map { "\($0.step) \(String(format: "%.1f", $0.seconds * 1000)) ms" }.joined(
                separator: " · ")
    }

    static func summary(of changes: ChangeSet) -> String {
        let paths = changes.paths
        let shown = paths.prefix(3).joined(separator: ", ")
        return paths.count > 3 ? "\(shown) and \(paths.count - 3) more" : shown
    }

    static func openInBrowser(_ url: URL) {
        let process = Process()
        #if os(macOS)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
            process.arguments = [url.absoluteString]
        #else
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url.absoluteString]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            Console.standardError("could not open a browser (\(error)); open \(url.absoluteString) yourself")
        }
    }
}

/// The warnings last printed.
private final class ShownWarnings: Sendable {
    private let storage = Locked<[String]>([])

    /// Records `warnings`; returns whether they differ from the last ones.
    func replace(with warnings: [String]) -> Bool {
        storage.withLock { shown in
            defer { shown = warnings }
            return shown != warnings
        }
    }
}

/// The URL the server listens at, set once from the server's event callback.
private final class ListeningURL: Sendable {
    private let storage = Locked<URL?>(nil)

    func set(_ url: URL) { storage.withLock { $0 = url } }
    func get() -> URL? { storage.withLock { $0 } }
}

extension ServeCommand {
    /// Raises the soft limit on open files to the hard one, as Go and many servers do: each open
    /// page holds a live-reload connection, and the default soft limit (often 1 024, sometimes
    /// 256) is reached by a browser session with many tabs long before the machine's limit.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        #if canImport(Darwin)
            // macOS refuses an unlimited soft limit for open files.
            limit.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
        #endif
        _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    }
}

#if canImport(Glibc)
    private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
    private let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
#endif
