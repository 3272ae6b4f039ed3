import TagflowHTML
import TagflowMarkdown

/// A post's table of contents: a nested list of its h2 and h3 headings, linking to their ids.
enum TableOfContents {
    /// The list's HTML, or `nil` when the post has no h2 or h3 heading.
    ///
    /// An h3 before any h2 starts the list at the top level rather than under a missing parent.
    static func html(for headings: [MarkdownHeading]) -> String? {
        let shown = headings.filter { $0.level == 2 || $0.level == 3 }
        guard !shown.isEmpty else { return nil }
        var html = "<ol>"
        var openSublist = false
        var openItem = false
        for heading in shown {
            let link = "<a href=\"#\(HTMLEscaping.escaped(heading.id))\">\(HTMLEscaping.escaped(heading.text))</a>"
            if heading.level == 3, openItem {
                if !openSublist {
                    html += "<ol>"
                    openSublist = true
                }
                html += "<li>\(link)</li>"
                continue
            }
            if openSublist {
                html += "</ol>"
                openSublist = false
            }
            if openItem { html += "</li>" }
            html += "<li>\(link)"
            openItem = true
        }
        if openSublist { html += "</ol>" }
        if openItem { html += "</li>" }
        return html + "</ol>"
    }
}
