import Foundation

/// The one way from a planned site to its output, for every build: `tagflow build` (a new
/// folder, or the changed pages of the last one), `tagflow check` (memory) and `tagflow serve`.
///
/// It renders the plan's stale pages in parallel and hands each to the sink; decides, by one rule
/// (``OutputCollisions``), where static files meet pages and assets; and then lets the sink write
/// what is left, or leave the output as it was when anything failed.
enum RenderPass {
    /// A failed pass.
    struct Failure: Error {
        /// Every error found.
        var build: BuildFailure
        /// Whether the output folder was changed part way (only a sink that writes in place does
        /// that, and only when a write fails): only a full build can then say what it holds.
        var outputChanged: Bool
    }

    /// What a pass left in the output.
    struct Written: Sendable {
        /// Every page of the site, with the size of its file.
        var pages: [PlannedPage]
        /// The theme's and plugins' files in the output.
        var assets: [OutputFile]
        /// The pages and assets, when the sink keeps them in memory.
        var files: [OutputFile]
        /// How many files were written in place; `nil` for a new folder.
        var rewritten: Int?

        /// HTML pages, assets among them.
        var htmlCount: Int {
            pages.count { $0.path.hasSuffix(".html") } + assets.count { $0.path.hasSuffix(".html") }
        }
        /// Generated files.
        var fileCount: Int { pages.count + assets.count }
        /// Bytes of generated files.
        var byteCount: Int { pages.reduce(0) { $0 + $1.bytes } + assets.reduce(0) { $0 + $1.byteCount } }
        /// Each page's path and record, in the site's order, for ``BuildCache``.
        var records: [(path: String, record: PageRecord)] {
            pages.map { ($0.path, PageRecord(key: $0.key, bytes: $0.bytes)) }
        }
        /// Each page's record, by path.
        var recordsByPath: [String: PageRecord] {
            Dictionary(records, uniquingKeysWith: { first, _ in first })
        }
    }

    /// One rendered page, as the sink took it.
    private struct Rendered: Sendable {
        var bytes: Int
        var kept: OutputFile?
        var diagnostics: [Diagnostic]
        var failure: BuildFailure?
    }

    /// Renders the plan's stale pages into `sink`, and finishes it.
    ///
    /// The pass's diagnostics are added to the context; it fails, with the sink abandoned, when
    /// any of them is an error (or a warning in strict mode). Timed as `render` and `write`.
    ///
    /// - Parameters:
    ///   - renderer: The site's renderer, prepared.
    ///   - plan: What to render and delete.
    ///   - sink: Where the pages go.
    ///   - context: The build's settings, static files and diagnostics.
    /// - Returns: What the output holds now.
    /// - Throws: ``Failure`` with every error found.
    static func run(
        _ renderer: SiteRenderer, _ plan: RenderPlan, into sink: some PageSink, _ context: inout BuildContext
    ) async throws(Failure) -> Written {
        let renderStart = ContinuousClock.now
        let progress = context.progress
        progress?.begin("render", total: plan.stale.count)
        let pages = plan.pages
        let stale = plan.stale
        let render = { @Sendable (position: Int) -> Rendered in
            defer { progress?.advance() }
            let (file, diagnostics) = renderer.render(pages[stale[position]].job)
            let taken = sink.take(file, at: position)
            return Rendered(bytes: file.byteCount, kept: taken.kept, diagnostics: diagnostics, failure: taken.failure)
        }
        let rendered =
            sink.writesAsItTakes
            ? await ParallelMap.mapWaitingOnFiles(Array(stale.indices), render)
            : await ParallelMap.map(Array(stale.indices), render)
        context.timings.append(("render", (ContinuousClock.now - renderStart).seconds))

        let writeStart = ContinuousClock.now
        progress?.begin("write")
        var written = Written(pages: plan.pages, assets: [], files: [])
        for (index, page) in zip(stale, rendered) { written.pages[index].bytes = page.bytes }
        context.diagnostics += rendered.flatMap(\.diagnostics)
        // A static file may replace an asset, never a page (``OutputCollisions``).
        let staticPaths = Set(context.staticFiles.map(\.path))
        let assets = renderer.assets
        let assetPaths = Set(assets.map(\.path))
        let checked: [String] = plan.appeared.map(Array.init) ?? plan.pages.map(\.path) + assetPaths
        context.diagnostics += OutputCollisions.problems(
            staticPaths: staticPaths, generated: checked, replaceable: assetPaths, source: context.staticSource,
            noun: context.staticNoun)
        written.assets = assets.filter { !staticPaths.contains($0.path) }
        do throws(BuildFailure) {
            if let failure = rendered.lazy.compactMap(\.failure).first { throw failure }
            try context.failIfNeeded()
        } catch {
            sink.abandon()
            throw Failure(build: error, outputChanged: false)
        }
        do throws(BuildFailure) {
            (written.files, written.rewritten) = try await sink.finish(
                pages: rendered.compactMap(\.kept), assets: written.assets, gone: plan.gone,
                staticFiles: context.staticFiles)
        } catch {
            throw Failure(build: error, outputChanged: sink.changesInPlace)
        }
        context.timings.append(("write", (ContinuousClock.now - writeStart).seconds))
        return written
    }
}
