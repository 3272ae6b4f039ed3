/// How Markdown is turned into HTML.
///
/// The GitHub Flavored Markdown extensions (tables, strikethrough, autolinks, the tag filter and
/// task lists) and footnotes are always on.
public struct MarkdownOptions: Sendable, Hashable {
    /// Keep raw HTML written in Markdown.
    ///
    /// Off by default: raw HTML blocks and inline tags are dropped and `javascript:`-style URLs
    /// are removed.
    public var allowsRawHTML: Bool
    /// Turn straight quotes and `--`/`---` into typographic ones.
    public var smartPunctuation: Bool
    /// Render soft line breaks as `<br />`.
    public var hardBreaks: Bool
    /// Info strings of fenced code blocks that plugins render instead (for example `chips`).
    ///
    /// Such a block is left out of the HTML; a placeholder (``MarkdownEmbed/placeholder``) stands
    /// in its place, and the block's text is returned in ``RenderedMarkdown/embeds``.
    public var embedLanguages: Set<String>
    /// A path prefix put before root-relative link and image URLs.
    ///
    /// `/x` becomes `/blog/x`, for sites served under a sub-path. Empty by default.
    public var rootPathPrefix: String

    /// Creates options; the defaults are those of a safe GitHub-like renderer.
    public init(
        allowsRawHTML: Bool = false,
        smartPunctuation: Bool = false,
        hardBreaks: Bool = false,
        embedLanguages: Set<String> = [],
        rootPathPrefix: String = ""
    ) {
        self.allowsRawHTML = allowsRawHTML
        self.smartPunctuation = smartPunctuation
        self.hardBreaks = hardBreaks
        self.embedLanguages = embedLanguages
        self.rootPathPrefix = rootPathPrefix
    }
}

/// Writes the HTML of code blocks in place of cmark-gfm's `<pre><code>` (a syntax highlighter).
public protocol CodeBlockRenderer: Sendable {
    /// The HTML of one code block, which goes into the page as is: the renderer escapes the code.
    ///
    /// - Parameters:
    ///   - code: The block's text (each line ending in a line break).
    ///   - info: A fenced block's info string (`swift {3,5-7}`); empty for an indented block.
    /// - Returns: The block's HTML.
    func html(code: String, info: String) -> String
}

/// A Markdown document rendered to HTML, with what the site needs to know about it.
public struct RenderedMarkdown: Sendable, Hashable {
    /// The HTML of the body.
    public var html: String
    /// The headings, in document order, with the `id` each was given.
    public var headings: [MarkdownHeading]
    /// The plain text of the first paragraph (for summaries and descriptions).
    public var firstParagraph: String
    /// The number of words of text (code included).
    public var wordCount: Int
    /// Fenced blocks handed to plugins (see ``MarkdownOptions/embedLanguages``), in order.
    public var embeds: [MarkdownEmbed]
    /// The plain text of the paragraphs before a `<!--more-->` line, or `nil` without one: the
    /// author's own summary.
    public var excerpt: String?
    /// Links to other Markdown files (`[x](other.md)`), in order: the site knows their pages' URLs.
    public var fileLinks: [MarkdownFileLink]

    /// Creates a rendered document (renderers and tests build these; most code reads them).
    public init(
        html: String, headings: [MarkdownHeading] = [], firstParagraph: String = "", wordCount: Int = 0,
        embeds: [MarkdownEmbed] = [], excerpt: String? = nil, fileLinks: [MarkdownFileLink] = []
    ) {
        self.html = html
        self.headings = headings
        self.firstParagraph = firstParagraph
        self.wordCount = wordCount
        self.embeds = embeds
        self.excerpt = excerpt
        self.fileLinks = fileLinks
    }
}

/// A link whose destination is a Markdown file (`other.md`, `../pages/about.md#team`): its `href`
/// in the HTML is ``placeholder`` until the site puts the page's URL there.
public struct MarkdownFileLink: Sendable, Hashable {
    /// The destination as written.
    public var destination: String
    /// Where the link starts in the file (1-based).
    public var line: Int
    /// The column where the link starts (1-based, in bytes).
    public var column: Int
    /// The `href` the HTML holds in its place; unique within the document.
    public var placeholder: String

    /// Whether a destination names a Markdown file: a path (not a URL with a scheme, nor `//host`)
    /// ending in `.md` or `.markdown`, before any `?query` or `#fragment`.
    ///
    /// - Parameter destination: A link's destination as written.
    /// - Returns: Whether the site should resolve it.
    public static func namesMarkdownFile(_ destination: String) -> Bool {
        var destination = destination
        return destination.withUTF8 { namesMarkdownFile(utf8: $0) }
    }

    /// ``namesMarkdownFile(_:)`` of a destination's UTF-8 bytes (every link of every post is asked).
    static func namesMarkdownFile(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        guard end >= 3, bytes[0] != UInt8(ascii: "#"), !(end >= 2 && bytes[0] == slash && bytes[1] == slash) else {
            return false
        }
        func endsWith(_ suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            guard end >= count else { return false }
            return (0..<count).allSatisfy { bytes[end - count + $0] | 0x20 == suffix.utf8Start[$0] | 0x20 }
        }
        guard endsWith(".md") || endsWith(".markdown") else { return false }
        // A scheme (`https:`) makes it a URL; a colon after a slash is part of a path.
        for index in 0..<end {
            if bytes[index] == slash { return true }
            if bytes[index] == UInt8(ascii: ":") { return false }
        }
        return true
    }
}

/// A heading of a rendered document.
public struct MarkdownHeading: Sendable, Hashable {
    /// 1 to 6.
    public var level: Int
    /// The heading's plain text.
    public var text: String
    /// The `id` attribute it was given: unique in the document and stable across builds.
    public var id: String
}

/// A fenced block whose info string a plugin asked for.
public struct MarkdownEmbed: Sendable, Hashable {
    /// The first word of the info string (`chips`).
    public var language: String
    /// The rest of the info string.
    public var arguments: String
    /// The block's text.
    public var content: String
    /// The line of the block's opening fence, in the file.
    public var line: Int
    /// The text standing in the HTML where the plugin's output goes; unique within the document.
    public var placeholder: String
}
