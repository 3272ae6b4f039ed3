import Foundation

/// The record of the last successful build of a site, in `SITE/.tagflow-cache/`, so that a build
/// whose inputs have not changed can stop at once.
///
/// The record is keyed by a ``Digest`` of everything a build reads (see ``BuildInputs``) and by the
/// Tagflow version and cache format: a cache written by another version is ignored. The same
/// digest is written into the output folder's marker file, so an output folder that another build
/// (or a person) replaced is never mistaken for an up-to-date one. The folder is safe to delete at
/// any time; the next build is then a full one.
struct BuildCache: Sendable {
    static let folderName = ".tagflow-cache"
    /// Bumped whenever what a build writes for the same inputs changes in a way the version does
    /// not, or ``Digest`` makes its digests another way, or what the pages' inputs stand for
    /// changes (3: four lanes for long inputs; 4: the pages' inputs; 5: a post's tags apart from
    /// its summary).
    static let formatVersion = 5

    /// What the last successful build read and wrote.
    struct Manifest: Codable, Equatable, Sendable {
        var format: Int
        var tagflow: String
        var inputs: String
        /// The digest of the inputs but the Markdown of posts and pages (``BuildInputs``).
        var frame: String
        var output: String
        var pages: Int
        var files: Int
        var bytes: Int
        var posts: Int
        var tags: Int
        /// The build's warnings, shown again by a build that stops early.
        var warnings: [Warning]
        /// The drafts and scheduled posts it left out, told again by a build that stops early.
        var drafts: Int?
        var scheduled: Int?
        /// When the earliest scheduled post falls due (seconds since 1970): the record holds
        /// until then.
        var scheduledUntil: Int64?
    }

    /// A warning as text fields (the underlying error is not kept).
    struct Warning: Codable, Equatable, Sendable {
        var path: String?
        var line: Int?
        var column: Int?
        var step: String
        var message: String
        var hint: String?
        var sourceLine: String?

        init(_ diagnostic: Diagnostic) {
            let error = diagnostic.error
            path = error.location?.path
            line = error.location?.line
            column = error.location?.column
            step = error.step
            message = error.message
            hint = error.hint
            sourceLine = error.sourceLine
        }

        var diagnostic: Diagnostic {
            Diagnostic(
                .warning,
                TagflowError(
                    location: path.map { SourceLocation(path: $0, line: line, column: column) }, step: step,
                    message: message, hint: hint, sourceLine: sourceLine))
        }
    }

    let folder: URL

    init(siteRoot: URL) {
        folder = siteRoot.appendingPathComponent(Self.folderName)
    }

    private var manifestURL: URL { folder.appendingPathComponent("manifest.json") }
    private var pagesURL: URL { folder.appendingPathComponent("pages.tsv") }

    /// The pages of the last build, and what named the posts, tags and the rest in their inputs.
    struct Pages: Sendable {
        /// Each page's output path and record, in the order they were planned.
        var pages: [(path: String, record: PageRecord)]
        var identities: SiteIdentities
    }

    /// The pages of the last build, when the manifest is also readable; a build reuses the pages
    /// whose inputs have the same values.
    ///
    /// One file: first the identities the inputs name, one `kind<TAB>name` line each in order
    /// (`taxonomies<TAB>count` first), then a `pages` line, then one
    /// `key<TAB>bytes<TAB>path<TAB>inputs` line per page (``PageInput/encode(_:into:)``). One
    /// file, so that the pages are never read with another build's identities.
    func readPages() -> Pages? {
        guard read() != nil, let data = FileManager.default.contents(atPath: pagesURL.path) else { return nil }
        // Read byte by byte: split into lines and fields as strings, the record of a large site
        // took longer to read than the pages an edit renders.
        return data.withUnsafeBytes { bytes -> Pages? in
            var reader = RecordReader(bytes: bytes)
            guard let identities = Self.readIdentities(&reader) else { return nil }
            var pages: [(path: String, record: PageRecord)] = []
            while !reader.isAtEnd {
                guard let key = reader.field(endingWith: 9).flatMap(DigestValue.init(bytes:)),
                    let bytes = reader.field(endingWith: 9).flatMap(RecordReader.number),
                    let path = reader.field(endingWith: 9), !path.isEmpty,
                    let inputs = reader.field(endingWith: 10).flatMap(PageInput.decoded)
                else { return nil }
                pages.append(
                    (String(decoding: path, as: UTF8.self), PageRecord(inputs: inputs, key: key, bytes: bytes)))
            }
            return pages.isEmpty ? nil : Pages(pages: pages, identities: identities)
        }
    }

