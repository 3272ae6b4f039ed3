import Foundation
import TagflowChips
import Testing

@testable import TagflowEnhance

@Suite struct PageEnhancerTests {
    static let renderer = ChipRenderer()
    static func enhancer(_ rules: [ListRule] = []) -> PageEnhancer {
        PageEnhancer(renderer: renderer, rules: rules)
    }
    static func rule(_ selector: String, items: String? = nil, weighted: Bool = false) throws -> ListRule {
        ListRule(
            selector: try Selector(selector), itemFilter: try items.map { try Selector($0) }, isWeighted: weighted,
            origin: "--selector '\(selector)'")
    }
    static func enhanced(_ html: String, _ rules: [ListRule] = []) -> (String?, PageEnhancer.Result) {
        let result = enhancer(rules).enhance(Array(html.utf8), stylesheetURL: "../assets/tagflow-chips.css")
        return (result.bytes.map { String(decoding: $0, as: UTF8.self) }, result)
    }

    static let page = """
        <!DOCTYPE html>
        <html><head><title>Post</title>
        <!-- theme comment -->
        </head>
        <body>
          <p>Before   the list &amp; after.</p>
          <ul data-tagflow aria-label="Post tags" id="tags">
            <li><a href="/tags/swift/" rel="tag" title="All Swift posts" class="tag">Swift</a>
            <li><a href="/tags/c&#43;&#43;/" aria-current="page">C&#43;&#43;</a></li>
            <li><span>No link</span></li>
          </ul>
          <p>After.</p>
        </body></html>
        """

