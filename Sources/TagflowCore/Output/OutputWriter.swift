internal import CTagflowSupport
import Foundation
import TagflowConcurrency

#if canImport(Glibc)
    import Glibc
    private let posixWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let posixWrite = Darwin.write
#endif

/// Writes a built site so that readers only ever see a whole old site or a whole new one.
///
/// Everything goes into a hidden folder beside the target (`.NAME.tagflow-tmp-PID`), which is
/// swapped with the target in one atomic exchange (Linux `renameat2`, macOS `renamex_np`, two
/// renames elsewhere) once every file is written. A failed or killed build leaves the previous
/// output as it was; leftovers of a killed build are removed by the next one.
///
/// A folder Tagflow writes carries a marker file, and Tagflow refuses to replace a non-empty
/// folder without one, so `--output ~` cannot wipe a home folder.
struct OutputWriter: Sendable {
    /// The marker file in every output folder.
    static let markerName = ".tagflow-output"
    static let markerText = "This folder is written by Tagflow. `tagflow build` replaces it as a whole.\n"

    static let inputsPrefix = "inputs: "

    let target: URL

    /// Whether the output folder is a mount point (a Docker volume, a bind mount), which cannot be
    /// renamed: the build then stages inside it and moves the entries (see ``swapIn(_:)``).
    let isMountPoint: Bool

    /// - Parameters:
    ///   - target: The output folder. When it is a symbolic link (`_site` → a web server's
    ///     folder), the folder it leads to is the one written and swapped, and the link stays:
    ///     swapping the link itself would put a folder where the link was and leave the linked
    ///     folder as it was.
    ///   - isMountPoint: Whether to treat the folder as a mount point; found out when `nil`.
    init(target: URL, isMountPoint: Bool? = nil) {
        self.target = Self.followingLinks(target.standardizedFileURL)
        self.isMountPoint = isMountPoint ?? Self.isMountPoint(self.target)
    }

    /// Whether `url` is a folder on another file system than its parent, or a folder the mount
    /// table lists (a bind mount on the same file system).
    static func isMountPoint(_ url: URL) -> Bool {
        var folder = stat()
        var parent = stat()
        guard stat(url.path, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR,
            stat(url.deletingLastPathComponent().path, &parent) == 0
        else { return false }
        if folder.st_dev != parent.st_dev { return true }
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        let path = url.resolvingSymlinksInPath().path
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && fields[4].replacingOccurrences(of: "\\040", with: " ") == path
        }
    }

