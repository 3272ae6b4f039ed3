import Testing

@testable import TagflowMarkdown

/// `<!--more-->` ends the author's summary.
@Suite struct ExcerptTests {
    static let renderer = MarkdownRenderer(options: MarkdownOptions())

    @Test func theParagraphsBeforeTheMarkerAreTheExcerpt() {
        let text = "First *one*.\n\nSecond [link](/x/).\n\n<!--more-->\n\nThe rest.\n"
        let rendered = Self.renderer.render(text)
        #expect(rendered.excerpt == "First one. Second link.")
        #expect(rendered.firstParagraph == "First one.")
        #expect(!rendered.html.contains("more"), "the marker is not in the page (raw HTML is off)")
        #expect(rendered.html.contains("The rest."))
    }

    @Test func aMarkerInCodeOrInAParagraphIsText() {
        #expect(Self.renderer.render("Intro.\n\n```\n<!--more-->\n```\n\nRest.\n").excerpt == nil)
        #expect(Self.renderer.render("Intro `<!--more-->` inline.\n\nRest.\n").excerpt == nil)
        #expect(Self.renderer.render("No marker at all.\n").excerpt == nil)
    }

    @Test func spacesAndCaseInTheMarker() {
        #expect(Self.renderer.render("A.\n\n<!-- more -->\n\nB.\n").excerpt == "A.")
        #expect(Self.renderer.render("A.\n\n<!--MORE-->\n").excerpt == "A.")
        #expect(Self.renderer.render("A.\n\n<!--more-->\n\nB.\n\n<!--more-->\n").excerpt == "A.", "the first one")
    }
}
