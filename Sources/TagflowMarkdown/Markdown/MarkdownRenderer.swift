internal import CCmarkGFM
internal import CCmarkTablesLink
internal import CMarkdownArena
internal import CTextScan
import TagflowConcurrency
internal import TagflowHTML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders Markdown to HTML with cmark-gfm.
///
/// ```swift
/// let page = MarkdownRenderer().render("# Hello\n\nA *short* post.")
/// // page.html == "<h1 id=\"hello\">Hello</h1>\n<p>A <em>short</em> post.</p>\n"
/// ```
///
/// Safe to use from many tasks at once. Each parse of cmark-gfm edits two process-wide tables of
/// special characters; where Tagflow can take that edit away (`CoreExtensions`), documents parse
/// in parallel, and elsewhere each parse runs under one lock. Each document's nodes live in an
/// arena of their own.
public struct MarkdownRenderer: Sendable {
    /// The options used for every document.
    public var options: MarkdownOptions
    /// What writes code blocks (a highlighter), or `nil` for cmark-gfm's `<pre><code>`.
    public var codeBlocks: (any CodeBlockRenderer)?

    /// Creates a renderer.
    public init(options: MarkdownOptions = MarkdownOptions(), codeBlocks: (any CodeBlockRenderer)? = nil) {
        self.options = options
        self.codeBlocks = codeBlocks
    }

    /// Renders one document.
    ///
    /// - Parameters:
    ///   - markdown: The Markdown text (LF line endings; see ``SourceText``).
    ///   - firstLine: The file line on which `markdown` starts, used for embed line numbers.
    /// - Returns: The HTML and what was learnt while rendering it.
    /// - Complexity: O(*n*) in the length of the text.
    public func render(_ markdown: String, firstLine: Int = 1) -> RenderedMarkdown {
        render(markdown, firstLine: firstLine, headingIDsInOnePass: true)
    }

