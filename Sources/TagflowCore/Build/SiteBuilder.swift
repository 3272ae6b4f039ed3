public import Foundation
import TagflowMarkdown

/// Builds a site folder into a static website.
///
/// ```swift
/// let report = try await SiteBuilder(siteRoot: URL(filePath: "site-example")).build(to: URL(filePath: "_site"))
/// print(report.pageCount)
/// ```
///
/// The steps run in order: read `site.yml`, read the templates (compiled on another thread
/// meanwhile), install plugins, load the content (every bad file is reported), build the
/// taxonomy, render every page in parallel, and write the output atomically. Only the first steps
/// and the last touch the file system.
public struct SiteBuilder: Sendable {
    /// The site folder.
    public let siteRoot: URL
    /// Build options.
    public let options: BuildOptions
    /// Plugins, installed in order.
    public let plugins: [Plugin]
    /// Where the build counts its progress, for a progress line.
    public let progress: BuildProgress?

    /// Creates a builder.
    public init(
        siteRoot: URL, options: BuildOptions = BuildOptions(), plugins: [Plugin] = [], progress: BuildProgress? = nil
    ) {
        self.siteRoot = siteRoot.standardizedFileURL
        self.options = options
        self.plugins = plugins
        self.progress = progress
    }

    /// The steps up to rendering, in order.
    package var steps: [BuildStep] { setupSteps + Self.siteSteps }

    /// The steps that set a build up: the settings, the templates and the plugins.
    var setupSteps: [BuildStep] {
        [
            .step("config", Self.readConfig),
            // The theme compiles while the plugins install and the content loads.
            .step("templates", Self.startLoadingTheme),
            .step("plugins") { [plugins] context throws(BuildFailure) in try Self.installPlugins(plugins, &context) },
        ]
    }

    /// The steps that make the site from its content, once the build is set up.
    static let siteSteps: [BuildStep] = [.step("content", loadContent), .step("taxonomy", assemble)]

    /// Reads, checks and renders the site without writing anything.
    ///
    /// - Returns: The context after rendering, with the files and the warnings.
    /// - Throws: ``BuildFailure`` with every error found.
    package func run() async throws(BuildFailure) -> BuildContext {
        var context = try await run(steps)
        try await Self.renderIntoMemory(&context)
        return context
    }

    private func run(_ steps: [BuildStep]) async throws(BuildFailure) -> BuildContext {
        var context = BuildContext(siteRoot: siteRoot, options: options)
        context.progress = progress
        try await run(steps, on: &context)
        try context.failIfNeeded()
        return context
    }

    /// Runs `steps` in order on `context`, timing each, then takes the theme the templates step
    /// compiled meanwhile.
    func run(_ steps: [BuildStep], on context: inout BuildContext) async throws(BuildFailure) {
        for step in steps {
            progress?.begin(step.name)
            let start = ContinuousClock.now
            try await step.body(&context)
            context.timings.append((step.name, (ContinuousClock.now - start).seconds))
        }
        await Self.finishLoadingTheme(&context)
    }

