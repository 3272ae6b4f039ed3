public import Foundation
import TagflowConcurrency

/// `tagflow enhance`: replaces the tag lists in a folder of built HTML (any generator's output)
/// with chip blocks, in place.
///
/// Pages are read and enhanced in parallel; a page that changes is written beside itself and
/// renamed over, so a crash never leaves half a page, and a page with no list is not written at
/// all. A second run finds only its own blocks and changes nothing.
public struct SiteEnhancer: Sendable {
    /// The shared stylesheet's path inside the folder.
    public static let stylesheetPath = "assets/" + stylesheetName
    static let stylesheetName = "tagflow-chips.css"

    /// The folder of built HTML.
    public var folder: URL
    /// The page enhancer (renderer and rules).
    public var page: PageEnhancer
    /// The stylesheet's text.
    public var stylesheet: String
    /// The site's path prefix (`/blog`) for the stylesheet's URL; `nil` links it relatively from
    /// each page, which works at any base path and from the file system.
    public var basePath: String?

    /// Creates an enhancer.
    public init(folder: URL, page: PageEnhancer, stylesheet: String, basePath: String? = nil) {
        self.folder = folder
        self.page = page
        self.stylesheet = stylesheet
        self.basePath = basePath
    }

    /// What a run did.
    public struct Report: Sendable {
        /// HTML files read.
        public var pages = 0
        /// Files rewritten.
        public var rewritten = 0
        /// Lists replaced.
        public var lists = 0
        /// Warnings, each `path:line: message`.
        public var warnings: [String] = []
        /// Errors (files that could not be read or written), each `path: message`.
        public var errors: [String] = []
        /// Where rules come from (`--selector 'ul.tags'`, `preset hugo`) whose rules found no list
        /// in the whole folder, when the folder holds no block of an earlier run either.
        public var unmatched: [String] = []
    }

    /// Enhances every `.html` and `.htm` file under the folder.
    ///
    /// Each page is read, enhanced and written on the threads that wait on files
    /// (`ParallelMap.mapWaitingOnFiles`), as a build writes its pages.
    public func run() async -> Report {
        var report = Report()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            report.errors.append("\(folder.path): not a folder")
            return report
        }
        let paths = Self.htmlFiles(in: folder)
        report.pages = paths.count
        let outcomes = await ParallelMap.mapWaitingOnFiles(paths) { enhanceFile($0) }
        var matches = Array(repeating: 0, count: page.rules.count)
        var ownBlocks = 0
        for (path, outcome) in zip(paths, outcomes) {
            switch outcome {
            case .failed(let message): report.errors.append("\(path): \(message)")
            case .done(let result, let written):
                report.lists += result.replaced
                if written { report.rewritten += 1 }
                ownBlocks += result.ownBlocks
                for (index, count) in result.matchesPerRule.enumerated() { matches[index] += count }
                report.warnings += result.warnings.map { "\(path):\($0.line): warning: \($0.message)" }
            case .skipped(let message): report.warnings.append("\(path): warning: \(message)")
            }
        }
        if ownBlocks + report.lists == 0 {
            var found: [String: Int] = [:]
            for (rule, count) in zip(page.rules, matches) { found[rule.origin, default: 0] += count }
            report.unmatched = found.filter { $0.value == 0 }.keys.sorted()
        }
        if report.lists > 0
            || FileManager.default.fileExists(atPath: folder.appendingPathComponent(Self.stylesheetPath).path)
        {
            if let error = writeStylesheet() { report.errors.append(error) }
        }
        return report
    }

    enum Outcome: Sendable {
        case done(PageEnhancer.Result, written: Bool)
        case skipped(String)
        case failed(String)
    }

    private func enhanceFile(_ path: String) -> Outcome {
        let url = folder.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return .failed("cannot read the file")
        }
        let bytes = [UInt8](data)
        if String(validating: bytes, as: UTF8.self) == nil {
            return .skipped("not valid UTF-8; left as it is")
        }
        let result = page.enhance(bytes, stylesheetURL: stylesheetURL(from: path))
        guard let output = result.bytes else { return .done(result, written: false) }
        if let error = Self.replace(url, with: output) { return .failed(error) }
        return .done(result, written: true)
    }

    /// The stylesheet's URL from a page at `path` (folder-relative).
    func stylesheetURL(from path: String) -> String {
        if let basePath {
            let prefix = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
            return prefix + "/" + Self.stylesheetPath
        }
        let depth = path.split(separator: "/").count - 1
        return String(repeating: "../", count: depth) + Self.stylesheetPath
    }

    private func writeStylesheet() -> String? {
        let url = folder.appendingPathComponent(Self.stylesheetPath)
        let bytes = Array(stylesheet.utf8)
        if let existing = FileManager.default.contents(atPath: url.path), [UInt8](existing) == bytes { return nil }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            return "\(Self.stylesheetPath): cannot make its folder: \(error.localizedDescription)"
        }
        return Self.replace(url, with: bytes).map { "\(Self.stylesheetPath): \($0)" }
    }

    /// Writes `bytes` to a new file beside `url` and renames it over `url`, keeping the old
    /// file's permissions; returns why it failed.
    static func replace(_ url: URL, with bytes: [UInt8]) -> String? {
        let folder = url.deletingLastPathComponent().path
        var template = Array("\(folder)/.\(url.lastPathComponent).tagflow-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { return "cannot write beside the file: \(String(cString: strerror(errno)))" }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var mode: mode_t = 0o644
        var info = stat()
        if stat(url.path, &info) == 0 { mode = info.st_mode & 0o7777 }
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let count = write(descriptor, base + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot write: \(String(cString: strerror(errno)))"
                    return
                }
                written += count
            }
        }
        if failure == nil, fchmod(descriptor, mode) != 0 { failure = "cannot set permissions" }
        if close(descriptor) != 0, failure == nil { failure = "cannot write: \(String(cString: strerror(errno)))" }
        if failure == nil, rename(temporary, url.path) != 0 {
            failure = "cannot replace the file: \(String(cString: strerror(errno)))"
        }
        if failure != nil { unlink(temporary) }
        return failure
    }

    /// Folder-relative paths of the HTML files, sorted; hidden folders are skipped.
    static func htmlFiles(in folder: URL) -> [String] {
        var found: [String] = []
        let base = folder.standardizedFileURL.path
        guard
            let enumerator = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        for case let url as URL in enumerator {
            let name = url.lastPathComponent.lowercased()
            guard name.hasSuffix(".html") || name.hasSuffix(".htm") else { continue }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            // Never guess a path: a file written to the wrong one would replace another page.
            guard path.hasPrefix(base + "/") else { continue }
            found.append(String(path.dropFirst(base.count + 1)))
        }
        return found.sorted()
    }
}