    /// ``render(_:firstLine:)``, with each heading rendered by itself when `headingIDsInOnePass`
    /// is false (for tests that compare the two ways).
    func render(_ markdown: String, firstLine: Int, headingIDsInOnePass: Bool) -> RenderedMarkdown {
        let cmarkOptions = Self.cmarkOptions(for: options, text: markdown)
        // Every allocation cmark-gfm makes for this document comes from one arena, freed in one
        // go at the end: nothing here frees a node, a parser or a buffer by itself.
        let arena = markdown_arena_create()
        let previous = markdown_arena_enter(arena)
        defer {
            markdown_arena_leave(previous)
            markdown_arena_destroy(arena)
        }
        let memory = ArenaAllocator.shared.memory
        guard let parser = cmark_parser_new_with_mem(cmarkOptions, memory) else {
            preconditionFailure("cmark-gfm could not allocate a parser")
        }
        for syntaxExtension in CoreExtensions.shared.all {
            cmark_parser_attach_syntax_extension(parser, syntaxExtension)
        }
        var text = markdown
        let feed = {
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    cmark_parser_feed(parser, chars.baseAddress, chars.count)
                }
            }
        }
        // Only the pointer leaves the lock; the arena owns the document.
        nonisolated(unsafe) var finished: OpaquePointer?
        if let tables = CoreExtensions.shared.tables {
            let mayHaveWWWLink = Self.mayHaveWWWLink(markdown)
            tables.begin(mayHaveWWWLink)
            feed()
            finished = cmark_parser_finish(parser)
            tables.end(mayHaveWWWLink)
        } else {
            cmarkParseLock.withLock { _ in
                feed()
                finished = cmark_parser_finish(parser)
            }
        }
        guard let root = finished else { preconditionFailure("cmark-gfm returned no document") }
        let extensions = cmark_parser_get_syntax_extensions(parser)
        var rewrite = TreeRewrite(options: options, codeBlocks: codeBlocks, firstLine: firstLine, memory: memory)
        rewrite.collect(from: root)
        rewrite.apply(extensions: extensions, cmarkOptions: cmarkOptions)
        var html: String
        if !headingIDsInOnePass, rewrite.headingIDsGoInHTML {
            rewrite.renderHeadingsWithIDs(extensions: extensions, cmarkOptions: cmarkOptions)
        }
        if rewrite.headingIDsGoInHTML {
            let rendered = cmark_render_html_with_mem(root, cmarkOptions, extensions, memory)
            if let withIDs = rendered.flatMap({ rewrite.htmlWithHeadingIDs($0) }) {
                html = withIDs
            } else {
                rewrite.renderHeadingsWithIDs(extensions: extensions, cmarkOptions: cmarkOptions)
                html = Self.renderHTML(root, options: cmarkOptions, extensions: extensions, memory: memory)
            }
        } else {
            html = Self.renderHTML(root, options: cmarkOptions, extensions: extensions, memory: memory)
        }
        return RenderedMarkdown(
            html: html,
            headings: rewrite.headings,
            firstParagraph: rewrite.firstParagraph,
            wordCount: rewrite.wordCount,
            embeds: rewrite.embeds,
            excerpt: rewrite.excerpt,
            fileLinks: rewrite.fileLinks
        )
    }

    /// Whether documents parse in parallel, without `cmarkParseLock` (see `CoreExtensions`).
    static var parsesInParallel: Bool { CoreExtensions.shared.tables != nil }

    /// The cmark-gfm version `scripts/check-cmark-globals.py` checks in CI (Debian's).
    static let checkedVersion = "0.29.0.gfm.6"

    /// The version of the cmark-gfm library loaded.
    static var libraryVersion: String { String(cString: cmark_version_string()) }

    /// The cmark-gfm options for a document.
    ///
    /// Footnotes are turned on only for a text that contains `[^`, which every footnote
    /// reference and definition starts with: with them on, cmark-gfm walks the whole tree twice
    /// more after parsing, looking for them.
    static func cmarkOptions(for options: MarkdownOptions, text: String) -> Int32 {
        var flags = cmarkOptions(for: options)
        if !mayHaveFootnotes(text) { flags &= ~CMARK_OPT_FOOTNOTES }
        return flags
    }

    /// Whether `text` has a `www.` that the autolink extension could make a link: one at its
    /// start, or after a byte other than an ASCII letter, a digit or `/`.
    ///
    /// The extension tries a `www.` link only where its `w` starts the text of a paragraph,
    /// heading or cell, or follows white space or one of `*_~(`. A `www.` after a letter, a digit
    /// or `/` (`https://www.…`, by far the most common) never is one, and no block's syntax ends
    /// with one of those just before its text. Documents without one parse with `w` unmarked in
    /// cmark-gfm's table of special characters (`cmark_tables_begin_parse`), so that the inline
    /// parser does not stop at every `w` (docs/performance.md, "Markdown").
    static func mayHaveWWWLink(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count >= 4 else { return false }
            var start = base
            let end = base + bytes.count
            // `ww` rather than `w`: a `w` is every 50 bytes of English, and a scan for it stopped
            // at each (`tagflow_find_pair` looks at 16 pairs at a time).
            while end - start >= 4 {
                let offset = tagflow_find_pair(start, end - start - 2, UInt8(ascii: "w"), UInt8(ascii: "w"))
                guard offset < end - start - 2 else { break }
                let w = start + offset
                if w[2] == UInt8(ascii: "w") && w[3] == UInt8(ascii: ".") {
                    guard w > base else { return true }
                    let before = w[-1]
                    let isLetterOrDigit =
                        (before >= UInt8(ascii: "a") && before <= UInt8(ascii: "z"))
                        || (before >= UInt8(ascii: "A") && before <= UInt8(ascii: "Z"))
                        || (before >= UInt8(ascii: "0") && before <= UInt8(ascii: "9"))
                    if !isLetterOrDigit && before != UInt8(ascii: "/") { return true }
                }
                start = w + 1
            }
            return false
        }
    }

    /// Whether `text` contains `[^`.
    static func mayHaveFootnotes(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return tagflow_find_pair(base, bytes.count, UInt8(ascii: "["), UInt8(ascii: "^")) < bytes.count
        }
    }

    static func cmarkOptions(for options: MarkdownOptions) -> Int32 {
        // No CMARK_OPT_VALIDATE_UTF8: a Swift `String` is valid UTF-8 by construction, and checking
        // it again was wasted work on every post. (NUL bytes become U+FFFD either way.)
        var flags = CMARK_OPT_FOOTNOTES
        if options.allowsRawHTML { flags |= CMARK_OPT_UNSAFE }
        if options.smartPunctuation { flags |= CMARK_OPT_SMART }
        if options.hardBreaks { flags |= CMARK_OPT_HARDBREAKS }
        return flags
    }

    /// The HTML of `node`, with the buffer cmark-gfm writes it into taken from `memory` (the
    /// document's arena, which frees it).
    static func renderHTML(
        _ node: OpaquePointer, options: Int32, extensions: UnsafeMutablePointer<cmark_llist>?,
        memory: UnsafeMutablePointer<cmark_mem>
    ) -> String {
        guard let buffer = cmark_render_html_with_mem(node, options, extensions, memory) else { return "" }
        return String(cString: buffer)
    }
}

