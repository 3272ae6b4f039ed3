package import Foundation
import TagflowCore
import TagflowMarkdown

/// Brings a Hugo or Jekyll site over into a new Tagflow site folder.
///
/// The source is only read. The new site is written beside the destination and moved into place
/// when complete, so a failed import leaves nothing behind. Posts keep their file names, dates,
/// tags and drafts; an address that changes becomes an `aliases:` entry, so published links keep
/// working. What cannot be converted is left in the text as written and listed in the report
/// with its file and line.
package struct SiteImporter: Sendable {
    /// What wrote the source site.
    package let generator: SourceGenerator
    /// The source site's folder.
    package let source: URL
    /// The folder to create: it must not exist, or be empty.
    package let destination: URL
    /// The user's choices.
    package let options: ImportOptions

    /// Creates an importer.
    package init(generator: SourceGenerator, source: URL, destination: URL, options: ImportOptions = ImportOptions()) {
        self.generator = generator
        self.source = source.standardizedFileURL
        self.destination = destination.standardizedFileURL
        self.options = options
    }

    /// Reads the source site and writes the Tagflow site.
    ///
    /// - Returns: What was written, and the notes on what was not converted.
    /// - Throws: ``ImportError`` when the folders are wrong or a file cannot be read or written;
    ///   nothing is left at the destination then.
    package func run() throws(ImportError) -> ImportReport {
        try checkFolders()
        let files = SourceFiles(root: source)
        var plan: ImportPlan
        switch generator {
        case .hugo: plan = try HugoReader(files: files, options: options).plan()
        case .jekyll: plan = try JekyllReader(files: files, options: options).plan()
        }
        // Posts, then pages, each by destination: the order in which addresses are settled and
        // files written, the same for every reader.
        plan.documents.sort {
            ($0.kind == .post ? 0 : 1, $0.destination) < ($1.kind == .post ? 0 : 1, $1.destination)
        }
        var report = ImportReport()
        Self.settleAddresses(&plan, report: &report)
        report.notes = plan.notes.sorted { ($0.path, $0.line ?? 0) < ($1.path, $1.line ?? 0) }
        try write(plan, report: &report)
        return report
    }

    private func checkFolders() throws(ImportError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw ImportError("\(source.path) is not a folder") }
        let sourcePath = source.resolvingSymlinksInPath().path
        let destinationPath = destination.deletingLastPathComponent().resolvingSymlinksInPath()
            .appendingPathComponent(destination.lastPathComponent).path
        if destinationPath == sourcePath || destinationPath.hasPrefix(sourcePath + "/") {
            throw ImportError(
                "the new site cannot be inside the \(generator.rawValue) site (\(source.path)): the import never writes there"
            )
        }
        if FileManager.default.fileExists(atPath: destination.path) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: destination.path)) ?? ["?"]
            guard entries.isEmpty else {
                throw ImportError("\(destination.path) already exists and is not empty; choose a new folder")
            }
        }
    }

    /// Gives every document an address of its own, and its old addresses as `aliases:`.
    ///
    /// A page that would take one of the site's own names (`tags`) or an address already taken
    /// gets a numbered slug; an old address that another page now has is dropped, with a note.
    static func settleAddresses(_ plan: inout ImportPlan, report: inout ImportReport) {
        var taken: [String: String] = [:]  // output file → source path
        var newPaths: [String] = []
        var destinations = Set<String>()
        for index in plan.documents.indices {
            var document = plan.documents[index]
            // Two files for one place (`blog.md` beside `blog/index.md` in Jekyll): the second gets a number.
            if !destinations.insert(document.destination.lowercased()).inserted {
                let stem = SitePaths.withoutExtension(document.destination)
                let suffix = String(document.destination.dropFirst(stem.count))
                var number = 2
                while destinations.contains("\(stem)-\(number)\(suffix)".lowercased()) { number += 1 }
                document.destination = "\(stem)-\(number)\(suffix)"
                destinations.insert(document.destination.lowercased())
                plan.note(
                    document.sourcePath, nil, "written as \(document.destination): another file goes where it would")
            }
            var slug = document["slug"]?.scalarText
            if let given = slug, !ContentAddress.isValidSlug(given) {
                plan.note(
                    document.sourcePath, nil, "slug '\(given)' is not one URL segment; the file name gives the address")
                document["slug"] = nil
                slug = nil
            }
            func path(_ slug: String?) -> String? {
                document.kind == .post
                    ? ContentAddress.postPath(name: document.addressName, slug: slug)
                    : ContentAddress.pagePath(name: document.addressName, slug: slug)
            }
            var newPath = path(slug) ?? "/"
            let segment = newPath.split(separator: "/").last.map(String.init) ?? ""
            if document.kind == .page, ContentAddress.isReservedPageSlug(segment) {
                plan.note(
                    document.sourcePath, nil,
                    "Tagflow writes its own pages at /\(segment)/; this page is at /\(segment)-page/ instead")
                slug = segment + "-page"
                newPath = path(slug) ?? newPath
                document["slug"] = .string(slug ?? "")
            }
            if let owner = taken[ContentAddress.file(for: newPath)] {
                let base = slug ?? (newPath.split(separator: "/").last.map(String.init) ?? "page")
                var number = 2
                while let candidate = path("\(base)-\(number)"), taken[ContentAddress.file(for: candidate)] != nil {
                    number += 1
                }
                let numbered = "\(base)-\(number)"
                let candidate = path(numbered) ?? newPath
                plan.note(
                    document.sourcePath, nil, "\(newPath) is also the address of \(owner); this one is at \(candidate)")
                newPath = candidate
                document["slug"] = .string(numbered)
            }
            taken[ContentAddress.file(for: newPath)] = document.sourcePath
            newPaths.append(newPath)
            plan.documents[index] = document
        }
        // Old addresses, once every new one is known.
        for index in plan.documents.indices {
            var document = plan.documents[index]
            var wanted: [String] = []
            if case .list(let items)? = document["aliases"] { wanted = items.compactMap(\.scalarText) }
            if let old = document.oldPath { wanted.append(old) }
            var aliases: [YAMLValue] = []
            var files = Set<String>()
            for text in wanted {
                switch PageAliases.sitePath(of: SitePaths.encoded(text)) {
                case .success(let path):
                    let file = ContentAddress.file(for: path)
                    if path == newPaths[index] || !files.insert(file).inserted { continue }
                    if PageAliases.isReserved(file: file) {
                        plan.note(
                            document.sourcePath, nil,
                            "the old address \(text) is among Tagflow's own pages; it is not redirected")
                    } else if let owner = taken[file], owner != document.sourcePath {
                        plan.note(
                            document.sourcePath, nil,
                            "the old address \(text) is now the address of \(owner); it is not redirected")
                    } else {
                        taken[file] = document.sourcePath
                        // Written as an address, escaped: the build decodes it to the file name.
                        aliases.append(.string(SitePaths.encoded(path)))
                    }
                case .failure(let problem):
                    plan.note(
                        document.sourcePath, nil, "the old address '\(text)' is not redirected: \(problem.message)")
                }
            }
            document["aliases"] = aliases.isEmpty ? nil : .list(aliases)
            report.aliasCount += aliases.count
            plan.documents[index] = document
        }
    }

    private func write(_ plan: ImportPlan, report: inout ImportReport) throws(ImportError) {
        let manager = FileManager.default
        let parent = destination.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).tagflow-import-\(getpid())")
        try? manager.removeItem(at: staging)
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: true)
            func put(_ text: String, at path: String) throws {
                let url = staging.appendingPathComponent(path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            func copy(_ sourcePath: String, to path: String) throws {
                let url = staging.appendingPathComponent(path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.copyItem(at: source.appendingPathComponent(sourcePath), to: url)
                report.copiedFileCount += 1
            }
            try put(siteYAML(plan), at: "site.yml")
            try put("_site/\n.tagflow-cache/\n", at: ".gitignore")
            for document in plan.documents {
                let front = YAMLWriter.mapping(document.frontMatter)
                try put("---\n" + front + "---\n" + document.body, at: document.destination)
                for file in document.bundleFiles { try copy(file.source, to: file.destination) }
                switch document.kind {
                case .post:
                    report.postCount += 1
                    if document["draft"] == .bool(true) { report.draftCount += 1 }
                case .page: report.pageCount += 1
                }
            }
            // Two files for one place (a Hugo site's static/ and a section folder): the first stays.
            var copied = Set(plan.documents.flatMap { $0.bundleFiles.map(\.destination) })
            for file in plan.copies {
                guard copied.insert(file.destination).inserted else {
                    report.notes.append(
                        ImportNote(
                            path: file.source, message: "not copied: another file is published at \(file.destination)"))
                    continue
                }
                try copy(file.source, to: file.destination)
            }
            if !report.notes.isEmpty {
                try put(notesText(report.notes), at: "import-notes.txt")
            }
            if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
            try manager.moveItem(at: staging, to: destination)
        } catch {
            try? manager.removeItem(at: staging)
            throw ImportError("cannot write the new site: \(error.localizedDescription)")
        }
    }

    private func siteYAML(_ plan: ImportPlan) -> String {
        var text = """
            # Brought over from a \(generator == .hugo ? "Hugo" : "Jekyll") site by `tagflow import \(generator.rawValue)`.
            # Every setting, and its default: docs/configuration.md in Tagflow's repository.

            """
        var group = ""
        for setting in plan.settings {
            let parts = setting.key.split(separator: ".", maxSplits: 1).map(String.init)
            let inGroup = parts.count == 2 && group == parts[0]
            if let comment = setting.comment { text += (inGroup ? "  # " : "# ") + comment + "\n" }
            if parts.count == 2 {
                if group != parts[0] { text += parts[0] + ":\n" }
                group = parts[0]
                text += YAMLWriter.mapping([(parts[1], setting.value)], indent: 2)
            } else {
                group = ""
                text += YAMLWriter.mapping([(setting.key, setting.value)])
            }
        }
        return text
    }

    private func notesText(_ notes: [ImportNote]) -> String {
        """
        What `tagflow import \(generator.rawValue)` could not convert. Each is left in the new site
        as it was written (a shortcode or Liquid tag shows as text on its page) or named here;
        the paths are the \(generator == .hugo ? "Hugo" : "Jekyll") site's.

        """ + notes.map { $0.description + "\n" }.joined()
    }
}
