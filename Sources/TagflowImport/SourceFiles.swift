import Foundation
import TagflowMarkdown

/// Reading the source site: its files, their front matter, their dates.
struct SourceFiles {
    let root: URL

    /// Every regular file under `folder` (relative to the root), as root-relative paths in path
    /// order; hidden files and folders are left out, and so is any folder `skip` names.
    func files(under folder: String, skip: (String) -> Bool = { _ in false }) -> [String] {
        let base = folder.isEmpty || folder == "." ? root : root.appendingPathComponent(folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var found: [String] = []
        let rootPath = root.standardizedFileURL.path
        while let url = enumerator.nextObject() as? URL {
            let path = String(url.standardizedFileURL.path.dropFirst(rootPath.count + 1))
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isDirectory == true {
                if skip(path) { enumerator.skipDescendants() }
                continue
            }
            if values?.isRegularFile == true, !skip(path) { found.append(path) }
        }
        return found.sorted()
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    /// Whether `path` is a folder holding a file somewhere under it (hidden ones aside); stops at
    /// the first.
    func isFolderWithFiles(_ path: String) -> Bool {
        guard isFolder(path),
            let enumerator = FileManager.default.enumerator(
                at: url(path), includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return false }
        while let file = enumerator.nextObject() as? URL {
            if (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { return true }
        }
        return false
    }

    func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url(path).path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    func text(_ path: String) throws(ImportError) -> String {
        guard let data = FileManager.default.contents(atPath: url(path).path) else {
            throw ImportError("cannot read \(url(path).path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportError("\(path) is not UTF-8 text")
        }
        return text
    }

    /// The file's modification day, for drafts that have no date (Jekyll dates them so too).
    func modificationDate(_ path: String) -> Date {
        (try? FileManager.default.attributesOfItem(atPath: url(path).path)[.modificationDate] as? Date) ?? Date()
    }

    /// A Markdown file's front matter (YAML or TOML) and body; a note, and `nil`, when the front
    /// matter does not read.
    static func document(_ text: String, path: String, notes: inout [ImportNote]) -> (
        mapping: YAMLMapping, body: String, bodyFirstLine: Int
    )? {
        do {
            let split = try FrontMatterSplit(splitting: text)
            return (try split.mapping(), split.body, split.bodyFirstLine)
        } catch {
            notes.append(
                ImportNote(
                    path: path, line: error.line,
                    message: "not imported: its front matter does not read (\(error.message))"))
            return nil
        }
    }

    /// Whether a file starts with front matter (`---` or `+++`): Jekyll processes only those.
    static func hasFrontMatter(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 4)) ?? Data()
        return start.starts(with: Data("---".utf8)) || start.starts(with: Data("+++".utf8))
    }
}

/// Paths inside the Tagflow site.
enum SitePaths {
    /// The path without its file name's extension (`posts/a.md` → `posts/a`; `.hidden` stays).
    static func withoutExtension(_ path: String) -> String {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
    }

    /// The link from one file of the site to another, relative to the first's folder
    /// (`posts/a.md` → `pages/about.md` is `../pages/about.md`).
    static func relativeLink(from file: String, to target: String) -> String {
        let fromFolder = file.split(separator: "/").dropLast().map(String.init)
        let targetParts = target.split(separator: "/").map(String.init)
        var common = 0
        while common < fromFolder.count, common < targetParts.count - 1, fromFolder[common] == targetParts[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: fromFolder.count - common)
        return (ups + targetParts[common...]).joined(separator: "/")
    }

    /// A path with `.` and `..` segments resolved (`a/b/../c` → `a/c`); `nil` if it leaves the root.
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// The folder of a path (`a/b/c.md` → `a/b`; `c.md` → ``).
    static func folder(of path: String) -> String {
        path.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// The last segment of a path without its extension (`a/2024-03-05-b.md` → `2024-03-05-b`).
    static func baseName(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    static func fileExtension(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]).lowercased() } ?? ""
    }

    /// A path percent-encoded as a URL path, so an old address with spaces or accents is an alias.
    static func encoded(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