/// One lock for the whole process around each parse, taken only when documents may not parse in
/// parallel (`CoreExtensions.parsesInParallel`).
private let cmarkParseLock = Locked(())

/// The `cmark_mem` whose functions allocate from the calling thread's Markdown arena.
private struct ArenaAllocator: @unchecked Sendable {
    // @unchecked: the pointer is written once here and only read afterwards.
    let memory: UnsafeMutablePointer<cmark_mem>

    static let shared: ArenaAllocator = {
        let memory = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        memory.initialize(
            to: cmark_mem(
                calloc: markdown_arena_calloc, realloc: markdown_arena_realloc, free: markdown_arena_free))
        return ArenaAllocator(memory: memory)
    }()
}

/// The GFM extensions, registered once per process (registration is not thread-safe), and
/// whether documents may parse in parallel.
///
/// cmark-gfm marks the extensions' special characters in a process-wide table at the start of
/// each parse's inline phase and unmarks them at its end, so two parses at once race. A program
/// that links the `CCmarkTables` target (the `tagflow` executable does; no library product does)
/// has them marked once and for good (`cmark_tables_fill` says how), and then no parse writes
/// process-wide state. That needs the cmark-gfm version whose machine code
/// `scripts/check-cmark-globals.py` checks in CI (`MarkdownRenderer.checkedVersion`) and a
/// platform where the program's definition of a library function takes the place of the
/// library's own (Linux); `cmark_tables_fill` checks that it does. Anywhere else (a program that
/// uses TagflowMarkdown or TagflowCore as a library, another version) each parse takes
/// `cmarkParseLock`, and Tagflow changes nothing of cmark-gfm for the rest of the program.
private struct CoreExtensions: @unchecked Sendable {
    // @unchecked: the pointers refer to cmark-gfm's static extension objects, which are never
    // changed after registration and live as long as the process.
    let all: [OpaquePointer]
    /// `CCmarkTables`' functions, when the program links that target and its fill took: parsers
    /// with these extensions attached then parse at the same time, each bracketed by them.
    let tables: (begin: @convention(c) (Bool) -> Void, end: @convention(c) (Bool) -> Void)?

