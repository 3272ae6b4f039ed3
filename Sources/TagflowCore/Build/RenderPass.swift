import Foundation
import TagflowConcurrency

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
        /// What names the posts, tags and the rest in the pages' inputs.
        var identities: SiteIdentities

        /// HTML pages, assets among them.
        var htmlCount: Int {
            pages.count { $0.path.hasSuffix(".html") } + assets.count { $0.path.hasSuffix(".html") }
        }
        /// Generated files.
        var fileCount: Int { pages.count + assets.count }
        /// Bytes of generated files.
        var byteCount: Int { pages.reduce(0) { $0 + $1.bytes } + assets.reduce(0) { $0 + $1.byteCount } }
        /// Each page's path and record, in the site's order, for ``BuildCache``.
        var records: LazyMapCollection<[PlannedPage], (path: String, record: PageRecord)> {
            pages.lazy.map { ($0.path, PageRecord(inputs: $0.inputs, key: $0.key, bytes: $0.bytes)) }
        }
    }

    /// One rendered page, as the sink took it.
    private struct Rendered<Kept: Sendable>: Sendable {
        var bytes: Int
        var inputs: [PageInput]
        var kept: Kept
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
    static func run<Sink: PageSink>(
        _ renderer: SiteRenderer, _ plan: consuming RenderPlan, into sink: Sink, _ context: inout BuildContext
    ) async throws(Failure) -> Written {
        let renderStart = ContinuousClock.now
        let progress = context.progress
        progress?.begin("render", total: plan.stale.count)
        let rendered: [Rendered<Sink.Kept>]
        do {
            let jobs = plan.stale.map { plan.pages[$0].job }
            rendered = await renderPages(jobs.count, onFileThreads: sink.writesAsItTakes) { position in
                defer { progress?.advance() }
                let reads = PageReads()
                let (file, diagnostics) = renderer.render(jobs[position], reads: reads)
                let taken = sink.take(file)
                return Rendered(
                    bytes: file.byteCount, inputs: reads.inputs, kept: taken.kept, diagnostics: diagnostics,
                    failure: taken.failure)
            }
        }
        context.timings.append(("render", (ContinuousClock.now - renderStart).seconds))

        let writeStart = ContinuousClock.now
        progress?.begin("write")
        // The plan's pages become the record of the output, their sizes filled in (in place: the
        // plan is consumed).
        var written = Written(pages: [], assets: [], files: [], identities: plan.identities)
        swap(&written.pages, &plan.pages)
        let keys = await renderer.keys(of: rendered.map(\.inputs))
        for (position, index) in plan.stale.enumerated() {
            written.pages[index].bytes = rendered[position].bytes
            // Without digests (`--no-cache`) nothing compares them later.
            written.pages[index].inputs = renderer.keys == nil ? nil : rendered[position].inputs
            written.pages[index].key = keys[position]
        }
        context.diagnostics += rendered.flatMap(\.diagnostics)
        // A static file may replace an asset, never a page (``OutputCollisions``).
        let staticPaths = Set(context.staticFiles.map(\.path))
        let assets = renderer.assets
        let assetPaths = Set(assets.map(\.path))
        let checked: [String] = plan.appeared.map(Array.init) ?? written.pages.map(\.path) + assetPaths
        context.diagnostics += OutputCollisions.problems(
            staticPaths: staticPaths, generated: checked, replaceable: assetPaths, source: context.staticSource,
            noun: context.staticNoun)
        written.assets = assets.filter { !staticPaths.contains($0.path) }
        do throws(BuildFailure) {
            if let failure = rendered.lazy.compactMap(\.failure).first { throw failure }
            try context.failIfNeeded()
        } catch {
            await sink.abandon()
            throw Failure(build: error, outputChanged: false)
        }
        do throws(BuildFailure) {
            (written.files, written.rewritten) = try await sink.finish(
                pages: rendered.map(\.kept), assets: written.assets, gone: plan.gone,
                staticFiles: context.staticFiles)
        } catch {
            throw Failure(build: error, outputChanged: sink.changesInPlace)
        }
        context.timings.append(("write", (ContinuousClock.now - writeStart).seconds))
        return written
    }

    /// Renders `count` pages in parallel: on the threads that wait on files when each page is
    /// written as it is rendered, else on the shared pool.
    private static func renderPages<Result: Sendable>(
        _ count: Int, onFileThreads: Bool, _ render: @escaping @Sendable (Int) -> Result
    ) async -> [Result] {
        let positions = Array(0..<count)
        return onFileThreads
            ? await ParallelMap.mapWaitingOnFiles(positions, render) : await ParallelMap.map(positions, render)
    }
}
