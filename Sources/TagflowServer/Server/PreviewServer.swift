package import Foundation
import HTTPTypes
package import Hummingbird
package import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
package import TagflowCore
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tagflow serve`: builds a site into a private folder, serves it, rebuilds when its files change and reloads open
/// pages.
///
/// ```swift
/// let server = PreviewServer(PreviewServer.Configuration(siteRoot: site, port: 0)) { event in print(event) }
/// try await server.run()   // until SIGINT or SIGTERM
/// ```
///
/// The server binds first, so that the pages are built with the URL they are served at (any `--port 0` port
/// included), then builds. A failed build keeps the last good pages and shows the errors on every page.
package struct PreviewServer: Sendable {
    /// How to serve.
    package struct Configuration: Sendable {
        /// The site folder.
        package var siteRoot: URL
        /// The address to bind (127.0.0.1 by default: only this machine).
        package var host: String
        /// The port; 0 picks a free one.
        package var port: Int
        /// Whether to publish drafts.
        package var includeDrafts: Bool
        /// Whether to publish scheduled posts (dated in the future).
        package var includeFuture: Bool
        /// The plugins every build installs.
        package var plugins: [Plugin]
        /// How often the site folder is checked for changes.
        package var pollInterval: Duration

        /// Creates a configuration.
        package init(
            siteRoot: URL, host: String = "127.0.0.1", port: Int = 8000, includeDrafts: Bool = false,
            includeFuture: Bool = false, plugins: [Plugin] = [], pollInterval: Duration = .milliseconds(250)
        ) {
            self.siteRoot = siteRoot.standardizedFileURL
            self.host = host
            self.port = port
            self.includeDrafts = includeDrafts
            self.includeFuture = includeFuture
            self.plugins = plugins
            self.pollInterval = pollInterval
        }
    }

    /// What happens, for the command to tell the user.
    package enum Event: Sendable {
        /// The server listens at this URL.
        case listening(URL)
        /// A rebuild started because these files changed.
        case rebuilding(ChangeSet)
        /// A build succeeded; `first` for the initial build.
        case built(BuildReport, first: Bool)
        /// A build failed; the last good pages stay up.
        case failed(BuildFailure, first: Bool)
    }

    /// The configuration.
    package let configuration: Configuration
    private let onEvent: @Sendable (Event) -> Void

    /// Creates a server; `onEvent` is called for each ``Event``.
    package init(_ configuration: Configuration, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.configuration = configuration
        self.onEvent = onEvent
    }

    /// Serves until SIGINT or SIGTERM, then closes open connections and removes the private output folder.
    ///
    /// - Throws: ``TagflowError`` when the site folder is missing or the port cannot be bound.
    package func run() async throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: configuration.siteRoot.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw TagflowError(
                location: SourceLocation(path: configuration.siteRoot.path), step: "serve",
                message: "site folder not found", hint: "create one with `tagflow new site DIR`")
        }
        let workspace = FileManager.default.temporaryDirectory
            .appendingPathComponent("tagflow-serve-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let output = workspace.appendingPathComponent("site")

        var logger = Logger(label: "tagflow.serve")
        logger.logLevel = .error
        let state = PreviewState()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let requestedPort = configuration.port
        let app = Application(
            router: Self.makeRouter(state: state, output: output.path, host: configuration.host),
            server: Self.server(idleSeconds: Self.idleSeconds),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? requestedPort)
                portContinuation.finish()
            },
            logger: logger)
        let rebuilder = RebuildService(
            configuration: configuration, output: output, state: state, ports: ports, onEvent: onEvent)
        // Services stop in reverse order: the rebuild loop first, which ends the event streams, then the server,
        // which can then close every connection.
        let keepAlive = KeepAliveService(state: state, interval: .seconds(Self.keepAliveSeconds))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app, keepAlive, rebuilder], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        do {
            try await group.run()
        } catch let error where Self.isAddressInUse(error) {
            let port = configuration.port
            throw TagflowError(
                step: "serve", message: "port \(port) on \(configuration.host) is already in use",
                hint: "stop the other server, choose another port with --port, or use --port 0 for a free one",
                underlying: error)
        } catch let error as IOError {
            throw TagflowError(
                step: "serve", message: "cannot listen on \(configuration.host):\(configuration.port): \(error)",
                underlying: error)
        }
    }

    /// The router: the event stream, then (through the middleware) the output folder's files.
    ///
    /// - Parameters:
    ///   - state: The shared server state.
    ///   - output: The output folder to serve.
    ///   - host: The address the server listens on, which `Host` headers may name.
    /// - Returns: A router for `Application` or for tests.
    package static func makeRouter(state: PreviewState, output: String, host: String = "127.0.0.1")
        -> Router<BasicRequestContext>
    {
        let files = SafeFileSystem(root: output)
        let router = Router()
        router.add(middleware: PreviewMiddleware(state: state, files: files, listeningHost: host))
        router.add(
            middleware: FileMiddleware(fileProvider: files, searchForIndexHtml: true)
                .withAdditionalMediaTypes(forFileExtensions: mediaTypes))
        router.get("/__tagflow/events") { _, _ -> Response in
            let stream = state.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "retry: 500\n\n"))
                    for await buildID in stream {
                        try await writer.write(ByteBuffer(string: "event: build\ndata: \(buildID)\n\n"))
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }

    /// Seconds a connection may go without a whole request before it is closed.
    static let idleSeconds: Int64 = 30

    /// The HTTP/1 server: a connection that has sent no whole request for `idleSeconds` is
    /// closed, idle keep-alive connections and slowloris ones (a header a byte at a time) alike.
    package static func server(idleSeconds: Int64) -> HTTPServerBuilder {
        .http1(configuration: .init(idleTimeout: .seconds(idleSeconds)))
    }
    /// Seconds between keep-alives on the event streams.
    static let keepAliveSeconds = 10

    /// Content types beyond Hummingbird's own, and text types with their character set.
    static let mediaTypes: [String: MediaType] = {
        var types: [String: MediaType] = [:]
        let text: [(String, MediaType.Category, String)] = [
            ("html", .text, "html"), ("htm", .text, "html"), ("css", .text, "css"), ("js", .text, "javascript"),
            ("mjs", .text, "javascript"), ("txt", .text, "plain"), ("xml", .application, "xml"),
            ("svg", .image, "svg+xml"), ("json", .application, "json"), ("md", .text, "markdown"),
        ]
        for (fileExtension, category, subType) in text {
            types[fileExtension] = MediaType(type: category, subType: subType, parameter: ("charset", "utf-8"))
        }
        types["webmanifest"] = MediaType(type: .application, subType: "manifest+json")
        return types
    }()

    static func isAddressInUse(_ error: any Error) -> Bool {
        if let error = error as? IOError, error.errnoCode == EADDRINUSE { return true }
        return String(describing: error).contains("Address already in use")
    }
}