    static let shared: CoreExtensions = {
        cmark_gfm_core_extensions_ensure_registered()
        let names = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
        let all = names.map { name in
            guard let found = cmark_find_syntax_extension(name) else {
                preconditionFailure("cmark-gfm has no '\(name)' extension")
            }
            return found
        }
        guard MarkdownRenderer.libraryVersion == MarkdownRenderer.checkedVersion,
            let linked = tagflow_cmark_tables_linked()?.pointee, let fill = linked.fill,
            let begin = linked.begin_parse, let end = linked.end_parse
        else {
            return CoreExtensions(all: all, tables: nil)
        }
        let filled = all.map { UnsafeMutableRawPointer($0) as UnsafeMutableRawPointer? }
        let parallel = filled.withUnsafeBufferPointer { fill($0.baseAddress, $0.count) }
        return CoreExtensions(all: all, tables: parallel ? (begin, end) : nil)
    }()
}

/// The changes Tagflow makes to cmark-gfm's tree before rendering.
///
/// Heading ids, embeds, dropped raw HTML, held links to Markdown files and prefixed root-relative URLs. Nodes are collected in one walk and changed
/// after it, because cmark's iterator must not see a changing tree.
struct TreeRewrite {
    let options: MarkdownOptions
    let codeBlocks: (any CodeBlockRenderer)?
    let firstLine: Int
    var headings: [MarkdownHeading] = []
    var embeds: [MarkdownEmbed] = []
    var fileLinks: [MarkdownFileLink] = []
    var firstParagraph = ""
    var wordCount = 0
    /// The plain text of the paragraphs before a `<!--more-->` line, when the document has one.
    var excerpt: String?
    /// The top-level paragraphs so far, until a `<!--more-->` line is found (their text is read
    /// only then: most documents have none).
    private var leadingParagraphs: [OpaquePointer] = []

    /// Whether each heading's id is still to be put into the document's HTML (by
    /// ``htmlWithHeadingIDs(_:)``, or ``renderHeadingsWithIDs(extensions:cmarkOptions:)``).
    private(set) var headingIDsGoInHTML = false

    private var headingNodes: [OpaquePointer] = []
    /// Whether raw HTML is kept in the document: its tags could look like a heading's.
    private var keepsRawHTML = false
    private var embedNodes: [OpaquePointer] = []
    private var codeNodes: [OpaquePointer] = []
    private var rawHTMLNodes: [OpaquePointer] = []
    private var ids = HeadingIDs()
    /// The document's allocator, for the nodes and buffers made here.
    private let memory: UnsafeMutablePointer<cmark_mem>

    init(
        options: MarkdownOptions, codeBlocks: (any CodeBlockRenderer)?, firstLine: Int,
        memory: UnsafeMutablePointer<cmark_mem>
    ) {
        self.options = options
        self.codeBlocks = codeBlocks
        self.firstLine = firstLine
        self.memory = memory
    }

