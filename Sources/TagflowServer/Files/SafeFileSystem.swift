package import Foundation
package import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file provider for Hummingbird's `FileMiddleware` that only ever hands out regular files (or folders) whose real
/// path, after every symbolic link is resolved, is inside one root folder.
///
/// ```swift
/// let files = SafeFileSystem(root: "/tmp/preview/site")
/// files.getFileIdentifier("/posts/hello/index.html")   // "/tmp/preview/site/posts/hello/index.html"
/// files.getFileIdentifier("/link-to-etc/passwd")       // nil: the link points outside
/// ```
///
/// The request path is checked first by ``RequestPath``; this is the second guard (STYLE B12.7): canonicalise, then
/// check the result is under the root. Modification times keep their nanoseconds, so the middleware's `ETag`
/// changes whenever a rebuild rewrites a file, even within one second.
package struct SafeFileSystem: FileProvider {
    /// What `FileMiddleware` needs to know about a file.
    package struct FileAttributes: Sendable, FileMiddlewareFileAttributes {
        /// Whether it is a folder.
        package let isFolder: Bool
        /// Its size in bytes.
        package let size: Int
        /// When it was last written, to the nanosecond.
        package let modificationDate: Date
    }

    /// The real path of a file.
    package typealias FileIdentifier = String

    /// The folder served.
    package let root: String
    private let fileIO: FileIO

    /// Creates a provider serving `root`.
    package init(root: String) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.fileIO = FileIO()
    }

    /// The real path of the file `path` names, or `nil` when it does not exist or is outside the root.
    package func getFileIdentifier(_ path: String) -> String? {
        guard let request = RequestPath(raw: path.hasPrefix("/") ? path : "/" + path) else { return nil }
        let relative = request.relative
        let candidate = relative.isEmpty ? root : "\(root)/\(relative)"
        guard let realRoot = Self.realPath(root), let real = Self.realPath(candidate) else { return nil }
        guard real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else {
            return nil
        }
        return real
    }

    /// The attributes of a regular file or folder; `nil` for anything else or a missing file.
    package func getAttributes(id: String) async throws -> FileAttributes? {
        Self.attributes(atPath: id)
    }

    /// The file's contents.
    package func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        try await fileIO.loadFile(path: id, context: context)
    }

    /// Part of the file's contents.
    package func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws
        -> ResponseBody
    {
        try await fileIO.loadFile(path: id, range: range, context: context)
    }

    /// Reads a whole file the provider would serve, for pages the server rewrites (`404.html`).
    package func contents(of path: String) -> Data? {
        guard let id = getFileIdentifier(path), let attributes = Self.attributes(atPath: id), !attributes.isFolder
        else { return nil }
        return FileManager.default.contents(atPath: id)
    }

    static func attributes(atPath path: String) -> FileAttributes? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFDIR else { return nil }
        let time = info.modificationTime
        return FileAttributes(
            isFolder: kind == S_IFDIR, size: Int(info.st_size),
            modificationDate: Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9))
    }

    /// The canonical path (`realpath(3)`), or `nil` when the file does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
