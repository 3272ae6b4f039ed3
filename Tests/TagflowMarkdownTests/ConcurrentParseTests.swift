import CCmarkGFM
import Testing

@testable import TagflowMarkdown

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
