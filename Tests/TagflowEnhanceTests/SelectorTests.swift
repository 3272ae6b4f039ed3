import TagflowHTML
import Testing

@testable import TagflowEnhance

@Suite struct SelectorTests {
    static func element(_ html: String) -> ElementInfo {
        ElementInfo(HTMLScanner.tokens(of: Array(html.utf8))[0])
    }

    @Test func compoundSelectors() throws {
        let ul = Self.element(#"<ul class="post-tags big" id="t" data-kind="tags" hidden>"#)
        for text in [
            "ul", "*", ".post-tags", "ul.post-tags.big", "#t", "[data-kind]", "[data-kind=tags]", "[class~=big]",
            "[data-kind*=ag]", "[data-kind^=ta]", "[data-kind$=gs]", "UL.post-tags", "ul, p",
        ] {
            #expect(try Selector(text).matches(ul, ancestors: []), "\(text)")
        }
        for text in ["ol", ".tags", "#x", "[data-other]", "[data-kind=tag]", "[class~=bi]", "p, ol"] {
            #expect(try !Selector(text).matches(ul, ancestors: []), "\(text)")
        }
    }

    @Test func descendantAndChildCombinators() throws {
        let footer = Self.element(#"<footer class="post-info">"#)
        let div = Self.element("<div>")
        let p = Self.element("<p>")
        #expect(try Selector("footer.post-info p").matches(p, ancestors: [footer, div]))
        #expect(try Selector("footer > div > p").matches(p, ancestors: [footer, div]))
        #expect(try !Selector("footer > p").matches(p, ancestors: [footer, div]))
        #expect(try !Selector("article p").matches(p, ancestors: [footer, div]))
    }

    @Test func syntaxOutsideTheSubsetIsAnError() {
        for text in ["", "ul:hover", "a + b", "a ~ b", "[x", "ul >", "> ul", ".", "#", "[=a]", "[a|=b]"] {
            #expect(throws: Selector.ParseError.self, "\(text)") { try Selector(text) }
        }
    }
}