    /// Builds the site into `output` (or the config's `paths.output`, relative to the site).
    ///
    /// - Returns: What was written.
    /// - Throws: ``BuildFailure``; the previous output is then untouched.
    @discardableResult
    public func build(to output: URL? = nil) async throws(BuildFailure) -> BuildReport {
        let start = ContinuousClock.now
        // Held until the build returns: the folder and the cache's record of it change together.
        let lock = try Self.lockOutput(siteRoot: siteRoot, output: output, options: options)
        defer { withExtendedLifetime(lock) {} }
        let cache = BuildCache(siteRoot: siteRoot)
        var inputs: (all: Digest, frame: Digest)?
        var previous: BuildCache.Pages?
        switch try await lastBuild(into: output, cache, start: start) {
        case .upToDate(let report): return report
        case .changed(let digested, let pages): (inputs, previous) = (digested, pages)
        case .unknown: break
        }
        var context: BuildContext
        // The folder written: a link (`_site` → a web server's folder) followed, as the cache
        // compares it.
        let outputFolder: URL
        let written: RenderPass.Written
        let renderer: SiteRenderer
        do {
            context = try await run(steps)
            // Nothing to compare with: no build is skipped and no page reused, so the inputs are
            // digested now, from the digests the loader made of the bytes it read. A first build,
            // or one into a new folder, then reads each post once, not twice (the second reading
            // was a measurable share of a large build's wall time).
            if options.useCache, inputs == nil, let content = context.contentInputs {
                inputs = await BuildInputs.digest(
                    siteRoot: siteRoot, config: context.config, options: options, plugins: plugins.map(\.name),
                    content: content)
            }
            let writer = OutputWriter(target: target(output, context.config))
            outputFolder = writer.target
            try writer.validate(siteRoot: siteRoot, sourceFolders: context.config.paths.sourceFolders)
            let digests = ContentDigests(site: context.site) { [context] in context.contentDigests[$0] }
            if let previous, let inputs {
                (written, renderer) = try await Self.updateInPlace(
                    &context, writer: writer, inputs: inputs.all.description, digests: digests, previous: previous)
            } else {
                (written, renderer) = try await Self.writeNewFolder(
                    &context, writer: writer, inputs: inputs?.all.description, digests: options.useCache ? digests : nil
                )
            }
        } catch {
            if options.useCache { cache.clear() }
            throw error
        }
        var report = BuildReport(
            output: outputFolder,
            pageCount: written.htmlCount,
            fileCount: written.fileCount + context.staticFiles.count,
            byteCount: written.byteCount,
            postCount: context.site?.posts.count ?? 0,
            tagCount: context.site?.taxonomy.tags.count ?? 0,
            warnings: context.diagnostics.filter { $0.severity == .warning }.sortedForDisplay(),
            timings: context.timings,
            seconds: (ContinuousClock.now - start).seconds,
            heldBack: context.heldBack)
        report.rewrittenFileCount = written.rewritten
        if options.useCache {
            if let inputs {
                cache.write(
                    BuildCache.Manifest(
                        format: BuildCache.formatVersion, tagflow: TagflowVersion.current,
                        inputs: inputs.all.description, frame: inputs.frame.description,
                        output: outputFolder.path, pages: report.pageCount, files: report.fileCount,
                        bytes: report.byteCount, posts: report.postCount, tags: report.tagCount,
                        warnings: report.warnings.map(BuildCache.Warning.init), drafts: context.heldBack.drafts,
                        scheduled: context.heldBack.scheduled,
                        scheduledUntil: context.heldBack.nextScheduled?.secondsSince1970))
                cache.writePages(written.records, identities: written.identities)
            } else {
                cache.clear()
            }
        }
        ReleaseLater.release(Finished(context: consume context, written: consume written, renderer: consume renderer))
        return report
    }

    /// What the cache says of the last build, before a build reads the content.
    private enum LastBuild {
        /// Nothing to compare with: no cache, no record, or a folder the last build did not leave
        /// as it is.
        case unknown
        /// Nothing the build reads changed since: the recorded build's report.
        case upToDate(BuildReport)
        /// What the build reads now, and the last build's pages when only the Markdown of posts
        /// and pages changed (the pages whose keys are unchanged can then stay as they are).
        case changed(inputs: (all: Digest, frame: Digest), pages: BuildCache.Pages?)
    }

    private func lastBuild(into output: URL?, _ cache: BuildCache, start: ContinuousClock.Instant)
        async throws(BuildFailure) -> LastBuild
    {
        guard options.useCache else { return .unknown }
        progress?.begin("cache")
        var early = BuildContext(siteRoot: siteRoot, options: options)
        try Self.readConfig(&early)
        let writer = OutputWriter(target: target(output, early.config))
        try writer.validate(siteRoot: siteRoot, sourceFolders: early.config.paths.sourceFolders)
        // The folder must be exactly what the last build wrote: recorded by that build and not
        // changed since (an update in place clears the record until it is done). Nor is it current
        // once a scheduled post in it falls due: the site is then another.
        guard let manifest = cache.read(), manifest.output == writer.target.path,
            writer.recordedInputs() == manifest.inputs,
            manifest.scheduledUntil.map({ early.now.secondsSince1970 < $0 }) ?? true
        else { return .unknown }
        // No digest when a folder cannot be listed cleanly: the build then reports it.
        guard
            let inputs = await BuildInputs.digest(
                siteRoot: siteRoot, config: early.config, options: options, plugins: plugins.map(\.name))
        else { return .unknown }
        guard manifest.inputs == inputs.all.description else {
            return .changed(inputs: inputs, pages: manifest.frame == inputs.frame.description ? cache.readPages() : nil)
        }
        writer.removeLeftovers()
        let warnings = manifest.warnings.map(\.diagnostic)
        if options.strict && !warnings.isEmpty { throw BuildFailure(diagnostics: warnings) }
        let seconds = (ContinuousClock.now - start).seconds
        return .upToDate(
            BuildReport(
                output: writer.target, pageCount: manifest.pages, fileCount: manifest.files, byteCount: manifest.bytes,
                postCount: manifest.posts, tagCount: manifest.tags, warnings: warnings, timings: [("cache", seconds)],
                seconds: seconds, isUpToDate: true,
                heldBack: HeldBackPosts(drafts: manifest.drafts ?? 0, scheduled: manifest.scheduled ?? 0)))
    }