    /// Reads the identities, up to the `pages` line.
    private static func readIdentities(_ reader: inout RecordReader) -> SiteIdentities? {
        var identities = SiteIdentities(posts: [], pages: [], tags: [], series: [], terms: [])
        var taxonomies: Int?
        while let line = reader.field(endingWith: 10) {
            var fields = RecordReader(bytes: line)
            guard let kind = fields.field(endingWith: 9).map({ String(decoding: $0, as: UTF8.self) }) else {
                return String(decoding: line, as: UTF8.self) == "pages" && taxonomies != nil ? identities : nil
            }
            let field = fields.rest
            let name = String(decoding: field, as: UTF8.self)
            switch kind {
            case "taxonomies":
                guard taxonomies == nil, let count = RecordReader.number(field), count >= 0 else { return nil }
                taxonomies = count
                identities.terms = Array(repeating: [], count: count)
            case "post": identities.posts.append(name)
            case "page": identities.pages.append(name)
            case "tag": identities.tags.append(name)
            case "series": identities.series.append(name)
            default:
                guard kind.hasPrefix("term"), let taxonomy = Int(kind.dropFirst(4)),
                    identities.terms.indices.contains(taxonomy)
                else { return nil }
                identities.terms[taxonomy].append(name)
            }
        }
        return nil
    }

    /// Replaces the page record (written beside, a megabyte at a time, then renamed).
    ///
    /// One line per page in the order given: the build's order of pages, the same for the same
    /// site. Nothing is recorded unless every page has a key.
    func writePages(_ pages: some Collection<(path: String, record: PageRecord)>, identities: SiteIdentities) {
        // A path or a name with a tab or a line break cannot be recorded; then none is, and the
        // next build renders every page.
        func isRecordable(_ text: String) -> Bool { !text.utf8.contains { $0 == 9 || $0 == 10 || $0 == 13 } }
        let names = [identities.posts, identities.pages, identities.tags, identities.series] + identities.terms
        guard !pages.contains(where: { $0.record.key == nil || $0.record.inputs == nil || !isRecordable($0.path) }),
            names.allSatisfy({ $0.allSatisfy(isRecordable) }),
            let file = StreamedFile(replacing: pagesURL.path)
        else {
            try? FileManager.default.removeItem(at: pagesURL)
            return
        }
        func add(_ kind: String, _ names: [String]) {
            for name in names {
                file.buffer += kind.utf8
                file.buffer.append(9)
                file.buffer += name.utf8
                file.buffer.append(10)
                file.writeIfFull()
            }
        }
        add("taxonomies", [String(identities.terms.count)])
        add("post", identities.posts)
        add("page", identities.pages)
        add("tag", identities.tags)
        add("series", identities.series)
        for (taxonomy, terms) in identities.terms.enumerated() { add("term\(taxonomy)", terms) }
        file.buffer += "pages\n".utf8
        // Made as bytes, in the order given: with Foundation's `contains`, a sort by path, and
        // interpolation it was slow, on one core, at the end of a large build.
        for (path, record) in pages {
            guard let key = record.key, let inputs = record.inputs else { continue }
            file.buffer += key.description.utf8
            file.buffer.append(9)
            file.buffer += String(record.bytes).utf8
            file.buffer.append(9)
            file.buffer += path.utf8
            file.buffer.append(9)
            PageInput.encode(inputs, into: &file.buffer)
            file.buffer.append(10)
            file.writeIfFull()
        }
        // A cache that cannot be written only costs the next build its shortcut.
        if !file.finish() { try? FileManager.default.removeItem(at: pagesURL) }
    }

    /// The manifest, when there is one from this Tagflow version and cache format.
    func read() -> Manifest? {
        guard let data = FileManager.default.contents(atPath: manifestURL.path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
            manifest.format == Self.formatVersion, manifest.tagflow == TagflowVersion.current
        else { return nil }
        return manifest
    }

    /// Replaces the manifest (write, then rename, so a reader never sees half a file).
    func write(_ manifest: Manifest) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(manifest) else { return }
        let manager = FileManager.default
        try? manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let readme = folder.appendingPathComponent("README")
        if !manager.fileExists(atPath: readme.path) {
            try? Data(
                "Tagflow's build cache: what the last build read and wrote. Safe to delete; add it to .gitignore.\n"
                    .utf8
            ).write(to: readme)
        }
        // A cache that cannot be written only costs the next build its shortcut.
        _ = data.withUnsafeBytes { OutputWriter.replaceFile(at: manifestURL.path, with: $0) }
    }

    /// Forgets the last build (after a failed one, so nothing stale is trusted).
    func clear() {
        try? FileManager.default.removeItem(at: manifestURL)
        try? FileManager.default.removeItem(at: pagesURL)
    }
}

/// The version printed by `tagflow --version`, also part of cache keys.
package enum TagflowVersion {
    /// The current version.
    package static let current = "0.1.0"
}
