import Foundation
import TagflowConcurrency
import TagflowMarkdown

/// Reads a site's Markdown files into posts and pages: one read per file, in parallel, with every
/// problem reported against its file and line.
struct ContentLoader: Sendable {
    let siteRoot: URL
    let config: SiteConfig
    let markdown: MarkdownRenderer
    let timeZone: TimeZone
    /// Names of the theme's templates, for checking front matter `template:` values.
    let templateNames: Set<String>
    /// Posts dated after this are scheduled.
    let now: ContentDate
    /// Where the bodies' HTML is kept until their pages are rendered (`nil`: in memory).
    var bodies: BodyStore? = nil

    /// What loading found: content, plus diagnostics for every bad file.
    struct Result: Sendable {
        var posts: [Post] = []
        var pages: [Page] = []
        var diagnostics: [Diagnostic] = []
        /// Every file, as read, sorted by path.
        var files: [LoadedFile] = []
        /// What listing the folders found wrong (a link loop, an unreadable folder).
        var listingDiagnostics: [Diagnostic]

        /// Gathers the files' posts, pages and diagnostics after the listing's own diagnostics.
        init(files: [LoadedFile], listingDiagnostics: [Diagnostic]) {
            self.files = files
            diagnostics = listingDiagnostics
            self.listingDiagnostics = listingDiagnostics
            for file in files {
                switch file.content {
                case .post(let post, let warnings):
                    posts.append(post)
                    diagnostics += warnings
                case .page(let page, let warnings):
                    pages.append(page)
                    diagnostics += warnings
                case .failed(let problems):
                    diagnostics += problems
                }
            }
        }
    }

    enum Kind: Sendable { case post, page }

    /// The site-relative folders of posts and pages.
    var folders: [(folder: String, kind: Kind)] {
        [("posts", Kind.post), ("pages", Kind.page)].map { folder, kind in (config.paths.contentFolder(folder), kind) }
    }

    /// Every Markdown file of the site's posts and pages, sorted by path within each folder.
    func listing() -> (files: [(String, Kind)], diagnostics: [Diagnostic]) {
        var files: [(String, Kind)] = []
        var diagnostics: [Diagnostic] = []
        for (folder, kind) in folders {
            let listing = SiteFiles.markdownFiles(under: folder, in: siteRoot)
            files += listing.files.map { ($0, kind) }
            diagnostics += listing.diagnostics
        }
        return (files, diagnostics)
    }

    /// Whether a site-relative path is a file the listing would give, and of which kind.
    func kind(ofContentPath path: String) -> Kind? {
        guard SiteFiles.isMarkdown(path) else { return nil }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.contains(where: { $0.isEmpty || SiteFiles.isSkipped($0) }),
            let folder = folders.first(where: { path.hasPrefix($0.folder + "/") })
        else { return nil }
        // A bundle's files are published beside its page, which only a full build copies (or
        // removes, when its index is deleted); and its other Markdown files are not posts.
        if SiteFiles.isBundleIndex(path, under: folder.folder) { return nil }
        let inBundle = SiteFiles.ancestors(of: path, below: folder.folder).contains { ancestor in
            ["index.md", "index.markdown"].contains {
                FileManager.default.fileExists(atPath: siteRoot.appendingPathComponent("\(ancestor)/\($0)").path)
            }
        }
        return inBundle ? nil : folder.kind
    }

    func load(progress: BuildProgress? = nil) async -> Result {
        let (files, diagnostics) = listing()
        progress?.setTotal(files.count)
        let root = siteRoot.path
        let readAhead = ReadAhead(paths: files.map { root + "/" + $0.0 })
        // Without it (a folder that can be listed but not opened), each file is read by its
        // whole path, and reports what fails there.
        let folder = try? OpenFolder(path: root)
        let loaded = await ParallelMap.map(files) { file, kind in
            defer { progress?.advance() }
            return self.loadFile(file, kind: kind, in: folder)
        }
        readAhead.stop()
        return Result(files: loaded, listingDiagnostics: diagnostics)
    }