    /// What a build holds when it is done, released with ``ReleaseLater``.
    private struct Finished: Sendable {
        let context: BuildContext
        let written: RenderPass.Written
        let renderer: SiteRenderer
    }

    /// Locks the folder a build will write: `output`, or the one `site.yml` names (read here, and
    /// read again by the build, so that its errors are reported once, by the build).
    private static func lockOutput(siteRoot: URL, output: URL?, options: BuildOptions) throws(BuildFailure)
        -> OutputLock?
    {
        if let output { return try OutputLock.acquire(for: output) }
        var early = BuildContext(siteRoot: siteRoot, options: options)
        do throws(BuildFailure) { try readConfig(&early) } catch { return nil }
        return try OutputLock.acquire(for: URL(fileURLWithPath: early.config.paths.output, relativeTo: siteRoot))
    }

    private func target(_ output: URL?, _ config: SiteConfig) -> URL {
        output ?? URL(fileURLWithPath: config.paths.output, relativeTo: siteRoot)
    }

    // MARK: Steps

    static func readConfig(_ context: inout BuildContext) throws(BuildFailure) {
        let (config, warnings) = try ConfigFile.read(siteRoot: context.siteRoot)
        context.config = config
        context.diagnostics += warnings
        if let baseURL = context.options.baseURL { context.config.baseURL = SiteConfig.normalizedBaseURL(baseURL) }
    }