    @Test func onlyTheListsBytesChange() throws {
        let (output, result) = Self.enhanced(Self.page)
        let text = try #require(output)
        #expect(result.replaced == 1)
        let listStart = try #require(Self.page.range(of: "<ul data-tagflow"))
        let listEnd = try #require(Self.page.range(of: "</ul>"))
        let before = String(Self.page[..<listStart.lowerBound]).replacingOccurrences(
            of: "</head>", with: #"<link rel="stylesheet" href="../assets/tagflow-chips.css"></head>"#)
        #expect(text.hasPrefix(before))
        #expect(text.hasSuffix(String(Self.page[listEnd.upperBound...])))
        // The block is exactly what the chip renderer makes of the same chips: same engine.
        let chips = [
            Chip(
                label: "Swift", url: "/tags/swift/",
                linkAttributes: [.init("rel", "tag"), .init("title", "All Swift posts"), .init("class", "tag")]),
            Chip(label: "C++", url: "/tags/c++/", isCurrent: true),
            Chip(label: "No link"),
        ]
        let block = Self.renderer.html(for: chips, label: "Post tags")
            .replacingOccurrences(of: #"<div class="tf-flow">"#, with: #"<div class="tf-flow" id="tags">"#)
        #expect(text.contains(block))
    }

    @Test func aSecondRunChangesNothing() throws {
        let (first, _) = Self.enhanced(Self.page, [try Self.rule("ul")])
        let (second, result) = Self.enhanced(try #require(first), [try Self.rule("ul")])
        #expect(second == nil)
        #expect(result.ownBlocks == 1)
        #expect(result.matchesPerRule == [0])
    }

    @Test func theStylesheetIsLinkedOnceEvenWithManyLists() throws {
        let html =
            "<html><head></head><body><ul data-tagflow><li>a</li></ul><p data-tagflow><a href=x>b</a></p></body></html>"
        let (output, result) = Self.enhanced(html)
        #expect(result.replaced == 2)
        #expect(output?.components(separatedBy: "tagflow-chips.css").count == 2)
        // Without a head, the link goes before the first block.
        let (bare, _) = Self.enhanced("<ul data-tagflow><li>a</li></ul>")
        #expect(
            bare?.hasPrefix(#"<link rel="stylesheet" href="../assets/tagflow-chips.css"><div class="tf-flow">"#) == true
        )
    }

    @Test func countsComeFromSupCountClassesDataAttributesAndTrailingText() throws {
        let html = """
            <ul class="cloud">
            <li><a href="/a/">Alpha <sup>3</sup></a></li>
            <li><a href="/b/">Beta</a> <span class="count">12</span></li>
            <li><a href="/c/" data-count="7">Gamma</a></li>
            <li><a href="/d/">Delta</a> (2)</li>
            <li><a href="/e/">Epsilon</a></li>
            </ul>
            """
        let (output, _) = Self.enhanced(html, [try Self.rule("ul.cloud", weighted: true)])
        let text = try #require(output)
        for (label, count) in [("Alpha", 3), ("Beta", 12), ("Gamma", 7), ("Delta", 2)] {
            #expect(text.contains(#">\#(label) <span class="tf-n">\#(count)</span></a>"#), "\(label)")
        }
        #expect(text.contains(">Epsilon</a>"))
        #expect(text.contains(#"class="tf-w"#), "a weighted cloud")
        // Reading order is kept.
        let order = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"].compactMap { text.range(of: ">\($0)")?.lowerBound }
        #expect(order == order.sorted() && order.count == 5)
    }

    @Test func linksWithoutListItemsAndSpansWithoutLinks() throws {
        let (links, _) = Self.enhanced(
            #"<p data-tagflow><span>Tags:</span> <a href="/a/">A</a>, <a href="/b/">B</a></p>"#)
        #expect(links?.contains(">A</a>") == true && links?.contains(">B</a>") == true)
        #expect(links?.contains("Tags:") == false, "a label span beside links is not a chip")
        let (spans, _) = Self.enhanced("<div data-tagflow><span>A</span><span>B</span></div>")
        #expect(spans?.contains("<span>A</span>") == true && spans?.contains("<span>B</span>") == true)
    }

    @Test func badListsAreLeftAsTheyWereWithAWarningAtTheirLine() throws {
        for (html, message) in [
            ("<p>x</p>\n<ul data-tagflow><li>a<ul><li>b</li></ul></li></ul>", "holds a nested list"),
            ("<p>x</p>\n<ul data-tagflow></ul>", "has no items"),
            ("<p>x</p>\n<ul data-tagflow><li>  </li></ul>", "has no items"),
            ("<p>x</p>\n<div data-tagflow><a href=x>a</a>", "is not closed"),
        ] {
            let (output, result) = Self.enhanced(html)
            #expect(output == nil, "\(html)")
            #expect(result.warnings.first?.line == 2, "\(html)")
            #expect(result.warnings.first?.message.contains(message) == true, "\(result.warnings)")
        }
    }

    @Test func hiddenListsAndTagflowsOwnBlocksAreLeftAlone() throws {
        let (hidden, _) = Self.enhanced(
            #"<nav class="md-tags" hidden><a class="md-tag" href="/t/">T</a></nav>"#,
            ListPresets.all["mkdocs-material"] ?? [])
        #expect(hidden == nil)
    }

    @Test func aPresetLeavesListsThatAreNotTagListsWithoutAWarning() throws {
        let html = """
            <footer class="post-info"><p>In <a href="category/misc.html">misc</a>.</p>
            <p>tags: <a href="tag/swift.html">Swift</a> <a href="tag/go.html">Go</a></p></footer>
            """
        let (output, result) = Self.enhanced(html, ListPresets.all["pelican"] ?? [])
        let text = try #require(output)
        #expect(result.replaced == 1)
        #expect(result.warnings.isEmpty)
        #expect(text.contains(#"<p>In <a href="category/misc.html">misc</a>.</p>"#))
        #expect(text.contains(">Swift</a>") && text.contains(">Go</a>"))
    }

    /// A browser ends a comment at `<!-->` too: the scanner must, or the list's end would be
    /// hidden and its splice would swallow the text after it.
    @Test func abruptCommentsEndWhereABrowserEndsThem() throws {
        for comment in ["<!-->", "<!--->", "<!-- x --!>"] {
            let html = #"<ul data-tagflow><li><a href="/a/">a</a></li>\#(comment)</ul><p>Post text.</p><!-- y -->"#
            let (output, result) = Self.enhanced(html)
            #expect(result.replaced == 1, "\(comment)")
            #expect(output?.hasSuffix("<p>Post text.</p><!-- y -->") == true, "\(comment): \(output ?? "")")
        }
    }

    /// A preset takes only lists of links within the site: a post's list of release links to
    /// another site (`…/releases/tag/v1.2`) stays as it is.
    @Test func presetsTakeOnlyListsOfSiteLinks() throws {
        let html = """
            <div id="content"><ul><li><a href="https://github.com/o/r/releases/tag/v1.2">v1.2</a></li>
            <li><a href="//example.org/tag/x">x</a></li></ul></div>
            """
        let (output, _) = Self.enhanced(html, ListPresets.all["pelican"] ?? [])
        #expect(output == nil)
    }

    @Test func unclosedListItemsAndUppercaseTags() throws {
        let (output, result) = Self.enhanced("<UL DATA-TAGFLOW><LI><A HREF='/a/'>A</A><LI>B</UL><p>after</p>")
        #expect(result.replaced == 1)
        #expect(output?.contains(#"<a href="/a/">A</a>"#) == true)
        #expect(output?.contains("<span>B</span>") == true)
        #expect(output?.hasSuffix("<p>after</p>") == true)
    }

    @Test func aParagraphEndsWhereABlockStarts() throws {
        // The <p> ends at the <div>, so the list is the links before it.
        let (output, _) = Self.enhanced(#"<p data-tagflow><a href="/a/">A</a><div>rest</div>"#)
        #expect(output?.hasSuffix("<div>rest</div>") == true)
    }

    @Test func tenThousandItemsAreLaidOut() throws {
        let items = (0..<10_000).map { "<li><a href=\"/t/\($0)/\">tag \($0)</a></li>" }.joined()
        let (output, result) = Self.enhanced("<ul data-tagflow>\(items)</ul>")
        #expect(result.replaced == 1)
        #expect(output?.components(separatedBy: "<li ").count == 10_001)
    }

    @Test func unsafeLinkAttributesAreNotCopied() throws {
        let (output, _) = Self.enhanced(
            #"<ul data-tagflow><li><a href="/a/" onclick="alert(1)" style="color:red" data-id="7">A</a></li></ul>"#)
        let text = try #require(output)
        #expect(!text.contains("onclick") && !text.contains("color:red"))
        #expect(text.contains(#"data-id="7""#))
    }
}