/// Writes a keep-alive to every event stream at an interval, so that streams of closed pages end.
struct KeepAliveService: Service {
    let state: PreviewState
    let interval: Duration

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                state.keepAlive()
            }
        }
    }
}

/// The service that waits for the server to listen, builds, then rebuilds on every change until shutdown.
struct RebuildService: Service {
    let configuration: PreviewServer.Configuration
    let output: URL
    let state: PreviewState
    let ports: AsyncStream<Int>
    let onEvent: @Sendable (PreviewServer.Event) -> Void

    func run() async throws {
        defer { state.finish() }
        do {
            try await cancelWhenGracefulShutdown { try await watchAndBuild() }
        } catch is CancellationError {
            // Shutting down.
        }
    }

    private func watchAndBuild() async throws {
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { return }
        let url = Self.url(host: configuration.host, port: port)
        onEvent(.listening(url))
        let builder = PreviewBuilder(
            siteRoot: configuration.siteRoot, output: output,
            options: BuildOptions(
                includeDrafts: configuration.includeDrafts, includeFuture: configuration.includeFuture,
                baseURL: url.absoluteString),
            plugins: configuration.plugins)
        var watcher = SiteWatcher(
            root: configuration.siteRoot, ignoring: PreviewBuilder.ignoredFolders(siteRoot: configuration.siteRoot),
            interval: configuration.pollInterval)
        var snapshot = watcher.snapshot()
        await build(with: builder, after: nil)
        while true {
            try Task.checkCancellation()
            let (changes, next) = try await watcher.nextChanges(after: snapshot)
            snapshot = next
            onEvent(.rebuilding(changes))
            await build(with: builder, after: changes)
            watcher.ignoredFolders = PreviewBuilder.ignoredFolders(siteRoot: configuration.siteRoot)
        }
    }

    private func build(with builder: PreviewBuilder, after changes: ChangeSet?) async {
        state.buildStarted()
        switch await builder.rebuild(after: changes) {
        case .success(let report):
            state.buildSucceeded()
            onEvent(.built(report, first: changes == nil))
        case .failure(let failure):
            state.buildFailed(failure.diagnostics)
            onEvent(.failed(failure, first: changes == nil))
        }
    }

    /// The URL to print and to build with: a wildcard address is shown as `localhost`.
    static func url(host: String, port: Int) -> URL {
        var shown = host
        if host == "0.0.0.0" || host == "::" || host == "[::]" { shown = "localhost" }
        if shown.contains(":") && !shown.hasPrefix("[") { shown = "[\(shown)]" }
        return URL(string: "http://\(shown):\(port)/") ?? URL(fileURLWithPath: "/")
    }
}