    /// The folder a path leads to when its last part is a symbolic link (through a chain of
    /// them, at most 40 as the kernel allows); the path itself otherwise.
    static func followingLinks(_ url: URL) -> URL {
        var current = url
        for _ in 0..<40 {
            // Throws for anything but a link (a folder, a missing path).
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)
            else { return current }
            current =
                destination.hasPrefix("/")
                ? URL(fileURLWithPath: destination).standardizedFileURL
                : current.deletingLastPathComponent().appendingPathComponent(destination).standardizedFileURL
        }
        return current
    }

    private var parent: URL { target.deletingLastPathComponent() }
    /// Where staging and retired folders go: beside the output, or inside it when it is a mount point.
    private var stagingParent: URL { isMountPoint ? target : parent }
    private var name: String { target.lastPathComponent }
    private var temporaryPrefix: String { ".\(name).tagflow-tmp-" }
    private var retiredPrefix: String { ".\(name).tagflow-old-" }

    /// Refuses targets that would destroy the site or someone's files.
    ///
    /// - Parameters:
    ///   - siteRoot: The site folder.
    ///   - sourceFolders: Site-relative folders the build reads (content, templates, static files);
    ///     an output inside one would be read back, and copied into itself, by the next build.
    /// - Throws: ``BuildFailure`` naming the output folder and why it is refused.
    func validate(siteRoot: URL, sourceFolders: [String] = []) throws(BuildFailure) {
        let site = siteRoot.standardizedFileURL.resolvingSymlinksInPath().path
        let output = target.resolvingSymlinksInPath().path
        func refuse(_ message: String, hint: String) -> BuildFailure {
            BuildFailure(diagnostics: [
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: target.path), step: "output", message: message, hint: hint))
            ])
        }
        if output == "/" || output == FileManager.default.homeDirectoryForCurrentUser.standardizedFileURL.path {
            throw refuse(
                "refusing to write the site over \(output)", hint: "choose an empty or new folder, such as _site")
        }
        if output == site {
            throw refuse(
                "the output folder is the site folder itself", hint: "write to a folder inside it, such as _site")
        }
        if site.hasPrefix(output + "/") {
            throw refuse(
                "the output folder contains the site folder, so replacing it would delete your posts",
                hint: "write to a folder inside the site, such as _site")
        }
        for folder in sourceFolders {
            let source = siteRoot.appendingPathComponent(folder).standardizedFileURL.resolvingSymlinksInPath().path
            if source != site, output == source || output.hasPrefix(source + "/") {
                throw refuse(
                    "the output folder is inside '\(folder)', which the build reads",
                    hint: "write to a folder the build does not read, such as _site")
            }
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw refuse("the output path exists and is not a folder", hint: "remove it or choose another --output")
            }
            // Tagflow's own lock file is there during a build; a mount point may hold `lost+found`.
            let contents = ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).filter {
                $0 != ".\(name).tagflow-lock" && !(isMountPoint && $0 == "lost+found")
            }
            // A mount point's own staging or retired folder shows a build stopped half-way.
            let isTagflows =
                contents.contains(Self.markerName)
                || contents.contains { $0.hasPrefix(temporaryPrefix) || $0.hasPrefix(retiredPrefix) }
            if !contents.isEmpty && !isTagflows {
                throw refuse(
                    "the output folder is not empty and was not written by Tagflow; refusing to replace it",
                    hint:
                        "choose a new folder, or empty this one if you are sure (Tagflow looks for \(Self.markerName))")
            }
        }
    }

    /// Writes `files` plus the site's static files, then swaps the result in.
    ///
    /// - Parameters:
    ///   - files: The generated files.
    ///   - staticFiles: Pairs of a source file and its path in the output.
    ///   - inputs: The digest of the build's inputs, recorded in the marker file for ``BuildCache``.
    ///   - progress: Counts the files written.
    /// - Throws: ``BuildFailure`` when a file cannot be written; the target is then untouched.
    func write(
        _ files: [OutputFile], staticFiles: [(source: URL, path: String)], inputs: String? = nil,
        progress: BuildProgress? = nil
    ) async throws(BuildFailure) {
        let staging = try beginStaging()
        let failures = await ParallelMap.mapWaitingOnFiles(files) { file in
            defer { progress?.advance() }
            return Self.writeFile(file, into: staging)
        }
        if let error = failures.compactMap({ $0 }).first {
            Self.removeTree(staging.url)
            throw failure(error)
        }
        try finish(staging, staticFiles: staticFiles, inputs: inputs)
    }

    /// Starts a build's output: removes leftovers of killed builds and makes an empty staging
    /// folder, for ``writeFile(_:into:)`` from many tasks and then ``finish(_:staticFiles:inputs:)``.
    func beginStaging() throws(BuildFailure) -> StagingFolder {
        removeLeftovers()
        let staging = stagingParent.appendingPathComponent("\(temporaryPrefix)\(getpid())")
        Self.removeTree(staging)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw failure(error)
        }
        do {
            return StagingFolder(url: staging, folder: try OpenFolder(path: staging.path))
        } catch {
            Self.removeTree(staging)
            throw failure(error)
        }
    }

    /// A build's staging folder, held open: its files and folders are made relative to it
    /// (``OpenFolder``).
    struct StagingFolder: Sendable {
        /// Where it is.
        let url: URL
        /// The open folder.
        let folder: OpenFolder

        var descriptor: Int32 { folder.descriptor }
    }

    /// Writes one file into a staging folder, making its folders as needed (safe from many tasks).
    ///
    /// - Parameters:
    ///   - file: The file, at its path in the site.
    ///   - staging: The staging folder.
    /// - Returns: The error, naming the whole path, or `nil` when the file is written.
    static func writeFile(_ file: OutputFile, into staging: StagingFolder) -> CocoaError? {
        // A page at `…/NAME/index.html` is nearly always the first file of its folder in a new
        // staging folder: its folder is made first, rather than after an `open` that fails (one
        // failed lookup per page, 15 000 in a 10 000-post build).
        let isFolderIndex = file.path.hasSuffix("/index.html")
        let failure = file.withBytes { bytes in
            writeMakingFolders(file.path, in: staging.descriptor, bytes, folderIsLikelyNew: isFolderIndex)
        }
        // The error names the whole path, as the user knows it.
        return failure.map { error in
            CocoaError(
                error.code,
                userInfo: error.userInfo.merging([NSFilePathErrorKey: staging.url.path + "/" + file.path]) { $1 })
        }
    }

    /// Replaces one file of a finished output folder in place: written beside it, then renamed
    /// over it, so a reader (the preview server) sees the old file or the new one, never half.
    static func replaceFile(_ file: OutputFile, in folder: URL) -> CocoaError? {
        file.withBytes { replaceFile(at: folder.path + "/" + file.path, with: $0) }
    }

    /// Writes `bytes` beside `path` and renames them over it, making its folders as needed.
    ///
    /// Not synced to the disk: like the pages of the site, these files are made again by the
    /// next build if a crash loses them, and an `fsync` makes ext4 commit its journal, with
    /// every file the build created in it (Foundation's `Data.write(to:)` syncs each file).
    static func replaceFile(at path: String, with bytes: UnsafeRawBufferPointer) -> CocoaError? {
        let temporary = temporaryPath(beside: path)
        if let failure = writeMakingFolders(temporary, bytes) {
            unlink(temporary)
            return failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = CocoaError.posix(.fileWriteUnknown, errno, path: path)
            unlink(temporary)
            return failure
        }
        return nil
    }

    /// Where a file is written before it is renamed over `path`: beside it, hidden.
    static func temporaryPath(beside path: String) -> String {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        return String(path[..<slash]) + "/.tagflow-new-" + path[path.index(after: slash)...]
    }

    /// ``replaceFile(at:with:)`` for bytes in an array.
    static func replaceFile(at path: String, with bytes: [UInt8]) -> CocoaError? {
        bytes.withUnsafeBytes { replaceFile(at: path, with: $0) }
    }

    /// Writes a file, making its folders as needed; `path` is relative to the open folder
    /// `folder` (or to the working directory for `AT_FDCWD`, or absolute).
    private static func writeMakingFolders(
        _ path: String, in folder: Int32 = AT_FDCWD, _ bytes: UnsafeRawBufferPointer, folderIsLikelyNew: Bool = false
    )
        -> CocoaError?
    {
        if folderIsLikelyNew, let parent = Self.folder(of: path) {
            makeFolders(parent, in: folder)
            return writeFile(path, in: folder, bytes)
        }
        // Otherwise the folder most likely exists (the first page of its kind made it); it is
        // made only when a write fails. (A file at the top of `folder` has no folder to make: its
        // failure stands.)
        guard let failure = writeFile(path, in: folder, bytes) else { return nil }
        guard let parent = Self.folder(of: path) else { return failure }
        makeFolders(parent, in: folder)
        return writeFile(path, in: folder, bytes)
    }

    /// Removes one file of a finished output folder, and the folders it leaves empty.
    static func removeFile(_ path: String, in folder: URL) {
        var current = folder.path + "/" + path
        guard unlink(current) == 0 else { return }
        while let slash = current.lastIndex(of: "/"), current.count > folder.path.count + 1 {
            current = String(current[..<slash])
            guard current.count > folder.path.count, rmdir(current) == 0 else { return }
        }
    }

    /// The folder of a file of the site (`posts/hello` for `posts/hello/index.html`), `nil` for a
    /// file at the top.
    static func folder(of path: String) -> String? {
        path.lastIndex(of: "/").map { String(path[..<$0]) }
    }

    /// `mkdir -p`, tolerating other tasks making the same folders at the same time; `path` is
    /// relative to the open folder `folder` (as in ``writeMakingFolders(_:in:_:folderIsLikelyNew:)``).
    static func makeFolders(_ path: String, in folder: Int32 = AT_FDCWD) {
        if mkdirat(folder, path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = path.lastIndex(of: "/") else { return }
        makeFolders(String(path[..<slash]), in: folder)
        _ = mkdirat(folder, path, 0o755)
    }

    /// Copies the static files and the marker into a staging folder filled by ``writeFile(_:into:)``,
    /// then swaps it in; on failure the staging folder is removed and the target is untouched.
    func finish(_ folder: StagingFolder, staticFiles: [(source: URL, path: String)], inputs: String?)
        throws(BuildFailure)
    {
        let staging = folder.url
        let manager = FileManager.default
        do {
            for item in staticFiles {
                let destination = staging.appendingPathComponent(item.path)
                try? manager.removeItem(at: destination)
                Self.makeFolders(destination.deletingLastPathComponent().path)
                try manager.copyItem(at: item.source.resolvingSymlinksInPath(), to: destination)
            }
            let marker = Self.markerText + (inputs.map { "\(Self.inputsPrefix)\($0)\n" } ?? "")
            if let failure = Self.writeFile(staging.path + "/" + Self.markerName, Array(marker.utf8)) {
                throw failure
            }
            try swapIn(staging)
        } catch {
            Self.removeTree(staging)
            throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> BuildFailure {
        // Name the file the error is about, when it names one: "error 512" alone says nothing.
        let path = (error as NSError).userInfo[NSFilePathErrorKey] as? String
        return Self.outputFailure(
            "could not write the site\(path.map { " (\($0))" } ?? ""): \(ContentLoader.reason(error))",
            underlying: error, in: target)
    }

    /// A failure to write into `folder`, as the build's one error.
    private static func outputFailure(_ message: String, underlying: any Error, in folder: URL) -> BuildFailure {
        BuildFailure(diagnostics: [
            Diagnostic(
                .error,
                TagflowError(
                    location: SourceLocation(path: folder.path), step: "output", message: message,
                    underlying: underlying))
        ])
    }

    /// Writes one file with POSIX calls; returns the error instead of throwing, so it can run in a task.
    ///
    /// The error carries the POSIX reason (`ENOSPC`…), read before anything else can change `errno`.
    static func writeFile(_ path: String, _ bytes: [UInt8]) -> CocoaError? {
        bytes.withUnsafeBytes { writeFile(path, $0) }
    }

    /// Writes bytes in place, as the variant that takes an array does; `path` is relative to the
    /// open folder `folder` (as in ``writeMakingFolders(_:in:_:folderIsLikelyNew:)``).
    static func writeFile(_ path: String, in folder: Int32 = AT_FDCWD, _ bytes: UnsafeRawBufferPointer) -> CocoaError? {
        // Read before anything else can change `errno`.
        func failure() -> CocoaError { CocoaError.posix(.fileWriteUnknown, errno, path: path) }
        let descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return failure() }
        defer { close(descriptor) }
        return writeAll(bytes, to: descriptor) ? nil : failure()
    }

    /// Writes all of `bytes` to an open file, again after an interrupted write; false when a
    /// write fails (`errno` says why).
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = posixWrite(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += result
        }
        return true
    }

    private func swapIn(_ staging: URL) throws {
        let manager = FileManager.default
        if isMountPoint {
            try replaceEntries(with: staging)
            return
        }
        guard manager.fileExists(atPath: target.path) else {
            try manager.moveItem(at: staging, to: target)
            return
        }
        if tagflow_exchange_paths(staging.path, target.path) == 0 {
            // `staging` now holds the previous site.
            Self.removeTree(staging)
            return
        }
        // No atomic exchange here: retire the old folder, move the new one in. A kill between the
        // two renames is repaired by `removeLeftovers` on the next build.
        let retired = parent.appendingPathComponent("\(retiredPrefix)\(getpid())")
        try? manager.removeItem(at: retired)
        try manager.moveItem(at: target, to: retired)
        try manager.moveItem(at: staging, to: target)
        Self.removeTree(retired)
    }

    /// Replaces what a mount point holds with what `staging` (inside it) holds, entry by entry.
    ///
    /// The old entries go into a retired folder, then the new ones are moved in, each by one
    /// rename. A visitor may see old and new pages side by side for those moments, but never a
    /// half-written file; a build stopped between the renames is repaired by the next one.
    ///
    /// The marker goes in last, so a folder with a marker holds a whole site. If a rename fails,
    /// the old entries are put back; a build killed half-way is undone by the next one
    /// (``removeLeftovers()``), which puts the old site back before it starts.
    private func replaceEntries(with staging: URL) throws {
        let manager = FileManager.default
        let retired = target.appendingPathComponent("\(retiredPrefix)\(getpid())")
        Self.removeTree(retired)
        try manager.createDirectory(at: retired, withIntermediateDirectories: false)
        do {
            for name in try ownEntries(of: target) { try Self.move(name, from: target, to: retired) }
            let new = try manager.contentsOfDirectory(atPath: staging.path).sorted()
            for name in new where name != Self.markerName { try Self.move(name, from: staging, to: target) }
            if new.contains(Self.markerName) { try Self.move(Self.markerName, from: staging, to: target) }
        } catch {
            restore(from: retired, setAsideInto: staging)
            throw error
        }
        Self.removeTree(retired)
        Self.removeTree(staging)
    }

    /// The entries of a mount point that are the site's: not Tagflow's own staging, retired and
    /// lock entries, nor the file system's `lost+found`.
    private func ownEntries(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter {
            !$0.hasPrefix(".\(name).tagflow-") && $0 != "lost+found"
        }
    }

    /// Puts a mount point's retired entries back: what is there now (a new site's first entries)
    /// goes into `setAside`, to be removed with it.
    private func restore(from retired: URL, setAsideInto setAside: URL) {
        try? FileManager.default.createDirectory(at: setAside, withIntermediateDirectories: true)
        for name in (try? ownEntries(of: target)) ?? [] { try? Self.move(name, from: target, to: setAside) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: retired.path)) ?? [] {
            try? Self.move(name, from: retired, to: target)
        }
        Self.removeTree(retired)
    }

    private static func move(_ name: String, from source: URL, to destination: URL) throws {
        let from = source.appendingPathComponent(name).path
        let to = destination.appendingPathComponent(name).path
        guard rename(from, to) == 0 else { throw CocoaError.posix(.fileWriteUnknown, errno, path: to) }
    }

    /// The build failure for a page or asset that could not be written into `folder`.
    static func writeFailure(_ path: String, _ failure: CocoaError, in folder: URL) -> BuildFailure {
        outputFailure("could not write \(path): \(ContentLoader.reason(failure))", underlying: failure, in: folder)
    }

    /// Marks the finished output folder as the output of `inputs` (after it was updated in place).
    func recordInputs(_ inputs: String) throws(BuildFailure) {
        let marker = Self.markerText + "\(Self.inputsPrefix)\(inputs)\n"
        if let error = Self.replaceFile(at: target.path + "/" + Self.markerName, with: Array(marker.utf8)) {
            throw failure(error)
        }
    }

    /// Forgets which inputs the output folder was built from, before it is changed in place.
    ///
    /// If the update stops half-way, the next build cannot take the folder for a finished one.
    func forgetInputs() throws(BuildFailure) {
        if let error = Self.replaceFile(at: target.path + "/" + Self.markerName, with: Array(Self.markerText.utf8)) {
            throw failure(error)
        }
    }

    /// The inputs digest the marker of the current output records, if any.
    func recordedInputs() -> String? {
        guard let data = FileManager.default.contents(atPath: target.appendingPathComponent(Self.markerName).path)
        else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return lines.first { $0.hasPrefix(Self.inputsPrefix) }.map { String($0.dropFirst(Self.inputsPrefix.count)) }
    }

    /// Removes a folder tree quickly (FileManager.removeItem takes seconds for a large site), on
    /// every core.
    ///
    /// A full build over an earlier output ends by deleting that output. On ext4, one thread
    /// deleting a large site took longer than the build itself; the kernel does that work on as
    /// many cores as there are threads asking.
    static func removeTree(_ url: URL) {
        if tagflow_remove_tree_in_parallel(url.path, Int32(ParallelMap.coreCount)) != 0 {
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Removes staging folders of builds that are no longer running, and puts back a previous
    /// output that a killed build had moved aside.
    func removeLeftovers() {
        let manager = FileManager.default
        let parent = stagingParent
        guard let names = try? manager.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names.sorted() where name.hasPrefix(temporaryPrefix) || name.hasPrefix(retiredPrefix) {
            let pidText =
                name.hasPrefix(temporaryPrefix)
                ? name.dropFirst(temporaryPrefix.count) : name.dropFirst(retiredPrefix.count)
            // A build still running (EPERM: it runs, as another user) keeps its folders.
            if let pid = Int32(pidText), pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
            let url = parent.appendingPathComponent(name)
            if !isMountPoint, name.hasPrefix(retiredPrefix), !manager.fileExists(atPath: target.path) {
                try? manager.moveItem(at: url, to: target)
            } else if isMountPoint, name.hasPrefix(retiredPrefix),
                !manager.fileExists(atPath: target.appendingPathComponent(Self.markerName).path)
            {
                // Killed between taking the old site out and putting the whole new one in.
                restore(from: url, setAsideInto: parent.appendingPathComponent("\(temporaryPrefix)\(getpid())-aside"))
                Self.removeTree(parent.appendingPathComponent("\(temporaryPrefix)\(getpid())-aside"))
            } else {
                Self.removeTree(url)
            }
        }
    }
}

extension CocoaError {
    /// The error of a POSIX call on `path` that failed with `code` (an `errno`), which
    /// ``ContentLoader/reason(_:)`` prints as the system's message (`Permission denied`).
    static func posix(_ kind: CocoaError.Code, _ code: Int32, path: String) -> CocoaError {
        CocoaError(
            kind,
            userInfo: [
                NSFilePathErrorKey: path, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
            ])
    }
}
