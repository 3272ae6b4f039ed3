import Foundation
import TagflowConcurrency

/// Where a ``RenderPass`` puts the pages it renders: memory (`tagflow check`), a staging folder
/// swapped in at the end (a full build), or the output folder itself, file by file (the cached
/// build and `tagflow serve`).
protocol PageSink: Sendable {
    /// What ``take(_:)`` keeps of a page for ``finish(pages:assets:gone:staticFiles:)``: the
    /// file, or nothing (`Void`) for a sink that wrote it.
    associatedtype Kept: Sendable

    /// Whether ``take(_:)`` writes files: the pass then renders on the threads that wait on
    /// files (``ParallelMap/mapWaitingOnFiles(_:threadCount:startThread:_:)``).
    var writesAsItTakes: Bool { get }
    /// Whether ``finish(pages:assets:gone:staticFiles:)`` changes the output folder file by file:
    /// if it fails, the folder is then part old, part new.
    var changesInPlace: Bool { get }

    /// Takes one rendered page; called from many threads at once.
    ///
    /// - Parameter file: The page.
    /// - Returns: What the sink keeps of the page, and the failure when it could not be written.
    func take(_ file: OutputFile) -> (kept: Kept, failure: BuildFailure?)

    /// Called when every page is rendered without errors: writes what is left.
    ///
    /// - Parameters:
    ///   - pages: What ``take(_:)`` kept, in the pass's order.
    ///   - assets: The theme's and plugins' files that no static file replaces.
    ///   - gone: The files of pages the site no longer has.
    ///   - staticFiles: The static files and page bundles' files, each source with its output
    ///     path.
    /// - Returns: The files kept in memory, and how many files were written in place (`nil` for
    ///   a new folder).
    /// - Throws: ``BuildFailure`` when a file cannot be written.
    func finish(
        pages: [Kept], assets: [OutputFile], gone: Set<String>, staticFiles: [(source: URL, path: String)]
    )
        async throws(BuildFailure) -> (files: [OutputFile], rewritten: Int?)

    /// Called instead of ``finish(pages:assets:gone:staticFiles:)`` when the pass fails: leaves the
    /// output as it was.
    func abandon() async
}

/// Keeps every page and asset in memory, sorted by path: `tagflow check`, and tests.
struct MemorySink: PageSink {
    var writesAsItTakes: Bool { false }
    var changesInPlace: Bool { false }

    func take(_ file: OutputFile) -> (kept: OutputFile, failure: BuildFailure?) { (file, nil) }

    func finish(
        pages: [OutputFile], assets: [OutputFile], gone: Set<String>, staticFiles: [(source: URL, path: String)]
    )
        async throws(BuildFailure) -> (files: [OutputFile], rewritten: Int?)
    {
        ((pages + assets).sorted { $0.path < $1.path }, nil)
    }

    func abandon() async {}
}

/// Writes every page, as it is rendered, into a staging folder beside the output: a full build.
///
/// The folder is swapped in when the pass succeeds. A failed build leaves the previous output as
/// it was.
struct StagingSink: PageSink {
    let writer: OutputWriter
    /// Recorded in the output's marker (``BuildCache``).
    let inputs: String?
    private let staging: OutputWriter.StagingFolder

    var writesAsItTakes: Bool { true }
    var changesInPlace: Bool { false }

    /// Makes the staging folder.
    ///
    /// - Parameters:
    ///   - writer: The output.
    ///   - inputs: The digest to record in the output's marker.
    /// - Throws: ``BuildFailure`` when the staging folder cannot be made.
    init(writer: OutputWriter, inputs: String?) throws(BuildFailure) {
        self.writer = writer
        self.inputs = inputs
        staging = try writer.beginStaging()
    }

    func take(_ file: OutputFile) -> (kept: Void, failure: BuildFailure?) {
        let failure = OutputWriter.writeFile(file, into: staging)
        return ((), failure.map { OutputWriter.writeFailure(file.path, $0, in: writer.target) })
    }

    func finish(
        pages: [Void], assets: [OutputFile], gone: Set<String>, staticFiles: [(source: URL, path: String)]
    )
        async throws(BuildFailure) -> (files: [OutputFile], rewritten: Int?)
    {
        for asset in assets {
            if let failure = OutputWriter.writeFile(asset, into: staging) {
                OutputWriter.removeTree(staging.url)
                throw OutputWriter.writeFailure(asset.path, failure, in: writer.target)
            }
        }
        try writer.finish(staging, staticFiles: staticFiles, inputs: inputs)
        return ([], nil)
    }

    func abandon() async {
        OutputWriter.removeTree(staging.url)
    }
}

/// Replaces the changed files of a finished output folder: the cached build and `tagflow serve`.
///
/// Each file is replaced atomically, once every page is rendered. A failed render leaves the
/// folder as it was.
struct InPlaceSink: PageSink {
    let writer: OutputWriter
    /// The digest the folder's marker records once it is up to date.
    ///
    /// While files are replaced it records none, so a build stopped half-way is never taken for a
    /// finished one. `nil`: the marker is left alone (`tagflow serve`'s folder records no inputs).
    let inputs: String?

    var writesAsItTakes: Bool { false }
    var changesInPlace: Bool { true }

    func take(_ file: OutputFile) -> (kept: OutputFile, failure: BuildFailure?) { (file, nil) }

    func finish(
        pages: [OutputFile], assets: [OutputFile], gone: Set<String>, staticFiles: [(source: URL, path: String)]
    )
        async throws(BuildFailure) -> (files: [OutputFile], rewritten: Int?)
    {
        let target = writer.target
        // Assets depend only on what a change here cannot touch, but are few: rewrite any that
        // differ.
        let changedAssets = assets.filter { asset in
            FileManager.default.contents(atPath: target.path + "/" + asset.path).map { [UInt8]($0) } != asset.contents
        }
        if inputs != nil {
            writer.removeLeftovers()
            try writer.forgetInputs()
        }
        let files = pages + changedAssets
        let failures = await ParallelMap.mapWaitingOnFiles(files) { file in
            OutputWriter.replaceFile(file, in: target).map { (file.path, $0) }
        }
        for path in gone.sorted() { OutputWriter.removeFile(path, in: target) }
        if let (path, failure) = failures.lazy.compactMap({ $0 }).first {
            throw OutputWriter.writeFailure(path, failure, in: target)
        }
        if let inputs { try writer.recordInputs(inputs) }
        return ([], files.count)
    }

    func abandon() async {}
}