    enum Loaded: Sendable {
        case post(Post, [Diagnostic])
        case page(Page, [Diagnostic])
        case failed([Diagnostic])

        var diagnostics: [Diagnostic] {
            switch self {
            case .post(_, let diagnostics), .page(_, let diagnostics), .failed(let diagnostics): diagnostics
            }
        }
    }

    /// One file as read.
    struct LoadedFile: Sendable {
        var path: String
        /// The path and the bytes: everything a file's post or page is made from, since every
        /// other input (settings, templates, plugins) is the same for all files of a build.
        var digest: Digest
        var content: Loaded
    }

    /// Reads and loads one file; `path` is site-relative, and `root`, when given, is the site
    /// folder held open.
    func loadFile(_ path: String, kind: Kind, in root: OpenFolder? = nil) -> LoadedFile {
        let data: [UInt8]
        do {
            data =
                if let root {
                    try Self.readBytes(atPath: path, in: root.descriptor, fullPath: root.path + "/" + path)
                } else {
                    try Self.readBytes(atPath: siteRoot.path + "/" + path)
                }
        } catch {
            var digest = Digest()
            digest.update(path)
            let problem = fileError(path, "cannot read file: \(Self.reason(error))")
            return LoadedFile(path: path, digest: digest, content: .failed([problem]))
        }
        // The digest `BuildInputs` makes of the file, so that a build can record its inputs from
        // what it read.
        let digest = data.withUnsafeBytes { BuildInputs.fileDigest(path, $0) }
        return LoadedFile(path: path, digest: digest, content: load(path, data: data, kind: kind))
    }

