import CTextScan
import Testing

@testable import TagflowMarkdown

@Suite struct MarkdownRendererTests {
    let renderer = MarkdownRenderer()

    @Test func rendersCommonMark() {
        #expect(renderer.render("Hello *world*").html == "<p>Hello <em>world</em></p>\n")
    }

    /// Text in any script, NUL and the Unicode edge characters come out as written (NUL as
    /// U+FFFD), without cmark-gfm's own UTF-8 check: a `String` is valid UTF-8 already.
    @Test func keepsEveryCharacterOfValidText() {
        let text = "日本語 é e\u{301} 🚀 \u{FEFF}\u{2028}\u{10FFFF} \u{7F}"
        #expect(MarkdownRenderer().render(text).html == "<p>\(text)</p>\n")
        #expect(MarkdownRenderer().render("a\0b").html == "<p>a\u{FFFD}b</p>\n")
    }

    @Test func rendersGFMExtensions() {
        let html = renderer.render(
            """
            | a | b |
            |---|:-:|
            | 1 | 2 |

            ~~gone~~ and https://example.org and www.example.com

            - [x] done
            - [ ] todo
            """
        ).html
        #expect(html.contains("<table>"))
        #expect(html.contains("<th align=\"center\">b</th>"))
        #expect(html.contains("<del>gone</del>"))
        #expect(html.contains("<a href=\"https://example.org\">https://example.org</a>"))
        #expect(html.contains("<a href=\"http://www.example.com\">www.example.com</a>"))
        #expect(html.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> done"))
        #expect(html.contains("<input type=\"checkbox\" disabled=\"\" /> todo"))
    }

    @Test func rendersFootnotes() {
        let html = renderer.render("Text[^1].\n\n[^1]: The note.\n").html
        #expect(html.contains("class=\"footnotes\""))
        #expect(html.contains("The note."))
        #expect(html.contains("href=\"#fn-1\"") || html.contains("href=\"#fn1\""))
    }

