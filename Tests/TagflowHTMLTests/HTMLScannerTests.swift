import Testing

@testable import TagflowHTML

@Suite struct HTMLScannerTests {
    static func tokens(_ html: String) -> [HTMLToken] { HTMLScanner.tokens(of: Array(html.utf8)) }

    @Test func tokensCoverEveryByteInOrder() {
        let html = "<!doctype html><p class=a>x<!-- <ul> --></p><script>if (a<b) '<ul>'</script><![CDATA[<x>]]><?pi?>"
        let bytes = Array(html.utf8)
        var position = 0
        for token in HTMLScanner.tokens(of: bytes) {
            #expect(token.range.lowerBound == position)
            position = token.range.upperBound
        }
        #expect(position == bytes.count)
    }

    @Test func markupInCommentsScriptsStylesAndCDATAIsNotTags() {
        let html = """
            <!-- <ul data-tagflow><li>a</li></ul> --><script>let s = "<ul data-tagflow>";</script>\
            <style>ul[data-tagflow]::after{content:"</ul>"}</style><textarea><b>x</b></textarea><![CDATA[<ul>]]>
            """
        let tags = Self.tokens(html).filter { $0.kind == .startTag }.map(\.name)
        #expect(tags == ["script", "style", "textarea"])
    }

    @Test func scriptEndsOnlyAtItsOwnEndTag() {
        let tokens = Self.tokens("<script>a = '</scripts>'; b = '</script >'</script><p>")
        #expect(
            tokens.map(\.kind) == [.startTag, .text, .endTag, .text, .endTag, .startTag] || tokens.last?.name == "p")
        #expect(tokens.filter { $0.kind == .startTag }.map(\.name) == ["script", "p"])
    }

    @Test func attributesWithQuotedGreaterThanAndCharacterReferences() throws {
        let tokens = Self.tokens(#"<A HREF="/tags/c&#43;&#43;/" title='a > b' data-x=plain DISABLED>C&amp;&#x2B;</A>"#)
        let start = try #require(tokens.first)
        #expect(start.kind == .startTag && start.name == "a")
        #expect(start.attribute("href") == "/tags/c++/")
        #expect(start.attribute("title") == "a > b")
        #expect(start.attribute("data-x") == "plain")
        #expect(start.attribute("disabled") == "")
        #expect(tokens.last?.kind == .endTag && tokens.last?.name == "a")
    }

    @Test func characterReferencesDecode() {
        #expect(
            CharacterReferences.decoded(Array("a &amp; b &lt;&#65;&#x42;&nbsp;&unknown; &".utf8)[...])
                == "a & b <AB\u{A0}&unknown; &")
        #expect(CharacterReferences.decoded(Array("&#0;&#xD800;&#x110000;".utf8)[...]) == "\u{FFFD}\u{FFFD}\u{FFFD}")
    }
}
