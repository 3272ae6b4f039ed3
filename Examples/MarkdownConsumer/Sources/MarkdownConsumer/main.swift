// A program that renders Markdown with Tagflow's TagflowMarkdown library and also parses with
// cmark-gfm itself, as a generator with Markdown of its own would: Tagflow must not change how
// the program's own parses come out, and its renders must be right from many tasks at once.
//
//     swift run MarkdownConsumer      (prints "ok" and exits 0, or says what differed and exits 1)

import CMarkGFM
import Foundation
import TagflowMarkdown

/// The program's own parse: GFM autolinks and strikethrough, through cmark-gfm's API.
func ownHTML(_ text: String) -> String {
    cmark_gfm_core_extensions_ensure_registered()
    guard let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else { fatalError("cmark-gfm could not allocate") }
    defer { cmark_parser_free(parser) }
    for name in ["autolink", "strikethrough"] {
        cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension(name))
    }
    cmark_parser_feed(parser, text, text.utf8.count)
    guard let document = cmark_parser_finish(parser) else { fatalError("cmark-gfm returned no document") }
    defer { cmark_node_free(document) }
    guard let html = cmark_render_html(document, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser))
    else { return "" }
    defer { free(html) }
    return String(cString: html)
}

var failures: [String] = []
let own = "Our notes: see https://example.org and www.example.com, ~~old~~ new.\n"
let ownBefore = ownHTML(own)
if !ownBefore.contains("<a href=\"https://example.org\">") || !ownBefore.contains("<del>old</del>") {
    failures.append("the program's own parse lost its links: \(ownBefore)")
}

let documents = (0..<200).map { index in
    "# Post \(index)\n\nVisit https://example.org/\(index) or www.site\(index).example, ~~not~~ **this**.\n\n"
        + "| a | b |\n|---|---|\n| \(index) | x |\n"
}
let renderer = MarkdownRenderer()
let serial = documents.map { renderer.render($0).html }
let parallel = await withTaskGroup(of: (Int, String).self) { group in
    for (index, document) in documents.enumerated() {
        group.addTask { (index, renderer.render(document).html) }
    }
    var results = [String](repeating: "", count: documents.count)
    for await (index, html) in group { results[index] = html }
    return results
}
for index in documents.indices where parallel[index] != serial[index] {
    failures.append("document \(index) rendered differently from many tasks:\n\(parallel[index])")
}
if !serial[7].contains("<a href=\"http://www.site7.example\">") || !serial[7].contains("<table>") {
    failures.append("TagflowMarkdown lost a link or a table: \(serial[7])")
}
// The program's own parse, after Tagflow's: the same HTML as before them.
let ownAfter = ownHTML(own)
if ownAfter != ownBefore { failures.append("the program's own parse changed:\n\(ownBefore)\n\(ownAfter)") }

if failures.isEmpty {
    print("ok: \(documents.count) documents from many tasks, and the program's own cmark-gfm parses")
} else {
    for failure in failures.prefix(5) { print("FAIL \(failure)") }
    exit(1)
}