    /// Footnotes are parsed only in a text with `[^`, which every footnote reference and
    /// definition starts with.
    @Test func looksForFootnotesOnlyWhereTheyCanBe() {
        for text in ["[^1]", "Text[^a].", "a [ b [^", "日本語[^注]"] {
            #expect(MarkdownRenderer.mayHaveFootnotes(text), "\(text)")
        }
        for text in ["", "[", "^[", "[ ^", "a [b] ^c [", "[\n^1]: no"] {
            #expect(!MarkdownRenderer.mayHaveFootnotes(text), "\(text)")
        }
        // Brackets and carets that are not `[^` stay what they are.
        let text = "A [link][ref], ^[x] and [y]^\n\n[ref]: /a\n\n* a ^ [b]\n"
        #expect(!MarkdownRenderer.mayHaveFootnotes(text))
        #expect(
            renderer.render(text).html
                == "<p>A <a href=\"/a\">link</a>, ^[x] and [y]^</p>\n<ul>\n<li>a ^ [b]</li>\n</ul>\n")
        #expect(renderer.render(text + "\nNote[^n].\n\n[^n]: here\n").html.contains("class=\"footnotes\""))
    }

    @Test func dropsRawHTMLUnlessAllowed() {
        let markdown = "<div class=\"x\">block</div>\n\nInline <kbd>K</kbd> and <script>alert(1)</script>.\n"
        let safe = renderer.render(markdown).html
        #expect(!safe.contains("<div"))
        #expect(!safe.contains("<kbd>"))
        #expect(!safe.contains("<script"))
        #expect(!safe.contains("raw HTML omitted"))
        #expect(safe.contains("K"))
        let unsafe = MarkdownRenderer(options: MarkdownOptions(allowsRawHTML: true)).render(markdown).html
        #expect(unsafe.contains("<div class=\"x\">block</div>"))
        #expect(unsafe.contains("<kbd>K</kbd>"))
        // The tag filter extension still neutralises <script> when raw HTML is allowed.
        #expect(unsafe.contains("&lt;script>"))
    }

    @Test func removesDangerousURLsInSafeMode() {
        let html = renderer.render("[x](javascript:alert(1))").html
        #expect(!html.contains("javascript:"))
    }

    /// The byte-by-byte path for ASCII headings gives the same ids as the `Character` rules:
    /// every ASCII string of one or two bytes, and longer mixes.
    @Test func asciiHeadingSlugsFollowTheCharacterRules() {
        let bytes = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        var texts = bytes + bytes.flatMap { first in bytes.map { first + $0 } }
        texts += ["Hello, World!", "  Tabs\tand\r\nCRLF  ", "snake_case-and-dash 42", "ÀB mixed", "e\u{301}e"]
        for text in texts {
            #expect(HeadingIDs.slug(text) == HeadingIDs.unicodeSlug(text), "\(Array(text.utf8))")
        }
    }

    /// Longer strings, which take the vector path (16 bytes) and the portable one (8 bytes):
    /// seeded mixes of edge bytes of every length up to 70 (four blocks and every tail), against
    /// splitting.
    @Test func wordCountsMatchSplittingOnLongerByteStrings() {
        let edges: [UInt8] = [1, 9, 10, 13, 31, 32, 33, 0x7F, 0x80, 0xA0, 0xFF, 0x61]
        let spaces: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in 0...70 {
            for _ in 0..<300 {
                let bytes = (0..<length).map { _ in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return edges[Int(state >> 59) % edges.count]
                }
                let expected = bytes.split(whereSeparator: { spaces.contains($0) }).count
                #expect(bytes.withUnsafeBytes { TreeRewrite.words(in: $0) } == expected, "\(bytes)")
                // The eight-bytes-at-a-time count that processors without SSE2 run.
                let portable = bytes.withUnsafeBytes { tagflow_count_words_portable($0.baseAddress, $0.count) }
                #expect(portable == expected, "\(bytes)")
            }
        }
    }

    /// The pair scan finds the first `first` byte followed by `second` at every position of
    /// texts of every length up to 70 (four blocks and every tail), with lone halves of the pair
    /// around it (a `<` not before `h`, an `h` not after `<`), across block boundaries and at the
    /// very end, as the byte-at-a-time loop does.
    @Test func findsTheFirstPairAnywhere() {
        let fillers: [UInt8] = [0x61, 0x3C, 0x00, 0x68, 0x80, 0x3C, 0x3C, 0xE6, 0x20]
        func first(_ bytes: [UInt8]) -> (vector: Int, portable: Int) {
            bytes.withUnsafeBytes {
                (
                    tagflow_find_pair($0.baseAddress, $0.count, 0x3C, 0x68),
                    tagflow_find_pair_portable($0.baseAddress, $0.count, 0x3C, 0x68)
                )
            }
        }
        for length in 0...70 {
            // No `<h` in the fillers: each `<` is followed by NUL, `<` or 0xE6, and the `h` follows NUL.
            var bytes = (0..<length).map { fillers[$0 % fillers.count] }
            #expect(first(bytes) == (length, length), "\(length)")
            for position in 0..<max(length - 1, 0) {
                let kept = (bytes[position], bytes[position + 1])
                (bytes[position], bytes[position + 1]) = (0x3C, 0x68)
                #expect(first(bytes) == (position, position), "\(length) \(position)")
                // A second pair later does not hide the first.
                if position + 5 < length {
                    let later = (bytes[position + 4], bytes[position + 5])
                    (bytes[position + 4], bytes[position + 5]) = (0x3C, 0x68)
                    #expect(first(bytes) == (position, position))
                    (bytes[position + 4], bytes[position + 5]) = later
                }
                (bytes[position], bytes[position + 1]) = kept
            }
            // Half a pair at the very end is none.
            if length > 0 {
                bytes[length - 1] = 0x3C
                #expect(first(bytes) == (length, length))
            }
        }
    }

    /// Texts of thousands of words: each vector lane counts in a byte, which must not wrap.
    @Test func wordCountsOfLongTextsDoNotWrap() {
        let texts: [[UInt8]] = [
            Array(String(repeating: "a ", count: 9_000).utf8),  // a word starting in every other byte
            Array(String(repeating: "ab\n", count: 7_001).utf8),
            Array(String(repeating: "x", count: 20_000).utf8),  // one word
            Array(String(repeating: " \t\r\n", count: 3_000).utf8),  // none
        ]
        for bytes in texts {
            let expected = bytes.split(whereSeparator: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }).count
            #expect(bytes.withUnsafeBytes { TreeRewrite.words(in: $0) } == expected)
            #expect(bytes.withUnsafeBytes { tagflow_count_words_portable($0.baseAddress, $0.count) } == expected)
        }
    }

    @Test func wordsAreRunsOfNonSpaceBytes() {
        for (text, count) in [("", 0), (" one\ttwo\r\nthree  four ", 4), ("標籤 布局 🙂", 3), ("a b\tc", 3)] {
            text.withCString { #expect(TreeRewrite.words(inCString: $0) == count, "\(text)") }
        }
        #expect(TreeRewrite.words(inCString: nil) == 0)
    }

    /// Every string of one to three bytes from 1–255 (weighted to the edges), against splitting.
    @Test func wordCountsMatchSplittingOnEveryShortByteString() {
        let edges: [UInt8] = [1, 8, 9, 10, 11, 12, 13, 14, 31, 32, 33, 127, 128, 255]
        let all = (1...255).map { UInt8($0) }
        var strings = all.map { [$0] } + all.flatMap { first in all.map { [first, $0] } }
        strings += edges.flatMap { a in edges.flatMap { b in edges.map { c in [a, b, c] } } }
        let spaces: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        for bytes in strings {
            let expected = bytes.split(whereSeparator: { spaces.contains($0) }).count
            let counted = (bytes + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { TreeRewrite.words(inCString: $0.baseAddress) }
            }
            #expect(counted == expected, "\(bytes)")
        }
    }

    @Test func headingsGetStableUniqueIDs() {
        let page = renderer.render(
            "# Hello, World!\n\n## Hello world\n\n## Hello, World!\n\n### 标签 布局\n\n## `code` *em*\n")
        #expect(page.headings.map(\.id) == ["hello-world", "hello-world-1", "hello-world-2", "标签-布局", "code-em"])
        #expect(page.html.contains("<h1 id=\"hello-world\">Hello, World!</h1>"))
        #expect(page.html.contains("<h2 id=\"code-em\"><code>code</code> <em>em</em></h2>"))
        #expect(page.headings[0].level == 1)
        #expect(renderer.render("# Hello, World!").html == renderer.render("# Hello, World!").html)
    }

    /// Heading ids put into the document's HTML in one pass give what rendering each heading by
    /// itself gives: for headings anywhere (lists, quotes, footnotes, beside tables), for text,
    /// code and URLs that spell `<h2>`, and with raw HTML (dropped, or kept: then each heading is
    /// rendered by itself).
    @Test func headingIDsInOnePassMatchHeadingsRenderedOneByOne() {
        let documents = [
            "# One\n\ntext\n\n## Two\n\n### Three\n",
            "Setext\n======\n\n- # In a list\n  ## Deeper\n\n> ## Quoted\n> text\n",
            "Text with a note.[^n]\n\n[^n]: A note.\n\n    # not a heading\n\n## After\n",
            "[^a]\n\n[^a]: # Heading in a note\n\n# Main\n",
            "| a | b |\n|---|---|\n| <h2> | `<h3>` |\n\n## Table above\n",
            "`<h1>` and \\<h2> and &lt;h3&gt;\n\n```\n<h4>\n```\n\n#### Real\n",
            "[<h2>](</x<h2>> \"<h2>\") ![<h5>](/i.png \"<h6>\") <https://e.org/<h2>>\n\n## End\n",
            "<h2>raw</h2>\n\n## Real one\n\nInline <h3>raw</h3> html.\n\n###### Six\n",
            "# Same\n\n# Same\n\n# `Same`\n\n# *Same* <span>x</span>\n",
            "No headings at all, <h1>only raw</h1>.\n",
            "```tagflow-chips\na, b\n```\n\n# After an embed\n",
            "# \"Quotes\" & <ampersands>\n\n## 标签 布局 🙂\n",
        ]
        for allowsRawHTML in [false, true] {
            let renderer = MarkdownRenderer(
                options: MarkdownOptions(allowsRawHTML: allowsRawHTML, embedLanguages: ["tagflow-chips"]))
            for document in documents {
                let onePass = renderer.render(document, firstLine: 1, headingIDsInOnePass: true)
                let oneByOne = renderer.render(document, firstLine: 1, headingIDsInOnePass: false)
                #expect(onePass.html == oneByOne.html, "\(document)")
                #expect(onePass.headings == oneByOne.headings, "\(document)")
                #expect(onePass.embeds == oneByOne.embeds, "\(document)")
                for heading in onePass.headings {
                    #expect(onePass.html.contains("<h\(heading.level) id=\""), "\(document)")
                }
            }
        }
    }

    @Test func prefixesRootRelativeURLs() {
        let renderer = MarkdownRenderer(options: MarkdownOptions(rootPathPrefix: "/blog"))
        let html = renderer.render("[a](/posts/x/) [b](//cdn.example/x) [c](https://e.org/) ![i](/images/f.svg)").html
        #expect(html.contains("href=\"/blog/posts/x/\""))
        #expect(html.contains("href=\"//cdn.example/x\""))
        #expect(html.contains("href=\"https://e.org/\""))
        #expect(html.contains("src=\"/blog/images/f.svg\""))
    }

    @Test func embedsAreHandedOutWithTheirLines() {
        let renderer = MarkdownRenderer(options: MarkdownOptions(embedLanguages: ["chips"]))
        let page = renderer.render(
            "Intro\n\n```chips wide\nSwift\nRust -> /r/\n```\n\n```swift\nlet x = 1\n```\n", firstLine: 5)
        #expect(page.embeds.count == 1)
        let embed = page.embeds.first
        #expect(embed?.language == "chips")
        #expect(embed?.arguments == "wide")
        #expect(embed?.content == "Swift\nRust -> /r/\n")
        #expect(embed?.line == 7)
        #expect(page.html.contains(embed?.placeholder ?? "?"))
        #expect(page.html.contains("language-swift"))
    }

    @Test func collectsFirstParagraphAndWordCount() {
        let page = renderer.render("# Title\n\nFirst *para* here.\n\nSecond one.\n")
        #expect(page.firstParagraph == "First para here.")
        #expect(page.wordCount == 6)
    }
}
