package import Foundation

/// Options of one build.
public struct BuildOptions: Sendable, Hashable {
    /// Publish posts marked `draft: true` too.
    public var includeDrafts = false
    /// Publish posts dated after ``now`` too (scheduled posts).
    public var includeFuture = false
    /// The time that decides which posts are scheduled; `nil`: the time the build starts.
    public var now: ContentDate?
    /// Use this base URL instead of the one in `site.yml` (for a site served under a sub-path).
    public var baseURL: String?
    /// Treat warnings as errors.
    public var strict = false
    /// Skip the build when nothing it reads has changed since the last successful one (recorded
    /// in `SITE/.tagflow-cache/`).
    public var useCache = false

    /// Creates options.
    public init(
        includeDrafts: Bool = false, includeFuture: Bool = false, baseURL: String? = nil, strict: Bool = false,
        useCache: Bool = false
    ) {
        self.includeDrafts = includeDrafts
        self.includeFuture = includeFuture
        self.baseURL = baseURL
        self.strict = strict
        self.useCache = useCache
    }

    /// Whether a build with these options publishes `post`.
    package func publishes(_ post: Post) -> Bool {
        (includeDrafts || !post.isDraft) && (includeFuture || !post.isScheduled)
    }
}

/// The posts a build left out, for the message that says how to show them.
public struct HeldBackPosts: Sendable, Hashable {
    /// Drafts left out (`--drafts` shows them).
    public var drafts = 0
    /// Scheduled posts left out (`--future` shows them).
    public var scheduled = 0
    /// The earliest date of a scheduled post, left out or not: when it passes, the site changes.
    public var nextScheduled: ContentDate?

    /// Creates a count.
    public init(drafts: Int = 0, scheduled: Int = 0, nextScheduled: ContentDate? = nil) {
        self.drafts = drafts
        self.scheduled = scheduled
        self.nextScheduled = nextScheduled
    }
}

/// The state a build passes from step to step.
package struct BuildContext: Sendable {
    /// The site folder.
    package let siteRoot: URL
    /// This build's options.
    package let options: BuildOptions
    /// The settings, once read.
    package var config = SiteConfig()
    /// What plugins registered.
    package var plugins: PluginContext
    /// The templates, once loaded.
    package var theme: Theme?
    /// The content, once loaded.
    package var site: Site?
    /// The output, once rendered.
    package var files: [OutputFile] = []
    /// Static files to copy, page bundles' files among them: source and output path.
    package var staticFiles: [(source: URL, path: String)] = []
    /// The site-relative source of each page bundle's file, by output path (for messages).
    var bundleSources: [String: String] = [:]
    /// Everything found so far.
    package var diagnostics: [Diagnostic] = []
    /// Seconds spent in each step, in order.
    package var timings: [(step: String, seconds: Double)] = []
    /// The posts left out (drafts, scheduled posts), once the content is read.
    package var heldBack = HeldBackPosts()
    /// The time that decides which posts are scheduled (``BuildOptions/now``, or the start).
    package let now: ContentDate
    /// Where steps count their items.
    var progress: BuildProgress?
    /// The digest of each post and page source file read, by path (for page keys).
    var contentDigests: [String: Digest] = [:]
    /// The same digests in the listing's order, when the listing had no problems (for
    /// ``BuildInputs``, which then neither lists nor reads the files again).
    var contentInputs: [(path: String, digest: Digest)]?
    /// Whether the content step keeps the files it read in ``loadedContent``: `tagflow serve`
    /// keeps them, and reads again only the files that change.
    var keepsLoadedContent = false
    /// The post and page files the content step read, and what listing their folders found
    /// wrong, when ``keepsLoadedContent``.
    var loadedContent: (files: [ContentLoader.LoadedFile], listingDiagnostics: [Diagnostic])?
    /// What making the site found, also among ``diagnostics``: duplicate slugs and the like
    /// (`SiteBuilder.useContent`), and the taxonomy's warnings (`SiteBuilder.assemble`).
    var duplicateDiagnostics: [Diagnostic] = []
    var taxonomyDiagnostics: [Diagnostic] = []
    /// The theme being compiled while the content loads, and its templates' names, which the
    /// content is checked against (see `SiteBuilder.startLoadingTheme`).
    var pendingTheme: (names: Set<String>, compiled: Task<Result<Theme, BuildFailure>, Never>)?

    init(siteRoot: URL, options: BuildOptions) {
        self.siteRoot = siteRoot
        self.options = options
        self.now = options.now ?? ContentDate(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)))
        self.plugins = PluginContext(config: SiteConfig(), siteRoot: siteRoot)
    }

    /// The site-relative file a static file's output path comes from (`static/a.css`,
    /// `posts/2024-04-01-trip/photo.jpg`).
    func staticSource(_ path: String) -> String {
        bundleSources[path] ?? "\(config.paths.static)/\(path)"
    }

    /// What messages call the copied file at an output path: a static file or a bundle's.
    func staticNoun(_ path: String) -> String {
        bundleSources[path] == nil ? "static file" : "page bundle's file"
    }

    /// Throws when errors were found (or warnings, in strict mode).
    func failIfNeeded() throws(BuildFailure) {
        let failing = diagnostics.contains { $0.severity == .error || (options.strict && $0.severity == .warning) }
        if failing { throw BuildFailure(diagnostics: diagnostics.sortedForDisplay()) }
    }
}

/// One named step of a build (`.step("content") { context in … }`).
package struct BuildStep: Sendable {
    /// The step's name, for timings and messages.
    package let name: String
    let body: @Sendable (inout BuildContext) async throws(BuildFailure) -> Void

    /// Creates a step.
    package static func step(
        _ name: String, _ body: @escaping @Sendable (inout BuildContext) async throws(BuildFailure) -> Void
    ) -> BuildStep {
        BuildStep(name: name, body: body)
    }
}