    mutating func collect(from root: OpaquePointer) {
        guard let iterator = cmark_iter_new(root) else { preconditionFailure("cmark-gfm could not allocate") }
        defer { cmark_iter_free(iterator) }
        var sawParagraph = false
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HEADING:
                headingNodes.append(node)
            case CMARK_NODE_PARAGRAPH where cmark_node_parent(node) == root:
                if excerpt == nil { leadingParagraphs.append(node) }
                if !sawParagraph {
                    sawParagraph = true
                    firstParagraph = plainText(of: node)
                }
            case CMARK_NODE_CODE_BLOCK:
                let info = literal(cmark_node_get_fence_info(node))
                let language = info.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
                if !language.isEmpty, options.embedLanguages.contains(language) {
                    embedNodes.append(node)
                } else {
                    wordCount += Self.words(inCString: cmark_node_get_literal(node))
                    if codeBlocks != nil { codeNodes.append(node) }
                }
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                wordCount += Self.words(inCString: cmark_node_get_literal(node))
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
                if excerpt == nil, cmark_node_parent(node) == root,
                    Self.isMoreMarker(literal(cmark_node_get_literal(node)))
                {
                    excerpt = leadingParagraphs.map { plainText(of: $0) }.joined(separator: " ")
                    leadingParagraphs = []
                }
                if options.allowsRawHTML { keepsRawHTML = true } else { rawHTMLNodes.append(node) }
            case CMARK_NODE_LINK:
                if !holdFileLink(node) { prefixRootRelativeURL(of: node) }
            case CMARK_NODE_IMAGE:
                prefixRootRelativeURL(of: node)
            default:
                break
            }
        }
    }

    mutating func apply(extensions: UnsafeMutablePointer<cmark_llist>?, cmarkOptions: Int32) {
        for node in rawHTMLNodes {
            cmark_node_unlink(node)
        }
        for node in headingNodes {
            let level = Int(cmark_node_get_heading_level(node))
            let text = plainText(of: node)
            headings.append(MarkdownHeading(level: level, text: text, id: ids.id(for: text)))
        }
        if keepsRawHTML {
            renderHeadingsWithIDs(extensions: extensions, cmarkOptions: cmarkOptions)
        } else {
            headingIDsGoInHTML = !headings.isEmpty
        }
        if let codeBlocks {
            for node in codeNodes {
                let html = codeBlocks.html(
                    code: literal(cmark_node_get_literal(node)), info: literal(cmark_node_get_fence_info(node)))
                replace(node, withLiteralHTML: html)
            }
        }
        for (index, node) in embedNodes.enumerated() {
            let info = literal(cmark_node_get_fence_info(node))
            let parts = info.split(separator: " ", maxSplits: 1)
            let placeholder = "<!--tagflow-embed-\(index)-->"
            embeds.append(
                MarkdownEmbed(
                    language: parts.first.map(String.init) ?? "",
                    arguments: parts.count > 1 ? String(parts[1]) : "",
                    content: literal(cmark_node_get_literal(node)),
                    line: Int(cmark_node_get_start_line(node)) + firstLine - 1,
                    placeholder: placeholder
                ))
            replace(node, withLiteralHTML: placeholder + "\n")
        }
    }

    /// Renders each heading by itself with its id, in place of its node.
    ///
    /// That way holds whatever else the document's HTML contains, but rendering a heading alone
    /// is as long as rendering the rest of its document, so it is left for documents with raw HTML.
    mutating func renderHeadingsWithIDs(extensions: UnsafeMutablePointer<cmark_llist>?, cmarkOptions: Int32) {
        headingIDsGoInHTML = false
        for (node, heading) in zip(headingNodes, headings) {
            var html = MarkdownRenderer.renderHTML(
                node, options: cmarkOptions, extensions: extensions, memory: memory)
            // cmark renders "<hN>…</hN>\n"; give the open tag its id.
            let openTag = "<h\(heading.level)"
            if html.hasPrefix(openTag) {
                html.insert(
                    contentsOf: " id=\"\(Self.escapeAttribute(heading.id))\"",
                    at: html.index(html.startIndex, offsetBy: openTag.count))
            }
            replace(node, withLiteralHTML: html)
        }
    }

    /// The document's HTML with each heading's id in its open tag, or `nil` unless the open
    /// tags `<h1>`…`<h6>` in it are exactly the headings, level for level.
    ///
    /// Without raw HTML, only a heading writes such a tag: text, code and attribute values are
    /// escaped, so a `<` in them is `&lt;`, and Tagflow's own blocks (embeds) are comments.
    func htmlWithHeadingIDs(_ rendered: UnsafePointer<CChar>) -> String? {
        let start = UnsafeRawPointer(rendered)
        let bytes = UnsafeRawBufferPointer(start: start, count: strlen(rendered))
        var tags: [Int] = []  // the offset of each open tag's `>`
        tags.reserveCapacity(headings.count)
        var index = 0
        while index + 3 < bytes.count {
            // `<h`, not each `<`: a post's HTML has a tag every 30 bytes or so.
            let at = index + tagflow_find_pair(start + index, bytes.count - 2 - index, 0x3C, UInt8(ascii: "h"))
            guard at + 3 < bytes.count else { break }
            let level = bytes[at + 2] &- UInt8(ascii: "0")
            if (1...6).contains(level), bytes[at + 3] == UInt8(ascii: ">") {
                guard tags.count < headings.count, headings[tags.count].level == Int(level) else { return nil }
                tags.append(at + 3)
            }
            index = at + 1
        }
        guard tags.count == headings.count else { return nil }
        var html = [UInt8]()
        html.reserveCapacity(bytes.count + headings.count * 32)
        var copied = 0
        for (tag, heading) in zip(tags, headings) {
            html.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied..<tag]))
            html.append(contentsOf: #" id=""#.utf8)
            HTMLEscaping.appendEscaped(heading.id, to: &html)
            html.append(UInt8(ascii: "\""))
            copied = tag
        }
        html.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied...]))
        return String(decoding: html, as: UTF8.self)
    }

    /// Swaps a block for a custom block whose HTML is `html` as is (custom blocks are written
    /// verbatim in safe mode too, which is what makes this safe to use for our own markup only).
    private func replace(_ node: OpaquePointer, withLiteralHTML html: String) {
        guard let custom = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, memory) else {
            preconditionFailure("cmark-gfm could not allocate a node")
        }
        cmark_node_set_on_enter(custom, html)
        cmark_node_set_on_exit(custom, "")
        cmark_node_replace(node, custom)
    }

    /// Puts a placeholder in place of a link to a Markdown file, noting where the link is.
    ///
    /// - Returns: Whether the link names a Markdown file.
    private mutating func holdFileLink(_ node: OpaquePointer) -> Bool {
        guard let url = cmark_node_get_url(node),
            url.withMemoryRebound(
                to: UInt8.self, capacity: strlen(url),
                {
                    MarkdownFileLink.namesMarkdownFile(utf8: UnsafeBufferPointer(start: $0, count: strlen(url)))
                })
        else { return false }
        let destination = literal(url)
        let placeholder = "tagflow-file-link:\(fileLinks.count)"
        fileLinks.append(
            MarkdownFileLink(
                destination: destination, line: Int(cmark_node_get_start_line(node)) + firstLine - 1,
                column: max(1, Int(cmark_node_get_start_column(node))), placeholder: placeholder))
        cmark_node_set_url(node, placeholder)
        return true
    }

    private func prefixRootRelativeURL(of node: OpaquePointer) {
        guard !options.rootPathPrefix.isEmpty else { return }
        let url = literal(cmark_node_get_url(node))
        guard url.hasPrefix("/"), !url.hasPrefix("//") else { return }
        cmark_node_set_url(node, options.rootPathPrefix + url)
    }

    /// Whether an HTML block is the excerpt marker, `<!--more-->` (spaces inside allowed).
    static func isMoreMarker(_ html: String) -> Bool {
        let compact = html.filter { !$0.isWhitespace }.lowercased()
        return compact == "<!--more-->"
    }

    private func plainText(of node: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(node) else { preconditionFailure("cmark-gfm could not allocate") }
        defer { cmark_iter_free(iterator) }
        var text = ""
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let child = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(child) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE: text += literal(cmark_node_get_literal(child))
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            default: break
            }
        }
        return text
    }

    private func literal(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// The number of runs of bytes other than space, tab, CR and LF in a node's literal, read in
    /// place: most text nodes are counted and dropped, and making each a `String` first was a
    /// measurable share of a large build.
    static func words(inCString pointer: UnsafePointer<CChar>?) -> Int {
        guard let pointer else { return 0 }
        return words(in: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// ``words(inCString:)`` of a buffer.
    ///
    /// In C (`CTextScan`), sixteen bytes at a time with SSE2: Swift has no way to turn a vector
    /// comparison into a bit mask, and the eight-bytes-at-a-time Swift loop before it took many
    /// more instructions (docs/performance.md, "Vector scans").
    static func words(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return tagflow_count_words(base, bytes.count)
    }

    static func escapeAttribute(_ text: String) -> String { HTMLEscaping.escaped(text) }
}
