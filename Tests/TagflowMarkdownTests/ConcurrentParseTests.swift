import CCmarkGFM
import Testing

@testable import TagflowMarkdown

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Proves that parses may run at once: concurrent renders equal a serial render.
///
/// cmark-gfm edits a process-wide table of special characters during each parse; where that
/// edit is not taken away (`CCmarkTables`) and parses are not serialised, concurrent parses
/// silently lose autolinks and strikethrough. This renders one document from many tasks and
/// compares every result with a serial render.
@Suite struct ConcurrentParseTests {
    static let document = (1...40).map { index in
        "Line \(index): see https://example.org/\(index) and www.site\(index).example, ~~old~~ **new** "
            + "| not a table | and a footnote[^\(index)].\n\n[^\(index)]: Note \(index).\n"
    }.joined(separator: "\n")

    /// Where CI runs (Linux, Debian's cmark-gfm), documents must parse in parallel, without the
    /// lock; the test below then checks that they may.
    @Test func documentsParseInParallelWithTheCheckedVersion() {
        #if os(Linux)
            let checked = MarkdownRenderer.libraryVersion == MarkdownRenderer.checkedVersion
        #else
            let checked = false
        #endif
        #expect(MarkdownRenderer.parsesInParallel == checked)
    }

    /// Another user of cmark-gfm in the process, parsing with an extension of its own that marks
    /// `:`, must not take the marks away from Tagflow's parses: its unmark, passed on to the
    /// library, would clear `:` and `w` for every parse after it, and no autolink would be found.
    @Test func aParserWithAnExtensionOfItsOwnLeavesTheMarks() {
        let renderer = MarkdownRenderer()
        let document = "see https://example.org and ~~old~~"
        let expected = renderer.render(document).html
        #expect(expected.contains("<a href=\"https://example.org\">") && expected.contains("<del>old</del>"))

        let memory = cmark_get_default_mem_allocator()
        guard let own = cmark_syntax_extension_new("tagflow-test-colon"),
            let parser = cmark_parser_new(CMARK_OPT_DEFAULT)
        else {
            Issue.record("cmark-gfm could not allocate")
            return
        }
        cmark_syntax_extension_set_match_inline_func(own) { _, _, _, _, _ in nil }
        let colon = UnsafeMutableRawPointer(bitPattern: Int(UInt8(ascii: ":")))
        cmark_syntax_extension_set_special_inline_chars(own, cmark_llist_append(memory, nil, colon))
        cmark_parser_attach_syntax_extension(parser, own)
        cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension("autolink"))
        let text = "Their text: https://example.com\n"
        cmark_parser_feed(parser, text, text.utf8.count)
        let theirs = cmark_parser_finish(parser)
        cmark_node_free(theirs)
        cmark_parser_free(parser)
        cmark_syntax_extension_free(memory, own)

        #expect(renderer.render(document).html == expected)
    }

    /// `w` is marked in cmark-gfm's table only while a document that could have a `www.` link
    /// parses (`cmark_tables_begin_parse`): such documents keep their links while others parse
    /// beside them without the mark, and every document renders in parallel, with the mark or
    /// without it, as it does alone.
    @Test func wwwLinksSurviveDocumentsParsingWithoutTheMark() async {
        let renderer = MarkdownRenderer()
        let documents = (0..<300).map { index in
            index % 3 == 0
                ? "Post \(index): visit www.site\(index).example/page _now_, with words, **well** worded.\n"
                : "Post \(index): a walk with few *words*, see [the wiki](https://www.example.org/w/\(index)) "
                    + "and `www.code` and  \nwow.\n"
        }
        let alone = documents.map { renderer.render($0).html }
        for (index, html) in alone.enumerated() where index % 3 == 0 {
            #expect(html.contains("<a href=\"http://www.site\(index).example/page\">"), "\(html)")
        }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<4 {
                        for index in stride(from: (worker + round) % 8, to: documents.count, by: 8)
                        where renderer.render(documents[index]).html != alone[index] {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0, "\(mismatches) of 1200 concurrent renders differed from rendering alone")
    }

    /// A program that also parses with cmark-gfm directly, with a core extension alone, keeps its
    /// `www.` links while Tagflow's parses may unmark `w`: its calls to mark and unmark arrive
    /// outside a Tagflow parse, and `w` stays marked between them.
    @Test func aPlainParserBesideTagflowKeepsItsWWWLinks() async {
        let renderer = MarkdownRenderer()
        let withoutLinks = "Words, words and a few w's; nothing to link.\n"
        let link = "<a href=\"http://www.example.org\">"
        _ = renderer.render(withoutLinks)
        #expect(Self.renderOutsideTagflow("Visit www.example.org today.\n").contains(link))

        let misses = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var missed = 0
                    for _ in 0..<150 {
                        if worker % 2 == 0 {
                            _ = renderer.render(withoutLinks)
                        } else if !Self.renderOutsideTagflow("Visit www.example.org today.\n").contains(link) {
                            missed += 1
                        }
                    }
                    return missed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(misses == 0, "\(misses) of 450 parses outside Tagflow lost their www. link")
    }

    /// Parses and renders `text` as a program using cmark-gfm by itself would, with the autolink
    /// extension (which Tagflow's parsers also attach).
    static func renderOutsideTagflow(_ text: String) -> String {
        guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else { return "cmark-gfm could not allocate" }
        defer { cmark_parser_free(parser) }
        cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension("autolink"))
        cmark_parser_feed(parser, text, text.utf8.count)
        guard let document = cmark_parser_finish(parser) else { return "no document" }
        defer { cmark_node_free(document) }
        guard let html = cmark_render_html(document, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser))
        else { return "no HTML" }
        defer { free(html) }
        return String(cString: html)
    }

    @Test(arguments: [
        ("www.example.org", true), ("see www.example.org", true), ("(www.x.y)", true), ("*www.x.y*", true),
        ("a\nwww.x.y", true), ("|www.x.y|", true), ("> www.x.y", true), ("~www.x.y~", true),
        ("https://www.example.org", false), ("[a](https://www.example.org)", false), ("awww.x.y", false),
        ("1www.x.y", false), ("no links here", false), ("www", false), ("wwwx.y", false), ("ww.w.x", false),
        ("", false), ("Zwww.", false),
    ])
    func wwwLinksAreLookedForWhereTheExtensionLooks(text: String, mayBeALink: Bool) {
        #expect(MarkdownRenderer.mayHaveWWWLink(text) == mayBeALink)
    }

    @Test func parallelRendersEqualASerialRender() async {
        let renderer = MarkdownRenderer()
        let expected = renderer.render(Self.document).html
        #expect(expected.contains("<a href=\"https://example.org/40\">"))
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for _ in 0..<150 where renderer.render(Self.document).html != expected { wrong += 1 }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0, "\(mismatches) of 1200 concurrent renders differed from the serial render")
    }
}
