internal import CSourceHighlight
internal import Foundation
import TagflowConcurrency
internal import TagflowHTML

/// Highlights fenced code at build time with GNU Source-highlight, into spans with classes the
/// theme colours; no script runs in the reader's browser.
///
/// ```swift
/// let html = CodeHighlighter.shared.html(code: "let x = 1\n", info: FenceInfo("swift"))
/// // <pre class="code" data-lang="swift"><code class="language-swift"><span class="line">…
/// ```
///
/// Safe to use from many tasks at once: each language keeps a pool of loaded highlighters, and a
/// call takes one for itself.
public final class CodeHighlighter: Sendable {
    /// The highlighter for Source-highlight's installed definitions and Tagflow's own.
    public static let shared = CodeHighlighter(
        languages: HighlightLanguages(systemFolder: systemFolder(), tagflowFolder: LanguageFolder.path))

    /// A line longer than this, in bytes, makes its block plain text: the library searches each
    /// line once per token, so its time grows with the square of a line's length.
    static let longestHighlightedLine = 4_096

    private let languages: HighlightLanguages
    private let pools = Locked<[HighlightLanguages.Definition: Pool]>([:])

    init(languages: HighlightLanguages) {
        self.languages = languages
    }

    /// Every language name a block can give (aliases included), sorted.
    public var languageNames: [String] { languages.names }

    /// Whether code in `language` (as a writer spells it) is highlighted.
    public func highlights(_ language: String) -> Bool {
        languages.definition(for: language).map { pool(for: $0) != nil } ?? false
    }

    /// The HTML of a fenced block.
    ///
    /// A `<pre>` whose lines are spans, each token a span with a `tok-` class. Code in a language
    /// without a definition is escaped text in the same frame.
    ///
    /// - Parameters:
    ///   - code: The block's text, as Markdown gives it (each line ending in a line break).
    ///   - info: What the info string asked for.
    ///   - lineNumbers: Whether lines are numbered when the info string does not say.
    /// - Returns: The block's HTML, ending in a line break.
    public func html(code: String, info: FenceInfo, lineNumbers: Bool = false) -> String {
        var writer = CodeHTMLWriter(info: info, lineNumbers: info.lineNumbers ?? lineNumbers)
        var code = code
        code.withUTF8 { bytes in
            if let definition = languages.definition(for: info.language), Self.isHighlightable(bytes),
                let pool = pool(for: definition), pool.highlight(bytes, into: &writer)
            {
                return
            }
            writer.reset()
            writer.writePlain(bytes)
        }
        return writer.finish()
    }

    private static func isHighlightable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var lineStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            if index - lineStart > longestHighlightedLine { return false }
            lineStart = index + 1
        }
        return bytes.count - lineStart <= longestHighlightedLine
    }

    private func pool(for definition: HighlightLanguages.Definition) -> Pool? {
        let pool = pools.withLock { pools in
            if let pool = pools[definition] { return pool }
            let pool = Pool(definition: definition)
            pools[definition] = pool
            return pool
        }
        return pool.isUsable ? pool : nil
    }

    /// Where Source-highlight's definitions are: `SOURCE_HIGHLIGHT_DATADIR`; else the copy a
    /// release archive or .deb carries beside the executable; else where the library was
    /// installed (the library decides).
    private static func systemFolder() -> String? {
        if ProcessInfo.processInfo.environment["SOURCE_HIGHLIGHT_DATADIR"] == nil,
            let bundled = bundledFolder(beside: Bundle.main.executableURL)
        {
            return bundled
        }
        guard let folder = tagflow_highlight_default_data_dir() else { return nil }
        defer { free(folder) }
        return String(cString: folder)
    }
}

extension CodeHighlighter {
    /// The definitions a release carries: `share/tagflow/source-highlight` above `bin/tagflow`.
    ///
    /// `make dist` and `make deb` put them there, since the library linked into a release binary
    /// still reads them from files. The folder counts when it holds a language map. Links to the
    /// executable are followed, so a `tagflow` linked into `~/.local/bin` finds them too.
    static func bundledFolder(beside executable: URL?) -> String? {
        guard let executable = executable?.resolvingSymlinksInPath() else { return nil }
        let folder = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/tagflow/source-highlight")
        let map = folder.appendingPathComponent("lang.map").path
        return FileManager.default.fileExists(atPath: map) ? folder.path : nil
    }
}

/// Loaded highlighters for one language definition, taken by one call at a time.
private final class Pool: Sendable {
    private let definition: HighlightLanguages.Definition
    private let idle = Locked<[HighlighterHandle]>([])
    /// Whether the definition loads; a broken or missing one makes its language plain text.
    let isUsable: Bool

    init(definition: HighlightLanguages.Definition) {
        self.definition = definition
        if let first = Self.load(definition) {
            idle.withLock { $0.append(first) }
            isUsable = true
        } else {
            isUsable = false
        }
    }

    /// Highlights `bytes` into `writer`; `false` when the library gave up on them.
    func highlight(_ bytes: UnsafeBufferPointer<UInt8>, into writer: inout CodeHTMLWriter) -> Bool {
        guard let handle = idle.withLock({ $0.popLast() }) ?? Self.load(definition) else { return false }
        defer { idle.withLock { $0.append(handle) } }
        return highlight(bytes, into: &writer, with: handle)
    }

    /// One definition loaded at a time in the whole process, and none after one failed to parse.
    ///
    /// The library's definition parser keeps its state in globals: a parse that stops at an
    /// error leaves them mid-file, and a definition parsed after that lost rules (a `//` comment
    /// drawn as code). A language that cannot be loaded is plain text, never wrong.
    static let library = Locked(false)

    private func highlight(
        _ bytes: UnsafeBufferPointer<UInt8>, into writer: inout CodeHTMLWriter, with handle: HighlighterHandle
    ) -> Bool {
        withUnsafeMutablePointer(to: &writer) { pointer in
            var error: UnsafeMutablePointer<CChar>?
            let status = tagflow_highlighter_run(
                handle.pointer, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                bytes.count,
                { context, element, text, length in
                    guard let context, let element, let text else { return }
                    let writer = context.assumingMemoryBound(to: CodeHTMLWriter.self)
                    writer.pointee.writeToken(
                        element: element,
                        text: UnsafeRawBufferPointer(start: text, count: length))
                },
                { context in context?.assumingMemoryBound(to: CodeHTMLWriter.self).pointee.endLine() },
                pointer, &error)
            free(error)
            return status == 0
        }
    }

    /// Loads a definition, one at a time in the process (``library``).
    private static func load(_ definition: HighlightLanguages.Definition) -> HighlighterHandle? {
        library.withLock { failedBefore in
            guard !failedBefore else { return nil }
            // A file that is not there fails before the parser starts: it leaves nothing behind.
            guard FileManager.default.isReadableFile(atPath: definition.folder + "/" + definition.file) else {
                return nil
            }
            var error: UnsafeMutablePointer<CChar>?
            defer { free(error) }
            let handle = tagflow_highlighter_create(definition.folder, definition.file, &error)
            if handle == nil { failedBefore = true }
            return handle.map(HighlighterHandle.init)
        }
    }

}

/// A loaded highlighter: used by one call at a time (the pool hands it out), kept for the process.
private struct HighlighterHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
