package import Foundation
import TagflowConcurrency

/// Builds a site into a folder, then keeps it up to date after edits by rendering again only the
/// pages whose inputs changed: the preview server's builder.
///
/// ```swift
/// let builder = IncrementalBuilder(siteRoot: site, output: folder)
/// _ = await builder.build(changedPaths: nil)                      // a full build
/// _ = await builder.build(changedPaths: ["posts/2024-05-01-hello.md"])   // that post's pages
/// ```
///
/// After a full build it keeps every post and page it read, with a digest of each source file,
/// and for every page written what its rendering read and the key made from it
/// (``SiteRenderer/keys(of:)``). When only Markdown files of
/// `posts/` and `pages/` changed, it reads just those and renders and rewrites (each file
/// atomically) only the pages whose key changed; it deletes the pages that are gone. Edited posts
/// that keep their slug, date and draft flag keep their places in the site as it is
/// (``SiteRenderer/replace(_:)``), and only the tags they list, if they list others, are counted
/// again (``Taxonomy/retagged(posts:previousTagKeys:)``); any other content change assembles the
/// site again (order, taxonomy). Any other change (settings,
/// templates, static files, fonts) is a full build, as is the first build and the one after a
/// failed write.
///
/// A failed rebuild leaves the folder as it was; the next one starts from the files as they are
/// then. Not for publishing: a published site is built whole, into a staging folder swapped in
/// at once (``SiteBuilder``).
package actor IncrementalBuilder {
    /// The site folder.
    package let siteRoot: URL
    /// The output folder this builder owns.
    package let output: URL
    /// Build options.
    package let options: BuildOptions
    /// Plugins, installed in order.
    package let plugins: [Plugin]

    private var state: State?
    /// How many rebuilds kept the site's order and took in the edited posts in place (for tests).
    private(set) var inPlaceRebuildCount = 0

    /// What the last full build set up and what the output folder holds now.
    private struct State {
        /// Settings, plugins, templates and static files, with the diagnostics of reading them.
        var context: BuildContext
        var loader: ContentLoader
        /// Every Markdown file of posts and pages, as last read, by path.
        var files: [String: ContentLoader.LoadedFile]
        /// The listing's own diagnostics (link loops, unreadable folders).
        var listingDiagnostics: [Diagnostic]
        /// The output folder.
        var writer: OutputWriter
        /// The static files and page bundles' files the output holds, and where each bundle's
        /// file comes from (for messages): copied by the full build, the same until the next.
        var staticFiles: [(source: URL, path: String)]
        var bundleSources: [String: String]
        /// The renderer of the output, whose summaries and tag lists a rebuild reuses. (A rebuild
        /// changes it in place before it renders; after a failed one, `needsAssembly` is set and
        /// the next rebuild reuses it only by key.)
        var renderer: SiteRenderer
        /// The drafts and scheduled posts left out when the site was last assembled.
        var heldBack: HeldBackPosts
        /// Duplicate slugs found when the site was last assembled.
        var duplicateDiagnostics: [Diagnostic]
        /// Tag URL collisions found when the taxonomy was last built.
        var taxonomyDiagnostics: [Diagnostic]
        /// Where each published post is in the site, by source path.
        var postIndices: [String: Int]
        /// What the output folder holds: every page, with its key and size, and the assets.
        var written: RenderPass.Written
        /// False once a write failed part way: the folder is then part old, part new.
        var isUsable = true
        /// True after a failed rebuild: the files table then holds versions the renderer has not
        /// seen, so the next rebuild assembles the site again instead of replacing posts in place.
        var needsAssembly = false
        /// The diagnostics of the files that have any, by path.
        var fileDiagnostics: [String: [Diagnostic]] = [:]
        /// Files that could not be read as a post or page.
        var brokenFiles: Set<String> = []

        /// Records a file as read now (`nil`: it is gone).
        mutating func update(_ path: String, _ file: ContentLoader.LoadedFile?) {
            files[path] = file
            let diagnostics = file?.content.diagnostics ?? []
            fileDiagnostics[path] = diagnostics.isEmpty ? nil : diagnostics
            if case .failed? = file?.content { brokenFiles.insert(path) } else { brokenFiles.remove(path) }
        }
    }

    /// Creates a builder that owns `output`.
    package init(siteRoot: URL, output: URL, options: BuildOptions = BuildOptions(), plugins: [Plugin] = []) {
        self.siteRoot = siteRoot.standardizedFileURL
        self.output = output.standardizedFileURL
        self.options = options
        self.plugins = plugins
    }

    /// Builds after `changedPaths` (site-relative) changed; `nil` builds everything.
    ///
    /// - Returns: The report (``BuildReport/rewrittenFileCount`` says how many pages were written),
    ///   or every error found; the output folder then keeps the last good build.
    package func build(changedPaths: Set<String>?) async -> Result<BuildReport, BuildFailure> {
        if let changedPaths, var current = state {
            state = nil
            let outcome: Result<BuildReport?, BuildFailure>
            do throws(BuildFailure) {
                outcome = .success(try await rebuild(changedPaths, &current))
                if case .success(_?) = outcome { current.needsAssembly = false }
            } catch {
                current.needsAssembly = true
                outcome = .failure(error)
            }
            state = current.isUsable ? current : nil
            switch outcome {
            case .success(let report?): return .success(report)
            case .success(nil): break
            case .failure(let failure): return .failure(failure)
            }
        }
        do throws(BuildFailure) {
            return .success(try await fullBuild())
        } catch {
            return .failure(error)
        }
    }

    // MARK: Full builds

    private func fullBuild() async throws(BuildFailure) -> BuildReport {
        state = nil
        let start = ContinuousClock.now
        // `tagflow build`'s steps, in two runs: what the first one sets up is where every rebuild
        // starts from.
        let builder = SiteBuilder(siteRoot: siteRoot, options: options, plugins: plugins)
        var context = BuildContext(siteRoot: siteRoot, options: options)
        try await builder.run(builder.setupSteps, on: &context)
        var setup = context
        setup.timings = []
        context.keepsLoadedContent = true
        try await builder.run(SiteBuilder.siteSteps, on: &context)
        try context.failIfNeeded()
        guard let site = context.site, let content = context.loadedContent else {
            preconditionFailure("the content steps make the site")
        }
        let writer = OutputWriter(target: output)
        try writer.validate(siteRoot: siteRoot, sourceFolders: context.config.paths.sourceFolders)
        let table = Dictionary(content.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        // Counts in posts' tag lists count in the keys once a page shows one.
        var (written, renderer) = try await SiteBuilder.writeNewFolder(
            &context, writer: writer, inputs: nil, digests: Self.digests(of: site, table), tagCountReads: NameReads())
        renderer.updateKeysForShownCounts()
        written.pages = await RenderPlan(renderer, sameJobsAs: written.pages, identities: written.identities).pages
        state = State(
            context: setup, loader: SiteBuilder.contentLoader(setup), files: table,
            listingDiagnostics: content.listingDiagnostics, writer: writer, staticFiles: context.staticFiles,
            bundleSources: context.bundleSources, renderer: renderer, heldBack: context.heldBack,
            duplicateDiagnostics: context.duplicateDiagnostics, taxonomyDiagnostics: context.taxonomyDiagnostics,
            postIndices: Self.postIndices(site), written: written)
        for file in content.files { state?.update(file.path, file) }
        return report(written, context: context, site: site, timings: context.timings, start: start)
    }

    /// The report of a build that left `written` in the output.
    private func report(
        _ written: RenderPass.Written, context: BuildContext, site: Site, timings: [(String, Double)],
        start: ContinuousClock.Instant
    ) -> BuildReport {
        BuildReport(
            output: output, pageCount: written.htmlCount, fileCount: written.fileCount + context.staticFiles.count,
            byteCount: written.byteCount, postCount: site.posts.count, tagCount: site.taxonomy.tags.count,
            warnings: context.diagnostics.filter { $0.severity == .warning }.sortedForDisplay(), timings: timings,
            seconds: (ContinuousClock.now - start).seconds, heldBack: context.heldBack)
    }

    /// Makes the site from its files as a full build does (drafts, duplicate slugs, sorting,
    /// taxonomy), adding every diagnostic to the context.
    private func assemble(_ content: ContentLoader.Result, _ context: inout BuildContext) throws(BuildFailure) -> Site {
        var content = content
        try SiteBuilder.useContent(&content, &context)
        try SiteBuilder.assemble(&context)
        guard let site = context.site else { preconditionFailure("useContent makes the site") }
        return site
    }

    private static func postIndices(_ site: Site) -> [String: Int] {
        Dictionary(site.posts.indices.map { (site.posts[$0].sourcePath, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The digests of a site's posts and pages, in site order, from the table of read files.
    private static func digests(of site: Site?, _ files: [String: ContentLoader.LoadedFile]) -> ContentDigests {
        ContentDigests(site: site) { files[$0]?.digest }
    }

    // MARK: Rebuilds

    /// Rebuilds after content edits, or returns `nil` when the change needs a full build.
    private func rebuild(_ changedPaths: Set<String>, _ state: inout State) async throws(BuildFailure)
        -> BuildReport?
    {
        let start = ContinuousClock.now
        var kinds: [(path: String, kind: ContentLoader.Kind)] = []
        for path in changedPaths.sorted() {
            // Settings, templates, static files and fonts can change any page.
            guard let kind = state.loader.kind(ofContentPath: path) else { return nil }
            kinds.append((path, kind))
        }
        let loader = state.loader
        let reread = await ParallelMap.map(kinds) { path, kind in
            Self.isFile(loader.siteRoot.appendingPathComponent(path).path) ? loader.loadFile(path, kind: kind) : nil
        }
        let replacements = state.needsAssembly ? nil : inPlaceEdits(zip(kinds.map(\.path), reread), state)
        let filesCameOrWent = zip(kinds, reread).contains { planned, file in
            (file == nil) != (state.files[planned.path] == nil)
        }
        // The table follows the files even when this rebuild fails, so that the next one starts
        // from the files as they are.
        for (planned, file) in zip(kinds, reread) { state.update(planned.path, file) }
        var context = state.context
        let contentSeconds = (ContinuousClock.now - start).seconds

        let assembleStart = ContinuousClock.now
        let renderer: SiteRenderer
        let plan: RenderPlan
        var taxonomyDiagnostics = state.taxonomyDiagnostics
        var assembled: (duplicates: [Diagnostic], postIndices: [String: Int])?
        if let replacements {
            // Same order: the site keeps its shape. The taxonomy is counted again for the tags
            // the edited posts list, and what the edit did not reach is kept. In place: after a
            // failed rebuild the next one assembles the site again (reusing the renderer by key
            // only), and one that gives up is a full build.
            let retagged = await state.renderer.replace(replacements)
            renderer = state.renderer
            if let retagged {
                // Other tags can add or remove pages of tags.
                taxonomyDiagnostics = retagged
                plan = await RenderPlan(renderer, comparedWith: state.written.records, from: state.written.identities)
            } else {
                // The same tags: the same pages, and only the edited posts' pages and the lists
                // that show them can change.
                plan = await RenderPlan(renderer, sameJobsAs: state.written.pages, identities: state.written.identities)
            }
        } else {
            // When files came or went, the listing is read again: it must name the files the table
            // holds (a folder reached through a link that broke, say, is news only to a full
            // build). Edits of files alone cannot change it, and the in-place way does not read it.
            if filesCameOrWent {
                let listing = state.loader.listing()
                guard listing.files.count == state.files.count,
                    listing.files.allSatisfy({ state.files[$0.0] != nil })
                else { return nil }
                state.listingDiagnostics = listing.diagnostics
            }
            let files = state.files.values.sorted { $0.path < $1.path }
            let content = ContentLoader.Result(files: files, listingDiagnostics: state.listingDiagnostics)
            let site = try assemble(content, &context)
            guard let theme = context.theme else { return nil }
            taxonomyDiagnostics = context.taxonomyDiagnostics
            renderer = await SiteRenderer(
                site: site, theme: theme, hooks: context.plugins, images: state.renderer.images,
                tagCountReads: state.renderer.tagCountReads
            ).prepared(digests: Self.digests(of: site, state.files), reusing: state.renderer)
            assembled = (context.duplicateDiagnostics, Self.postIndices(site))
            plan = await RenderPlan(renderer, comparedWith: state.written.records, from: state.written.identities)
        }
        if assembled == nil {
            // What assembling the site would have said; a new assembly says it by itself.
            context.diagnostics +=
                state.listingDiagnostics + state.fileDiagnostics.values.joined() + state.duplicateDiagnostics
                + taxonomyDiagnostics
        }
        let assembleSeconds = (ContinuousClock.now - assembleStart).seconds

        // The output's static files, which pages must not collide with.
        context.staticFiles = state.staticFiles
        context.bundleSources = state.bundleSources
        let written: RenderPass.Written
        do throws(RenderPass.Failure) {
            written = try await RenderPass.run(
                renderer, plan, into: InPlaceSink(writer: state.writer, inputs: nil), &context)
        } catch {
            // Part old, part new: only a full build can say what the folder holds.
            if error.outputChanged { state.isUsable = false }
            throw error.build
        }
        // A page showed a tag's count in a post's tag list for the first time: the keys left the
        // counts out, so pages that were not rendered again may show old counts.
        if renderer.keys?.countsShown == false, renderer.countsShown { return nil }
        state.written = written
        state.renderer = renderer
        state.taxonomyDiagnostics = taxonomyDiagnostics
        if let assembled {
            state.duplicateDiagnostics = assembled.duplicates
            state.postIndices = assembled.postIndices
            state.heldBack = context.heldBack
        }
        context.heldBack = state.heldBack
        var report = report(
            written, context: context, site: renderer.site,
            timings: [("content", contentSeconds), ("assemble", assembleSeconds)] + context.timings, start: start)
        report.rewrittenFileCount = written.rewritten
        if replacements != nil { inPlaceRebuildCount += 1 }
        return report
    }

    /// The edited posts by their place in the site, when every change is an edit of a post that
    /// keeps its slug, date and draft flag and every file reads without errors; otherwise `nil`,
    /// and the site is assembled again.
    private func inPlaceEdits(
        _ changes: some Sequence<(String, ContentLoader.LoadedFile?)>, _ state: State
    ) -> [Int: (post: Post, digest: Digest)]? {
        var edits: [Int: (post: Post, digest: Digest)] = [:]
        for (path, file) in changes {
            guard case .post(let post, let warnings)? = file?.content,
                !warnings.contains(where: { $0.severity == .error }), let file,
                case .post(let known, _)? = state.files[path]?.content
            else { return nil }
            // Compared with the version the pages were rendered from.
            let index = state.postIndices[path]
            let old = index.map { state.renderer.site.posts[$0] } ?? known
            guard old.sourcePath == path, post.slug == old.slug, post.date == old.date, post.isDraft == old.isDraft,
                post.isScheduled == old.isScheduled, post.aliases == old.aliases, post.series == old.series,
                post.terms == old.terms
            else { return nil }
            if let index {
                edits[index] = (post, file.digest)
                // Nested tags are checked and counted by the whole site's assembly.
                if post.tags != old.tags || post.tagsLocation != old.tagsLocation,
                    state.renderer.site.config.tagHierarchy
                {
                    return nil
                }
            } else if options.publishes(post) {
                return nil
            }
        }
        // Another file still broken: the full assembly reports it.
        guard state.brokenFiles.isSubset(of: changes.map(\.0)) else { return nil }
        return edits
    }

    private static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
