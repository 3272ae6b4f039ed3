/// The language a file's front matter is written in, told by its fences.
public enum FrontMatterFormat: Sendable, Hashable {
    /// Between lines of `---` (closed by `---` or `...`), as Jekyll and most generators write it.
    case yaml
    /// Between lines of `+++`, as Hugo and Zola write it.
    case toml
}

/// A content file cut into its front matter and its Markdown body.
///
/// Front matter is the block between a first line of `---` and the next line of `---` (or `...`),
/// which is YAML, or between a first line of `+++` and the next line of `+++`, which is TOML.
/// A file that starts with neither has no front matter. Line numbers are 1-based and refer to
/// the file, so errors inside either part can point at the right line.
///
/// ```swift
/// let split = try FrontMatterSplit(splitting: "---\ntitle: Hi\n---\nBody\n")
/// // split.frontMatter == "title: Hi\n", split.frontMatterFirstLine == 2, split.format == .yaml
/// // split.body == "Body\n", split.bodyFirstLine == 4
/// ```
public struct FrontMatterSplit: Sendable, Hashable {
    /// The text between the fences, or `nil` when the file has no front matter.
    public var frontMatter: String?
    /// The language of ``frontMatter``.
    public var format: FrontMatterFormat
    /// The file line on which the front matter text starts.
    public var frontMatterFirstLine: Int
    /// The Markdown after the closing fence (or the whole file).
    public var body: String
    /// The file line on which the body starts.
    public var bodyFirstLine: Int

    /// Splits normalised text (see ``SourceText``) into front matter and body.
    ///
    /// - Throws: ``FrontMatterError`` when an opening fence is never closed.
    /// - Complexity: O(*n*) in the length of the text.
    public init(splitting text: String) throws(FrontMatterError) {
        let utf8 = text.utf8
        let firstLineEnd = Self.lineEnd(in: utf8, from: utf8.startIndex) ?? utf8.endIndex
        guard let format = Self.openingFence(utf8[utf8.startIndex..<firstLineEnd]) else {
            self.init(frontMatter: nil, format: .yaml, frontMatterFirstLine: 1, body: text, bodyFirstLine: 1)
            return
        }
        guard firstLineEnd < utf8.endIndex else {
            throw FrontMatterError(line: 1, column: 1, reason: .unclosed(format))
        }
        var lineStart = utf8.index(after: firstLineEnd)
        var line = 2
        let frontMatterStart = lineStart
        while lineStart < utf8.endIndex {
            let end = Self.lineEnd(in: utf8, from: lineStart) ?? utf8.endIndex
            if Self.isClosingFence(utf8[lineStart..<end], of: format) {
                let bodyStart = end < utf8.endIndex ? utf8.index(after: end) : end
                self.init(
                    frontMatter: String(text[frontMatterStart..<lineStart]),
                    format: format,
                    frontMatterFirstLine: 2,
                    body: String(text[bodyStart...]),
                    bodyFirstLine: line + 1
                )
                return
            }
            guard end < utf8.endIndex else { break }
            lineStart = utf8.index(after: end)
            line += 1
        }
        throw FrontMatterError(line: 1, column: 1, reason: .unclosed(format))
    }

    init(frontMatter: String?, format: FrontMatterFormat, frontMatterFirstLine: Int, body: String, bodyFirstLine: Int) {
        self.frontMatter = frontMatter
        self.format = format
        self.frontMatterFirstLine = frontMatterFirstLine
        self.body = body
        self.bodyFirstLine = bodyFirstLine
    }

    private static func lineEnd(in utf8: String.UTF8View, from start: String.Index) -> String.Index? {
        // With `memchr` over the string's bytes: stepping through the view's indices was costly
        // per line, enough to show in a build.
        let found = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            let from = utf8.distance(from: utf8.startIndex, to: start)
            let rest = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[from...]))
            return SourceText.firstOffset(of: UInt8(ascii: "\n"), in: rest).map { from + $0 }
        }
        guard let found else { return utf8[start...].firstIndex(of: UInt8(ascii: "\n")) }
        return found.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// The format an opening fence starts: `---` or `+++`, with trailing spaces or tabs allowed.
    private static func openingFence(_ line: Substring.UTF8View) -> FrontMatterFormat? {
        // Nearly every file is told apart by its first byte, before the line is walked.
        guard let first = line.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else { return nil }
        let bytes = trimmedOfTrailingBlanks(line)
        if bytes.elementsEqual("---".utf8) { return .yaml }
        if bytes.elementsEqual("+++".utf8) { return .toml }
        return nil
    }

    /// `---` or `...` closing YAML, `+++` closing TOML, with trailing spaces or tabs allowed.
    private static func isClosingFence(_ line: Substring.UTF8View, of format: FrontMatterFormat) -> Bool {
        // Nearly every line is told apart by its first byte, before the view is walked.
        guard let first = line.first else { return false }
        switch format {
        case .yaml:
            guard first == UInt8(ascii: "-") || first == UInt8(ascii: ".") else { return false }
            let bytes = trimmedOfTrailingBlanks(line)
            return bytes.elementsEqual("---".utf8) || bytes.elementsEqual("...".utf8)
        case .toml:
            return first == UInt8(ascii: "+") && trimmedOfTrailingBlanks(line).elementsEqual("+++".utf8)
        }
    }

    private static func trimmedOfTrailingBlanks(_ line: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = line[...]
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            bytes = bytes.dropLast()
        }
        return bytes
    }
}

/// Why front matter could not be read, and where (file line and column, 1-based).
public struct FrontMatterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The opening fence has no closing one.
        case unclosed(FrontMatterFormat)
        /// The YAML is malformed; the text is the YAML parser's own description.
        case invalidYAML(String)
        /// The TOML is malformed; the text is the TOML parser's own description.
        case invalidTOML(String)
        /// The front matter is YAML but not a mapping of keys to values.
        case notAMapping
        /// The same key appears twice.
        case duplicateKey(String)
    }

    /// The file line of the problem.
    public var line: Int
    /// The column of the problem.
    public var column: Int
    /// What went wrong.
    public var reason: Reason

    /// Creates an error at a file position.
    public init(line: Int, column: Int, reason: Reason) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// A one-line message, without the location.
    public var message: String {
        switch reason {
        case .unclosed: "front matter is never closed"
        case .invalidYAML(let problem): "invalid YAML in front matter: \(problem)"
        case .invalidTOML(let problem): "invalid TOML in front matter: \(problem)"
        case .notAMapping: "front matter must be a mapping of keys to values"
        case .duplicateKey(let key): "duplicate front matter key '\(key)'"
        }
    }

    /// A hint that helps fix the problem, when there is one.
    public var hint: String? {
        switch reason {
        case .unclosed(.yaml): "did you forget the closing `---` after the front matter?"
        case .unclosed(.toml): "did you forget the closing `+++` after the front matter?"
        case .invalidYAML: "quote values that contain ': ', '#' or start with '[', '{', '*' or '&'"
        case .invalidTOML: "write one `key = value` per line, with text in quotes, e.g. `title = \"Hello\"`"
        case .notAMapping: "write one `key: value` per line, e.g. `title: Hello`"
        case .duplicateKey: "remove one of the two entries"
        }
    }

    public var description: String { "\(line):\(column): \(message)" }
}
