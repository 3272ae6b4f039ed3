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

    /// The steps up to and including rendering, in order.
    package var steps: [BuildStep] {
        [
            .step("config", Self.readConfig),
            // The theme compiles while the plugins install and the content loads.
            .step("templates", Self.startLoadingTheme),
            .step("plugins") { [plugins] context throws(BuildFailure) in try Self.installPlugins(plugins, &context) },
            .step("content", Self.loadContent),
            .step("taxonomy") { context throws(BuildFailure) in _ = try Self.assemble(&context) },
            .step("render", Self.render),
        ]
    }

    /// Reads, checks and renders the site without writing anything.
    ///
    /// - Returns: The context after rendering, with the files and the warnings.
    /// - Throws: ``BuildFailure`` with every error found.
    package func run() async throws(BuildFailure) -> BuildContext {
        try await run(steps)
    }

    private func run(_ steps: [BuildStep]) async throws(BuildFailure) -> BuildContext {
        var context = BuildContext(siteRoot: siteRoot, options: options)
        context.progress = progress
        for step in steps {
            progress?.begin(step.name)
            let start = ContinuousClock.now
            try await step.body(&context)
            context.timings.append((step.name, (ContinuousClock.now - start).seconds))
        }
        await Self.finishLoadingTheme(&context)
        try context.failIfNeeded()
        return context
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
        var previous: [String: BuildCache.PageRecord]?
        var digestsAfterLoading = false
        if options.useCache {
            progress?.begin("cache")
            var early = BuildContext(siteRoot: siteRoot, options: options)
            try Self.readConfig(&early)
            let writer = OutputWriter(target: target(output, early.config))
            try writer.validate(siteRoot: siteRoot, sourceFolders: Self.sourceFolders(early.config))
            let manifest = cache.read()
            // The folder must be exactly what the last build wrote: recorded by that build and
            // not changed since (an update in place clears the record until it is done).
            // Nor is it current once a scheduled post in it falls due: the site is then another.
            let isLastOutput = manifest.map {
                $0.output == writer.target.path && writer.recordedInputs() == $0.inputs
                    && $0.scheduledUntil.map { early.now.secondsSince1970 < $0 } ?? true
            }
            if isLastOutput == true {
                inputs = await BuildInputs.digest(
                    siteRoot: siteRoot, config: early.config, options: options, plugins: plugins.map(\.name))
            } else {
                // Nothing to compare with: no build is skipped and no page reused, so the inputs
                // are digested after loading, from the digests the loader makes of the bytes it
                // reads. A first build, or one into a new folder, then reads each post once, not
                // twice (the second reading was a measurable share of a large build's wall time).
                digestsAfterLoading = true
            }
            if let inputs, let manifest, isLastOutput == true, manifest.inputs == inputs.all.description {
                writer.removeLeftovers()
                let warnings = manifest.warnings.map(\.diagnostic)
                if options.strict && !warnings.isEmpty { throw BuildFailure(diagnostics: warnings) }
                let seconds = (ContinuousClock.now - start).seconds
                return BuildReport(
                    output: writer.target, pageCount: manifest.pages, fileCount: manifest.files,
                    byteCount: manifest.bytes, postCount: manifest.posts, tagCount: manifest.tags,
                    warnings: warnings, timings: [("cache", seconds)], seconds: seconds, isUpToDate: true,
                    heldBack: HeldBackPosts(drafts: manifest.drafts ?? 0, scheduled: manifest.scheduled ?? 0))
            }
            // Only the Markdown of posts and pages changed: the pages whose keys are unchanged
            // can stay as they are.
            if let inputs, let manifest, isLastOutput == true, manifest.frame == inputs.frame.description {
                previous = cache.readPages()
            }
        }
        var context: BuildContext
        let written: Written
        do {
            // Every step but rendering; pages are then rendered straight into the staging folder,
            // so a build never holds the whole site in memory.
            context = try await run(steps.filter { $0.name != "render" })
            if digestsAfterLoading, let content = context.contentInputs {
                inputs = await BuildInputs.digest(
                    siteRoot: siteRoot, config: context.config, options: options, plugins: plugins.map(\.name),
                    content: content)
            }
            let writer = OutputWriter(target: target(output, context.config))
            try writer.validate(siteRoot: siteRoot, sourceFolders: Self.sourceFolders(context.config))
            let digests = ContentDigests(site: context.site) { [context] in context.contentDigests[$0] }
            if let previous, let inputs,
                let updated = try await Self.updateInPlace(
                    &context, writer: writer, inputs: inputs.all.description, digests: digests, previous: previous)
            {
                written = updated
            } else {
                written = try await Self.renderAndWrite(
                    &context, writer: writer, inputs: inputs?.all.description, digests: options.useCache ? digests : nil
                )
            }
        } catch {
            if options.useCache { cache.clear() }
            throw error
        }
        var report = BuildReport(
            output: written.output,
            pageCount: written.pages,
            fileCount: written.files + context.staticFiles.count,
            byteCount: written.bytes,
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
                        output: written.output.path, pages: report.pageCount, files: report.fileCount,
                        bytes: report.byteCount, posts: report.postCount, tags: report.tagCount,
                        warnings: report.warnings.map(BuildCache.Warning.init), drafts: context.heldBack.drafts,
                        scheduled: context.heldBack.scheduled,
                        scheduledUntil: context.heldBack.nextScheduled?.secondsSince1970))
                cache.writePages(written.pageRecords)
            } else {
                cache.clear()
            }
        }
        ReleaseLater.release(Finished(context: consume context, written: consume written))
        return report
    }

    /// What a build holds when it is done, released with ``ReleaseLater``.
    private struct Finished: Sendable {
        let context: BuildContext
        let written: Written
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

    /// Site-relative folders the build reads, which the output must stay out of.
    static func sourceFolders(_ config: SiteConfig) -> [String] {
        let paths = config.paths
        let content = paths.content == "." ? [] : [paths.content]
        return content + ["posts", "pages"].map(paths.contentFolder)
            + [paths.templates, paths.static]
    }

    // MARK: Steps

    static func readConfig(_ context: inout BuildContext) throws(BuildFailure) {
        let url = context.siteRoot.appendingPathComponent("site.yml")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: context.siteRoot.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw BuildFailure(diagnostics: [
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: context.siteRoot.path), step: "config",
                        message: "site folder not found", hint: "create one with `tagflow new site DIR`"))
            ])
        }
        if FileManager.default.fileExists(atPath: url.path) {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                // Out of descriptors, the file is fine: say what is really wrong.
                let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
                let message =
                    code == Int(EMFILE) || code == Int(ENFILE)
                    ? "cannot open site.yml: this process has too many files open (the file itself is fine)"
                    : "cannot read site.yml: \(ContentLoader.reason(error))"
                throw BuildFailure(diagnostics: [
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: "site.yml"), step: "config", message: message,
                            underlying: error))
                ])
            }
            guard let text = SourceText.decode(data) else {
                let offset = ContentLoader.firstInvalidUTF8Offset(in: Array(data)) ?? 0
                let position = ContentLoader.position(of: offset, in: data)
                throw BuildFailure(diagnostics: [
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: "site.yml", line: position.line, column: position.column),
                            step: "config", message: "not valid UTF-8 text (byte \(offset))",
                            hint: "save the file as UTF-8"))
                ])
            }
            let (config, warnings) = try SiteConfig.parse(text, path: "site.yml")
            context.config = config
            context.diagnostics += warnings
        } else if let other = OtherGenerator.site(in: context.siteRoot) {
            // Built as a Tagflow site it would give an empty blog and exit 0.
            throw BuildFailure(diagnostics: [
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: "site.yml"), step: "config",
                        message:
                            "no site.yml, and this folder looks like a \(other.name) site "
                            + "(\(other.evidence.joined(separator: ", "))), not a Tagflow site",
                        hint:
                            "to add chip blocks to it, run `\(other.enhance)` (docs/integrations.md); "
                            + (other.importCommand.map { "to move it to Tagflow, run `\($0)` (docs/import.md)" }
                                ?? "to build it with Tagflow, add a site.yml")))
            ])
        } else {
            context.diagnostics.append(
                Diagnostic(
                    .warning,
                    TagflowError(
                        location: SourceLocation(path: "site.yml"), step: "config",
                        message: "no site.yml; using the default settings",
                        hint: "`tagflow new site DIR` writes a commented one")))
        }
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
        context.contentInputs = loaded.listingIsClean ? loaded.files.map { ($0.path, $0.digest) } : nil
        // The files hold a copy of every post, which the build does not need again.
        let files = loaded.files
        loaded.files = []
        ReleaseLater.release(consume files)
        let (published, problems) = staticFiles(context)
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
            templateNames: context.pendingTheme?.names ?? Set(context.theme?.origins.keys ?? [:].keys), now: context.now
        )
    }

    /// Makes the (unsorted) site from loaded content: drafts and scheduled posts left out unless
    /// asked for (and counted), and duplicate slugs reported.
    ///
    /// - Returns: The duplicate-slug problems (also added to the context).
    @discardableResult
    static func useContent(_ loaded: inout ContentLoader.Result, _ context: inout BuildContext)
        throws(BuildFailure) -> [Diagnostic]
    {
        context.diagnostics += loaded.diagnostics
        var duplicates = duplicateProblems(posts: loaded.posts, pages: loaded.pages)
        if context.config.tagHierarchy { duplicates += TagHierarchy.problems(posts: loaded.posts) }
        context.diagnostics += duplicates
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
        context.site = Site(config: context.config, unassembledPosts: posts, pages: loaded.pages)
        let bundles = bundleFiles(context)
        context.staticFiles += bundles.files
        context.bundleSources = bundles.sources
        // The content's listing has already told of links out of the site.
        let told = Set(context.diagnostics.map(\.description))
        context.diagnostics += bundles.diagnostics.filter { !told.contains($0.description) }
        try context.failIfNeeded()
        return duplicates
    }

    /// Two posts (or two pages) with one slug would write one page; pages must not take the
    /// site's own top-level names.
    static func duplicateProblems(posts: [Post], pages: [Page]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func check(_ items: [(slug: Slug, path: String)], kind: String, url: (Slug) -> String) {
            // Nearly always no slug repeats: that is known without sorting 10 000 paths.
            var seen = Set<Slug>(minimumCapacity: items.count)
            guard items.contains(where: { !seen.insert($0.slug).inserted }) else { return }
            var owners: [Slug: String] = [:]
            for item in items.sorted(by: { $0.path < $1.path }) {
                if let first = owners[item.slug] {
                    problems.append(
                        Diagnostic(
                            .error,
                            TagflowError(
                                location: SourceLocation(path: item.path), step: "content",
                                message:
                                    "\(kind) '\(item.slug)' is also the slug of \(first); both would be written to \(url(item.slug))",
                                hint: "give one of them a different `slug:` in its front matter")))
                } else {
                    owners[item.slug] = item.path
                }
            }
        }
        check(posts.map { ($0.slug, $0.sourcePath) }, kind: "slug", url: Routes.post)
        check(pages.map { ($0.slug, $0.sourcePath) }, kind: "slug", url: Routes.page)
        for page in pages where Routes.reservedPageSlugs.contains(page.slug.rawValue) {
            problems.append(
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: page.sourcePath), step: "content",
                        message: "a page cannot use the slug '\(page.slug)': the site's own pages live there",
                        hint: "set another `slug:` in its front matter")))
        }
        return problems + aliasProblems(posts: posts, pages: pages) + SeriesIndex.problems(posts: posts)
    }

    /// An alias may not stand where a post, a page, another alias or the site's own pages are:
    /// one of the two pages would be lost.
    static func aliasProblems(posts: [Post], pages: [Page]) -> [Diagnostic] {
        let aliased = posts.lazy.map { ($0.sourcePath, $0.aliases) } + pages.lazy.map { ($0.sourcePath, $0.aliases) }
        guard aliased.contains(where: { !$0.1.isEmpty }) else { return [] }
        var owners: [String: String] = [:]
        // Each file taken so far, with what takes it, for the message.
        for post in posts { owners[Routes.file(for: Routes.post(post.slug))] = "the page of \(post.sourcePath)" }
        for page in pages { owners[Routes.file(for: Routes.page(page.slug))] = "the page of \(page.sourcePath)" }
        var problems: [Diagnostic] = []
        for (source, aliases) in aliased.sorted(by: { $0.0 < $1.0 }) {
            for alias in aliases {
                let file = Routes.file(for: alias)
                let message: String
                if PageAliases.isReserved(file: file) {
                    message = "alias '\(alias)' is among the site's own pages (home, tags, feeds, archive, assets)"
                } else if let owner = owners[file] {
                    message = "alias '\(alias)' is also \(owner); both would be written to \(file)"
                } else {
                    owners[file] = "an alias of \(source)"
                    continue
                }
                problems.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: source), step: "content", message: message,
                            hint: "remove the alias, or give the other page another address")))
            }
        }
        return problems
    }

    /// The static folder's files, and what is wrong with its listing (links that lead out of the
    /// site or into its sources, FIFOs, unreadable folders).
    static func staticFiles(_ context: BuildContext) -> (
        files: [(source: URL, path: String)], diagnostics: [Diagnostic]
    ) {
        let folder = context.config.paths.static
        let paths = context.config.paths
        let protected =
            (sourceFolders(context.config).filter { $0 != paths.static } + [paths.output, "site.yml"])
            .map(SiteConfig.Paths.normalized).filter { !$0.isEmpty } + hiddenEntries(context.siteRoot)
        let listing = SiteFiles.allFiles(under: folder, in: context.siteRoot, protected: protected)
        let files = listing.files.map { path in
            (context.siteRoot.appendingPathComponent(path), String(path.dropFirst(folder.count + 1)))
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
    static func bundleFiles(_ context: BuildContext) -> (
        files: [(source: URL, path: String)], sources: [String: String], diagnostics: [Diagnostic]
    ) {
        guard let site = context.site else { return ([], [:], []) }
        let paths = context.config.paths
        let protected =
            [paths.output, "site.yml", paths.templates].map(SiteConfig.Paths.normalized).filter { !$0.isEmpty }
            + hiddenEntries(context.siteRoot)
        var files: [(source: URL, path: String)] = []
        var sources: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        let bundles =
            site.posts.map { ($0.sourcePath, paths.contentFolder("posts"), Routes.post($0.slug)) }
            + site.pages.map { ($0.sourcePath, paths.contentFolder("pages"), Routes.page($0.slug)) }
        for (source, folder, route) in bundles where SiteFiles.isBundleIndex(source, under: folder) {
            let bundle = SiteFiles.parentFolder(of: source)
            let listing = SiteFiles.allFiles(under: bundle, in: context.siteRoot, protected: protected)
            diagnostics += listing.diagnostics
            let target = String(Routes.file(for: route).dropLast("index.html".count))
            for path in listing.files where !SiteFiles.isMarkdown(path) {
                let output = target + String(path.dropFirst(bundle.count + 1))
                files.append((context.siteRoot.appendingPathComponent(path), output))
                sources[output] = path
            }
        }
        return (files, sources, diagnostics)
    }

    /// Sorts the site and builds its taxonomy.
    ///
    /// - Returns: The taxonomy's warnings (also added to the context).
    static func assemble(_ context: inout BuildContext) throws(BuildFailure) -> [Diagnostic] {
        guard var site = context.site else { return [] }
        // The posts are taken out of the context, so that they are sorted in place, not copied.
        context.site = nil
        let posts = site.posts
        site.posts = []
        let (assembled, diagnostics) = Site.assemble(config: site.config, posts: consume posts, pages: site.pages)
        context.site = assembled
        context.diagnostics += diagnostics
        try context.failIfNeeded()
        return diagnostics
    }

    /// What ``renderAndWrite(_:writer:inputs:)`` wrote.
    struct Written: Sendable {
        var output: URL
        var pages = 0
        var files = 0
        var bytes = 0
        /// The renderer, with what it prepared (for ``IncrementalBuilder`` to reuse).
        var renderer: SiteRenderer
        /// Each page's output path and bytes, in the build's order of pages.
        var pageList: [(path: String, bytes: Int)]
        /// Bytes of each page, by output path (made when asked: only `tagflow serve` asks).
        var pageSizes: [String: Int] { Dictionary(pageList, uniquingKeysWith: { first, _ in first }) }
        /// Each page's output path, key and size, in the build's order of pages, when the
        /// renderer had keys.
        var pageRecords: [(path: String, record: BuildCache.PageRecord)] = []
        /// How many files an update in place wrote (`nil` for a whole new folder).
        var rewritten: Int?
    }

    /// Renders every page into a staging folder and swaps it in.
    ///
    /// Pages are written as they are rendered (in parallel), then the assets and static files; on
    /// any error the staging folder is removed and the previous output stays. Timed as `render`
    /// (pages) and `write` (the rest and the swap).
    static func renderAndWrite(
        _ context: inout BuildContext, writer: OutputWriter, inputs: String?, digests: ContentDigests? = nil,
        tagCountReads: NameReads? = nil
    ) async throws(BuildFailure) -> Written {
        guard let site = context.site, let theme = context.theme else {
            // The steps before stop with their own errors when either is missing.
            preconditionFailure("rendering without content or templates")
        }
        let renderStart = ContinuousClock.now
        context.progress?.begin("render")
        let staging = try writer.beginStaging()
        let unprepared = SiteRenderer(
            site: site, theme: theme, hooks: context.plugins,
            images: ContentImages(staticFiles: context.staticFiles, config: site.config), tagCountReads: tagCountReads)
        let jobs = unprepared.jobs
        // The folders are made while the summaries are prepared and the pages rendered.
        let folders = FolderMaker(
            folders: jobs.map { OutputWriter.folder(of: Routes.file(for: unprepared.path(of: $0))) },
            in: staging.descriptor)
        let renderer = await unprepared.prepared(digests: digests)
        let progress = context.progress
        progress?.setTotal(jobs.count)
        struct Page: Sendable {
            var path: String
            var bytes: Int
            var diagnostics: [Diagnostic]
            var failure: CocoaError?
            /// The page's key, printed here rather than after the pages, on one core.
            var key: String?
        }
        // Each job also writes its page: see ``ParallelMap/mapWaitingOnFiles(_:threadCount:startThread:_:)``.
        let pages = await ParallelMap.mapWaitingOnFiles(Array(jobs.indices)) { index in
            defer { progress?.advance() }
            let job = jobs[index]
            let (file, diagnostics) = renderer.render(job)
            let failure = OutputWriter.writeFile(file, into: staging, folderIsMade: folders.isMade(index))
            folders.noteMade(index)
            return Page(
                path: file.path, bytes: file.byteCount, diagnostics: diagnostics, failure: failure,
                key: renderer.key(of: job)?.description)
        }
        folders.finish()
        context.timings.append(("render", (ContinuousClock.now - renderStart).seconds))
        let writeStart = ContinuousClock.now
        context.progress?.begin("write")
        context.diagnostics += pages.flatMap(\.diagnostics)
        let staticPaths = Set(context.staticFiles.map(\.path))
        let allAssets = renderer.assets
        context.diagnostics += OutputCollisions.problems(
            staticPaths: staticPaths, generated: pages.lazy.map(\.path) + allAssets.map(\.path),
            replaceable: Set(allAssets.map(\.path)), source: context.staticSource, noun: context.staticNoun)
        let assets = allAssets.filter { !staticPaths.contains($0.path) }
        var failed = pages.lazy.compactMap { page in page.failure.map { (page.path, $0) } }.first
        for asset in assets {
            if let failure = OutputWriter.writeFile(asset, into: staging) { failed = (asset.path, failure) }
        }
        do throws(BuildFailure) {
            if let (path, failure) = failed {
                throw OutputWriter.writeFailure(path, failure, in: writer.target)
            }
            try context.failIfNeeded()
        } catch {
            OutputWriter.removeTree(staging.url)
            throw error
        }
        try writer.finish(staging, staticFiles: context.staticFiles, inputs: inputs)
        context.timings.append(("write", (ContinuousClock.now - writeStart).seconds))
        return Written(
            output: writer.target,
            pages: pages.filter { $0.path.hasSuffix(".html") }.count
                + assets.filter { $0.path.hasSuffix(".html") }.count,
            files: pages.count + assets.count,
            bytes: pages.reduce(0) { $0 + $1.bytes } + assets.reduce(0) { $0 + $1.byteCount },
            renderer: renderer,
            pageList: pages.map { ($0.path, $0.bytes) },
            pageRecords: Self.records(pages.lazy.map { ($0.path, $0.key, $0.bytes) }))
    }

    /// Page records for the cache; none unless every page has a key.
    private static func records(
        _ pages: some Collection<(path: String, key: String?, bytes: Int)>
    ) -> [(path: String, record: BuildCache.PageRecord)] {
        var records: [(path: String, record: BuildCache.PageRecord)] = []
        records.reserveCapacity(pages.count)
        for page in pages {
            guard let key = page.key else { return [] }
            records.append((page.path, BuildCache.PageRecord(key: key, bytes: page.bytes)))
        }
        return records
    }

    /// Brings the output folder of the last build up to date in place: renders only the pages
    /// whose keys differ from the ones recorded, replaces each of those files atomically, and
    /// deletes the pages that are gone.
    ///
    /// For a build whose settings, templates, static files, fonts, options and plugins are the
    /// ones the folder was built with (``BuildInputs``' frame), so that a page with an unchanged
    /// key has unchanged bytes. Everything is rendered before the folder is touched, so a build
    /// that fails leaves it as it was. While files are replaced the folder's marker records no
    /// inputs: if the update stops half-way, the next build replaces the whole folder.
    ///
    /// - Returns: What the folder holds now; `nil` when the change needs a whole new folder (a
    ///   page appears or disappears where a static file lives: which one wins is the full build's
    ///   decision).
    static func updateInPlace(
        _ context: inout BuildContext, writer: OutputWriter, inputs: String, digests: ContentDigests,
        previous: [String: BuildCache.PageRecord]
    ) async throws(BuildFailure) -> Written? {
        guard let site = context.site, let theme = context.theme else {
            preconditionFailure("rendering without content or templates")
        }
        let renderStart = ContinuousClock.now
        context.progress?.begin("render")
        let renderer = await SiteRenderer(
            site: site, theme: theme, hooks: context.plugins,
            images: ContentImages(staticFiles: context.staticFiles, config: site.config)
        ).prepared(digests: digests)
        let jobs = renderer.jobs
        let planned = zip(jobs, renderer.keys(of: jobs)).map { job, key in
            (job: job, path: renderer.outputPath(of: job), key: key?.description)
        }
        let paths = Set(planned.map(\.path))
        let staticPaths = Set(context.staticFiles.map(\.path))
        let gone = Set(previous.keys).subtracting(paths)
        let stale = planned.filter { $0.key == nil || previous[$0.path]?.key != $0.key }
        let progress = context.progress
        progress?.setTotal(stale.count)
        let rendered = await ParallelMap.map(stale.map(\.job)) { job in
            defer { progress?.advance() }
            return renderer.render(job)
        }
        context.diagnostics += rendered.flatMap(\.diagnostics)
        let assetPaths = Set(renderer.assets.map(\.path))
        context.diagnostics += OutputCollisions.problems(
            staticPaths: staticPaths, generated: paths.union(assetPaths), replaceable: assetPaths,
            source: context.staticSource, noun: context.staticNoun)
        try context.failIfNeeded()
        // Assets depend only on the frame, but are few: rewrite any that differ.
        let assets = renderer.assets.filter { !staticPaths.contains($0.path) }
        let changedAssets = assets.filter { asset in
            FileManager.default.contents(atPath: writer.target.path + "/" + asset.path).map { [UInt8]($0) }
                != asset.contents
        }
        context.timings.append(("render", (ContinuousClock.now - renderStart).seconds))

        let writeStart = ContinuousClock.now
        context.progress?.begin("write")
        writer.removeLeftovers()
        try writer.forgetInputs()
        let files = rendered.map(\.file) + changedAssets
        let target = writer.target
        let failures = await ParallelMap.mapWaitingOnFiles(files) { file in
            OutputWriter.replaceFile(file, in: target).map { (file.path, $0) }
        }
        if let (path, failure) = failures.compactMap({ $0 }).first {
            throw OutputWriter.writeFailure(path, failure, in: target)
        }
        for path in gone.sorted() { OutputWriter.removeFile(path, in: target) }
        try writer.recordInputs(inputs)
        context.timings.append(("write", (ContinuousClock.now - writeStart).seconds))

        var sizes = Dictionary(
            zip(stale.map(\.path), rendered.map(\.file.byteCount)), uniquingKeysWith: { a, _ in a })
        for page in planned where sizes[page.path] == nil { sizes[page.path] = previous[page.path]?.bytes ?? 0 }
        let htmlPages = planned.filter { $0.path.hasSuffix(".html") }.count
        return Written(
            output: target, pages: htmlPages + assets.filter { $0.path.hasSuffix(".html") }.count,
            files: planned.count + assets.count,
            bytes: sizes.values.reduce(0, +) + assets.reduce(0) { $0 + $1.byteCount },
            renderer: renderer, pageList: planned.map { ($0.path, sizes[$0.path] ?? 0) },
            pageRecords: records(planned.map { ($0.path, $0.key, sizes[$0.path] ?? 0) }),
            rewritten: files.count)
    }

    static func render(_ context: inout BuildContext) async throws(BuildFailure) {
        await finishLoadingTheme(&context)
        guard let site = context.site, let theme = context.theme else { return }
        let renderer = SiteRenderer(
            site: site, theme: theme, hooks: context.plugins,
            images: ContentImages(staticFiles: context.staticFiles, config: site.config))
        let (files, diagnostics) = await renderer.render(progress: context.progress)
        context.diagnostics += diagnostics
        var rendered = files
        let staticPaths = Set(context.staticFiles.map(\.path))
        let assetPaths = Set(renderer.assets.map(\.path))
        context.diagnostics += OutputCollisions.problems(
            staticPaths: staticPaths, generated: files.map(\.path), replaceable: assetPaths,
            source: context.staticSource, noun: context.staticNoun)
        // A static file replaces a theme or plugin asset of the same path.
        rendered.removeAll { staticPaths.contains($0.path) && assetPaths.contains($0.path) }
        context.files = rendered
        try context.failIfNeeded()
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
