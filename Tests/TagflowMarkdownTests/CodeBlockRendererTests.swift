import Testing

@testable import TagflowMarkdown

/// A renderer that writes what it was given, so the tests see what the Markdown side hands over.
private struct EchoCodeBlocks: CodeBlockRenderer {
    func html(code: String, info: String) -> String {
        "<pre data-info=\"\(info)\">\(code.count) chars</pre>\n"
    }
}

@Suite struct CodeBlockRendererTests {
    let renderer = MarkdownRenderer(codeBlocks: EchoCodeBlocks())

    @Test func fencedAndIndentedBlocksGoToTheRenderer() {
        let page = renderer.render("```swift {3}\nlet x = 1\n```\n\n    indented\n")
        #expect(page.html == "<pre data-info=\"swift {3}\">10 chars</pre>\n<pre data-info=\"\">9 chars</pre>\n")
    }

    @Test func withoutARendererCmarkWritesTheBlock() {
        let page = MarkdownRenderer().render("```swift\nlet x = 1\n```\n")
        #expect(page.html == "<pre><code class=\"language-swift\">let x = 1\n</code></pre>\n")
    }

    @Test func embedsStayEmbedsAndCodeStillCountsAsWords() {
        let options = MarkdownOptions(embedLanguages: ["chips"])
        let page = MarkdownRenderer(options: options, codeBlocks: EchoCodeBlocks())
            .render("# Title\n\n```chips\na, b\n```\n\n```sh\necho one two\n```\n")
        #expect(page.embeds.count == 1)
        #expect(page.html.contains("<!--tagflow-embed-0-->"))
        #expect(page.html.contains("<pre data-info=\"sh\">"))
        #expect(page.html.hasPrefix("<h1 id=\"title\">Title</h1>"))
        #expect(page.wordCount == 4)
    }

    @Test func aMoreMarkerInACodeBlockIsCode() {
        let page = renderer.render("First.\n\n```html\n<!--more-->\n```\n\nLast.\n")
        #expect(page.excerpt == nil)
    }
}
