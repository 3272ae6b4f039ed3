import Foundation
import TagflowConcurrency

/// The digest of everything a build reads, for ``BuildCache``.
enum BuildInputs {
    /// Digests the site's settings, templates, content and static files, with the build's options
    /// and plugins. (Not the output folder: the digest is recorded in the output, which must be the
    /// same bytes wherever it is written; ``BuildCache`` checks the folder separately.)
    ///
    /// Content, templates and `site.yml` are digested by their bytes (read in parallel), so a file
    /// touched but not changed, or restored by a CI cache, still matches. Static files, which can
    /// be large and are copied rather than read, count by path, size and modification time.
    ///
    /// - Parameters:
    ///   - siteRoot: The site folder.
    ///   - config: The site's settings.
    ///   - options: The build's options.
    ///   - plugins: The names of the build's plugins, in order.
    ///   - known: The digests of the posts' and pages' files (path and bytes, as
    ///     ``ContentLoader`` makes them) in the listing's order, when the build has read them:
    ///     those files are then neither listed nor read again, and the digest is of the bytes the
    ///     build used.
    /// - Returns: The digest of everything (`all`), and of everything but the Markdown of posts
    ///   and pages (`frame`: a build whose frame is unchanged can reuse the pages whose own inputs
    ///   are unchanged); `nil` when a folder could not be listed cleanly (a link loop, an
    ///   unreadable folder): such a build must run in full to report it.
    static func digest(
        siteRoot: URL, config: SiteConfig, options: BuildOptions, plugins: [String],
        content known: [(path: String, digest: Digest)]? = nil
    ) async -> (all: Digest, frame: Digest)? {
        var digest = Digest()
        digest.update(UInt64(BuildCache.formatVersion))
        digest.update(TagflowVersion.current)
        digest.update(options.includeDrafts ? "drafts" : "published")
        digest.update(options.includeFuture ? "future" : "due")
        digest.update(options.baseURL ?? "")
        digest.update(plugins.joined(separator: "\n"))
        // Opened once, and each file looked up from it: a URL made for every path, and
        // Foundation's reading of it, cost more than reading the files.
        guard let root = try? OpenFolder(path: siteRoot.path) else { return nil }
        digest.update(contents(of: "site.yml", in: root) ?? [0xFF])

        let paths = config.paths
        var content: [String] = []
        // Files beside the Markdown: a page bundle's photos, published beside its page.
        var contentOthers: [String] = []
        for folder in ["posts", "pages"] {
            let listing = SiteFiles.contentFiles(
                under: paths.contentFolder(folder), in: siteRoot)
            guard listing.diagnostics.isEmpty else { return nil }
            if known == nil { content += listing.markdown }
            contentOthers += listing.others
        }
        let templates = SiteFiles.allFiles(under: paths.templates, in: siteRoot)
        let statics = SiteFiles.allFiles(under: paths.static, in: siteRoot)
        guard templates.diagnostics.isEmpty, statics.diagnostics.isEmpty else { return nil }
        let read = content + templates.files

        let readDigests = await ParallelMap.map(read) { path -> Digest? in
            contents(of: path, in: root)?.withUnsafeBytes { fileDigest(path, $0) }
        }
        // The same order either way: posts, pages, templates.
        let contentCount = known?.count ?? content.count
        let fileDigests = (known?.map { Optional($0.digest) } ?? []) + readDigests
        var frame = digest
        let contentPaths = known?.map(\.path) ?? content
        let contentFolders = ["posts", "pages"].map(paths.contentFolder)
        for (index, file) in fileDigests.enumerated() {
            guard let file else { return nil }
            digest.update(file)
            // A bundle's index says where its files are published: an edit to it is a full build.
            if index >= contentCount
                || contentFolders.contains(where: { SiteFiles.isBundleIndex(contentPaths[index], under: $0) })
            {
                frame.update(file)
            }
        }
        for path in statics.files + contentOthers + (config.chips.font.isEmpty ? [] : [config.chips.font]) {
            guard let stamp = stamp(of: path, in: root) else { return nil }
            digest.update(path)
            digest.update(stamp.size)
            digest.update(stamp.modified)
            frame.update(path)
            frame.update(stamp.size)
            frame.update(stamp.modified)
        }
        return (digest, frame)
    }

    /// A file's digest: its path and bytes (``ContentLoader/loadFile(_:kind:)`` makes it too).
    static func fileDigest(_ path: String, _ bytes: UnsafeRawBufferPointer) -> Digest {
        var file = Digest()
        file.update(path)
        file.update(bytes)
        return file
    }

    /// The bytes of a site-relative file; `nil` when it cannot be read.
    private static func contents(of path: String, in root: OpenFolder) -> [UInt8]? {
        try? ContentLoader.readBytes(atPath: path, in: root.descriptor)
    }

    /// A site-relative file's size and modification time in nanoseconds.
    private static func stamp(of path: String, in root: OpenFolder) -> (size: UInt64, modified: UInt64)? {
        var info = stat()
        guard fstatat(root.descriptor, path, &info, 0) == 0 else { return nil }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        return (UInt64(info.st_size), UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec))
    }
}
