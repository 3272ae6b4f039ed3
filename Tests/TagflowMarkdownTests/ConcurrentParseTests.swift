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
    /// lock; the test above then checks that they may.
    @Test func documentsParseInParallelWithTheCheckedVersion() {
        #if os(Linux)
            let checked = MarkdownRenderer.libraryVersion == MarkdownRenderer.checkedVersion
        #else
            let checked = false
        #endif
        #expect(MarkdownRenderer.parsesInParallel == checked)
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
