public import Foundation

/// A site written to a temporary folder from one string of `-- path --` blocks, for tests.
///
/// ```swift
/// let fixture = try SiteFixture("""
///     -- site.yml --
///     title: Test
///     -- posts/2024-01-01-hello.md --
///     ---
///     title: Hello
///     ---
///     Hi.
///     """)
/// ```
public struct SiteFixture: Sendable {
    /// The temporary folder that holds the site (and, usually, its output beside it).
    public let root: URL
    /// The site folder.
    public var site: URL { root.appendingPathComponent("site") }
    /// A conventional output folder for the fixture, outside the site.
    public var output: URL { root.appendingPathComponent("out") }

    /// Writes the blocks.
    ///
    /// Text before the first block is ignored.
    public init(_ blocks: String) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for (path, text) in Self.parse(blocks) { try write(path, text) }
    }

    /// Splits `-- path --` blocks into (path, text) pairs.
    public static func parse(_ blocks: String) -> [(String, String)] {
        var files: [(String, String)] = []
        var currentPath: String?
        var lines: [Substring] = []
        func flush() {
            if let currentPath {
                files.append((currentPath, lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")))
            }
            lines = []
        }
        for line in blocks.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- "), line.hasSuffix(" --"), line.count > 6 {
                flush()
                currentPath = String(line.dropFirst(3).dropLast(3))
            } else if currentPath != nil {
                lines.append(line)
            }
        }
        flush()
        return files
    }

    /// Writes (or replaces) a file of the site.
    public func write(_ path: String, _ text: String) throws {
        try write(path, bytes: Array(text.utf8))
    }

    /// Writes raw bytes to a file of the site.
    public func write(_ path: String, bytes: [UInt8]) throws {
        let url = site.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Reads a file of the output as text.
    public func output(_ path: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    /// Removes the temporary folder.
    public func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// Every file under a folder, relative path → bytes, for comparing whole outputs.
public func folderContents(_ folder: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    else { return result }
    let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
    for case let url as URL in enumerator {
        guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        result[String(path.dropFirst(base.count + 1))] = FileManager.default.contents(atPath: path)
    }
    return result
}