    /// The bytes of the file at `path`, read with POSIX calls.
    ///
    /// `Data(contentsOf:)` of a URL made with `appending(path:)` paid for the URL's parsing and
    /// Foundation's reading options on every file, which showed in a build. A file that grows
    /// while it is read is read to its end; one whose size is unknown (`/proc`) too.
    ///
    /// - Parameters:
    ///   - path: The file, relative to `folder` (or absolute, or relative to the working folder
    ///     for `AT_FDCWD`).
    ///   - folder: An open folder (``OpenFolder``) that `path` is in.
    ///   - fullPath: The path errors name (default: `path`).
    /// - Returns: Every byte of the file.
    /// - Throws: `CocoaError` with the POSIX error underneath (``reason(_:)`` prints it).
    static func readBytes(atPath path: String, in folder: Int32 = AT_FDCWD, fullPath: String? = nil)
        throws(CocoaError) -> [UInt8]
    {
        func failure(_ code: Int32) -> CocoaError {
            CocoaError.posix(
                code == EACCES || code == EPERM ? .fileReadNoPermission : .fileReadUnknown, code,
                path: fullPath ?? path)
        }
        let descriptor = openat(folder, path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw failure(EISDIR) }
        // One byte more than the size, so that the read that finds the end is the second; read
        // into memory that is not zeroed first.
        let capacity = max(Int(status.st_size), 0) + 1
        var readError: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            initialized = readFully(descriptor, into: buffer, error: &readError)
        }
        if readError != 0 { throw failure(readError) }
        // A full buffer: the file is longer than it said (it grew, or `stat` does not know, as for
        // `/proc`); the rest is read in growing pieces, until one is not filled.
        var filled = bytes.count == capacity
        while filled {
            let size = max(bytes.count, 4096)
            let more = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                initialized = readFully(descriptor, into: buffer, error: &readError)
            }
            if readError != 0 { throw failure(readError) }
            bytes += more
            filled = more.count == size
        }
        return bytes
    }

    /// Reads until `buffer` is full or the file ends; returns the bytes read, and sets `error`
    /// (an `errno`) when a read fails.
    private static func readFully(
        _ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>, error: inout Int32
    ) -> Int {
        var count = 0
        while count < buffer.count {
            let result = read(descriptor, buffer.baseAddress.unsafelyUnwrapped + count, buffer.count - count)
            if result < 0 {
                if errno == EINTR { continue }
                error = errno
                break
            }
            if result == 0 { break }
            count += result
        }
        return count
    }

    private func load(_ path: String, data: [UInt8], kind: Kind) -> Loaded {
        // Scanned through a raw buffer: Data's own iterator pays an exclusivity check per byte,
        // which was a measurable share of a large build.
        let (nulOffset, decoded) = data.withUnsafeBytes { bytes in
            (SourceText.firstOffset(of: 0, in: bytes), SourceText.decode(bytes))
        }
        if let offset = nulOffset {
            return .failed([
                fileError(
                    path, "not a text file (it contains NUL bytes)",
                    at: Self.position(of: offset, in: data),
                    hint: "only Markdown text files belong in this folder")
            ])
        }
        guard let text = decoded else {
            let offset = Self.firstInvalidUTF8Offset(in: data) ?? 0
            return .failed([
                fileError(
                    path, "not valid UTF-8 text (byte \(offset))", at: Self.position(of: offset, in: data),
                    hint: "save the file as UTF-8")
            ])
        }
        do {
            let split = try FrontMatterSplit(splitting: text)
            let mapping = try split.mapping()
            var reader = FrontMatterReader(
                path: path, text: text, mapping: mapping, timeZone: timeZone, templateNames: templateNames)
            reader.isBundleIndex = folders.contains { SiteFiles.isBundleIndex(path, under: $0.folder) }
            reader.tagAliases = config.tagAliases
            reader.taxonomyNames = config.taxonomies.map(\.name)
            reader.bodies = bodies
            if let problem = MarkdownLimits.problem(in: split.body, firstLine: split.bodyFirstLine) {
                return .failed([
                    fileError(path, problem.message, at: (problem.line, problem.column), hint: problem.hint)
                ])
            }
            let body = markdown.render(split.body, firstLine: split.bodyFirstLine)
            switch kind {
            case .post:
                guard var post = reader.post(body: body) else { return .failed(reader.diagnostics) }
                post.isScheduled = post.date > now
                return .post(post, reader.diagnostics)
            case .page:
                guard let page = reader.page(body: body) else { return .failed(reader.diagnostics) }
                return .page(page, reader.diagnostics)
            }
        } catch {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let sourceLine = error.line - 1 < lines.count && error.line > 0 ? String(lines[error.line - 1]) : nil
            return .failed([
                Diagnostic(
                    .error,
                    TagflowError(
                        location: SourceLocation(path: path, line: error.line, column: error.column), step: "content",
                        message: error.message, hint: error.hint, sourceLine: sourceLine, underlying: error))
            ])
        }
    }

    private func fileError(
        _ path: String, _ message: String, at position: (line: Int, column: Int)? = nil, hint: String? = nil
    ) -> Diagnostic {
        Diagnostic(
            .error,
            TagflowError(
                location: SourceLocation(path: path, line: position?.line, column: position?.column), step: "content",
                message: message, hint: hint))
    }

    /// The 1-based line and byte column of a byte offset.
    static func position(of offset: Int, in data: some Collection<UInt8>) -> (line: Int, column: Int) {
        var (line, column) = (1, 1)
        for byte in data.prefix(offset) {
            if byte == 0x0A { (line, column) = (line + 1, 1) } else { column += 1 }
        }
        return (line, column)
    }

    /// The offset of the first byte that breaks UTF-8 (bad lead or continuation byte, overlong
    /// form, surrogate, or a sequence cut short), or `nil` when the bytes are valid.
    static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, lower) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, upper) = (3, 0x9F)
            case 0xF0: (length, lower) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, upper) = (4, 0x8F)
            default: return index
            }
            for position in 1..<max(length, 1) {
                guard index + position < bytes.count else { return index }
                let byte = bytes[index + position]
                let (low, high) = position == 1 ? (lower, upper) : (0x80, 0xBF)
                if byte < low || byte > high { return index }
            }
            index += length
        }
        return nil
    }

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