    static func installPlugins(_ plugins: [Plugin], _ context: inout BuildContext) throws(BuildFailure) {
        var pluginContext = PluginContext(config: context.config, siteRoot: context.siteRoot)
        for plugin in plugins {
            do {
                try plugin.install(&pluginContext)
            } catch let failure as BuildFailure {
                context.diagnostics += failure.diagnostics
            } catch let error as TagflowError {
                context.diagnostics.append(Diagnostic(.error, error))
            } catch {
                context.diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            step: "plugins", message: "plugin '\(plugin.name)' failed: \(error)", underlying: error)))
            }
        }
        context.diagnostics += pluginContext.diagnostics
        pluginContext.diagnostics = []
        context.plugins = pluginContext
    }

    static func loadTheme(_ context: inout BuildContext) throws(BuildFailure) {
        do {
            use(try Theme.load(siteRoot: context.siteRoot, folder: context.config.paths.templates), &context)
        } catch {
            context.diagnostics += error.diagnostics
        }
    }

    private static func use(_ theme: Theme, _ context: inout BuildContext) {
        for name in Theme.requiredTemplates where !theme.hasTemplate(name) {
            context.diagnostics.append(
                Diagnostic(.error, TagflowError(step: "templates", message: "template '\(name)' is missing")))
        }
        context.theme = theme
    }

    /// Reads the templates, and compiles them on another thread while the next steps run.
    ///
    /// ``finishLoadingTheme(_:)`` takes the result. Compiling the built-in theme takes
    /// milliseconds on one core, which installing the plugins and starting to load the content
    /// leave free, so that no core waits for it at the start of every build.
    static func startLoadingTheme(_ context: inout BuildContext) {
        let sources = Theme.readSources(siteRoot: context.siteRoot, folder: context.config.paths.templates)
        let compiled = Task { () -> Result<Theme, BuildFailure> in
            do throws(BuildFailure) { return .success(try Theme.compile(sources)) } catch { return .failure(error) }
        }
        context.pendingTheme = (sources.names, compiled)
    }

    /// Waits for the theme ``startLoadingTheme(_:)`` started, and takes it as ``loadTheme(_:)``
    /// does.
    static func finishLoadingTheme(_ context: inout BuildContext) async {
        guard let pending = context.pendingTheme else { return }
        context.pendingTheme = nil
        switch await pending.compiled.value {
        case .success(let theme): use(theme, &context)
        case .failure(let failure): context.diagnostics += failure.diagnostics
        }
    }

    static func loadContent(_ context: inout BuildContext) async throws(BuildFailure) {
        var loaded = await contentLoader(context).load(progress: context.progress)
        context.contentDigests = Dictionary(loaded.files.map { ($0.path, $0.digest) }, uniquingKeysWith: { a, _ in a })
        context.contentInputs = loaded.listingDiagnostics.isEmpty ? loaded.files.map { ($0.path, $0.digest) } : nil
        let files = loaded.files
        loaded.files = []
        if context.keepsLoadedContent {
            context.loadedContent = (files, loaded.listingDiagnostics)
        } else {
            // The files hold a copy of every post, which the build does not need again.
            ReleaseLater.release(consume files)
        }
        let (published, problems) = PublishedFiles.staticFiles(config: context.config, siteRoot: context.siteRoot)
        context.staticFiles = published
        context.diagnostics += problems
        try useContent(&loaded, &context)
    }

    /// The loader of this build's posts and pages, with its settings.
    static func contentLoader(_ context: BuildContext) -> ContentLoader {
        let config = context.config
        let options = MarkdownOptions(
            allowsRawHTML: config.markdown.unsafe, smartPunctuation: config.markdown.smartPunctuation,
            hardBreaks: config.markdown.hardBreaks, embedLanguages: Set(context.plugins.embedRenderers.keys),
            rootPathPrefix: config.basePath)
        let timeZone = ContentDate.timeZone(named: config.timeZone) ?? TimeZone(identifier: "UTC") ?? .current
        return ContentLoader(
            siteRoot: context.siteRoot, config: config,
            markdown: MarkdownRenderer(
                options: options,
                codeBlocks: config.markdown.highlight
                    ? HighlightedCodeBlocks(lineNumbers: config.markdown.lineNumbers) : nil),
            timeZone: timeZone,
            templateNames: context.pendingTheme?.names ?? Set(context.theme?.origins.keys ?? [:].keys),
            now: context.now,
            bodies: BodyStore()
        )
    }

    /// Makes the (unsorted) site from loaded content: drafts and scheduled posts left out unless
    /// asked for (and counted), and duplicate slugs reported (also in
    /// ``BuildContext/duplicateDiagnostics``).
    static func useContent(_ loaded: inout ContentLoader.Result, _ context: inout BuildContext) throws(BuildFailure) {
        context.diagnostics += loaded.diagnostics
        var duplicates = ContentProblems.find(posts: loaded.posts, pages: loaded.pages)
        if context.config.tagHierarchy { duplicates += TagHierarchy.problems(posts: loaded.posts) }
        context.diagnostics += duplicates
        context.duplicateDiagnostics = duplicates
        // Taken out (the loaded posts are left empty), so that leaving drafts out changes the
        // only copy of the list in place rather than copying 10 000 posts.
        var posts = loaded.posts
        loaded.posts = []
        let options = context.options
        context.heldBack = HeldBackPosts(
            drafts: options.includeDrafts ? 0 : posts.count { $0.isDraft },
            scheduled: options.includeFuture ? 0 : posts.count { $0.isScheduled && !$0.isDraft },
            nextScheduled: posts.lazy.filter { $0.isScheduled && (options.includeDrafts || !$0.isDraft) }
                .map(\.date).min())
        if !options.includeDrafts || !options.includeFuture { posts.removeAll { !options.publishes($0) } }
        let site = Site(config: context.config, unassembledPosts: posts, pages: loaded.pages)
        context.site = site
        let bundles = PublishedFiles.bundleFiles(of: site, siteRoot: context.siteRoot)
        context.staticFiles += bundles.files
        context.bundleSources = bundles.sources
        // The content's listing has already told of links out of the site.
        let told = Set(context.diagnostics.map(\.description))
        context.diagnostics += bundles.diagnostics.filter { !told.contains($0.description) }
        try context.failIfNeeded()
    }

    /// Sorts the site and builds its taxonomy, whose warnings go to the context (also to
    /// ``BuildContext/taxonomyDiagnostics``).
    static func assemble(_ context: inout BuildContext) throws(BuildFailure) {
        guard var site = context.site else { return }
        // The posts are taken out of the context, so that they are sorted in place, not copied.
        context.site = nil
        let posts = site.posts
        site.posts = []
        let (assembled, diagnostics) = Site.assemble(config: site.config, posts: consume posts, pages: site.pages)
        context.site = assembled
        context.diagnostics += diagnostics
        context.taxonomyDiagnostics = diagnostics
        try context.failIfNeeded()
    }

    // MARK: Rendering

    /// The renderer of the site the steps made.
    static func renderer(_ context: BuildContext, tagCountReads: NameReads? = nil) -> SiteRenderer {
        guard let site = context.site, let theme = context.theme else {
            // The steps stop with their own errors when either is missing.
            preconditionFailure("rendering without content or templates")
        }
        return SiteRenderer(
            site: site, theme: theme, hooks: context.plugins,
            images: ContentImages(staticFiles: context.staticFiles, config: site.config), tagCountReads: tagCountReads)
    }

    /// Renders every page and asset into ``BuildContext/files``, writing nothing: `tagflow check`.
    static func renderIntoMemory(_ context: inout BuildContext) async throws(BuildFailure) {
        let renderer = await renderer(context).prepared()
        do throws(RenderPass.Failure) {
            context.files = try await RenderPass.run(
                renderer, RenderPlan(everyPageOf: renderer), into: MemorySink(), &context
            ).files
        } catch {
            throw error.build
        }
    }

    /// Renders every page into a staging folder and swaps it in; on any error the previous output
    /// stays.
    ///
    /// - Parameters:
    ///   - context: The build, with its site, templates and static files.
    ///   - writer: The output folder.
    ///   - inputs: The digest to record in the output's marker (``BuildCache``).
    ///   - digests: The source files' digests, for the pages' keys (the cached build and `serve`
    ///     record them).
    ///   - tagCountReads: See ``SiteRenderer/init(site:theme:hooks:images:tagCountReads:)``.
    /// - Returns: What was written, and the prepared renderer.
    /// - Throws: ``BuildFailure`` with every error found.
    static func writeNewFolder(
        _ context: inout BuildContext, writer: OutputWriter, inputs: String?, digests: ContentDigests?,
        tagCountReads: NameReads? = nil
    ) async throws(BuildFailure) -> (RenderPass.Written, SiteRenderer) {
        let sink = try StagingSink(writer: writer, inputs: inputs)
        let renderer = await renderer(context, tagCountReads: tagCountReads).prepared(digests: digests)
        let plan = RenderPlan(everyPageOf: renderer)
        do throws(RenderPass.Failure) {
            return (try await RenderPass.run(renderer, plan, into: sink, &context), renderer)
        } catch {
            throw error.build
        }
    }

    /// Brings the output folder of the last build up to date in place: renders only the pages
    /// whose inputs changed since the recorded build, replaces each of their files atomically,
    /// and deletes the pages that are gone.
    ///
    /// For a build whose settings, templates, static files, fonts, options and plugins are the
    /// ones the folder was built with (``BuildInputs``' frame), so that a page with an unchanged
    /// key has unchanged bytes. See ``InPlaceSink`` for what a failure leaves.
    static func updateInPlace(
        _ context: inout BuildContext, writer: OutputWriter, inputs: String, digests: ContentDigests,
        previous: BuildCache.Pages
    ) async throws(BuildFailure) -> (RenderPass.Written, SiteRenderer) {
        let renderer = await renderer(context).prepared(digests: digests)
        do throws(RenderPass.Failure) {
            let plan = await RenderPlan(renderer, comparedWith: previous.pages, from: previous.identities)
            return (
                try await RenderPass.run(renderer, plan, into: InPlaceSink(writer: writer, inputs: inputs), &context),
                renderer
            )
        } catch {
            throw error.build
        }
    }
}

/// What a build wrote.
public struct BuildReport: Sendable {
    /// The output folder.
    public var output: URL
    /// HTML pages written.
    public var pageCount: Int
    /// All files written, static files included.
    public var fileCount: Int
    /// Bytes of generated files.
    public var byteCount: Int
    /// Posts published.
    public var postCount: Int
    /// Distinct tags.
    public var tagCount: Int
    /// Warnings, sorted by location.
    public var warnings: [Diagnostic]
    /// Seconds per step.
    public var timings: [(step: String, seconds: Double)]
    /// Seconds in all.
    public var seconds: Double
    /// Nothing had changed since the last build, so nothing was written (``BuildOptions/useCache``).
    public var isUpToDate = false
    /// The drafts and scheduled posts left out.
    public var heldBack = HeldBackPosts()
    /// How many files a rebuild by ``IncrementalBuilder`` rendered and wrote again; `nil` for a
    /// full build.
    public var rewrittenFileCount: Int?
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
