import Foundation
import Testing

@testable import TagflowHighlight

@Suite struct CodeHighlighterTests {
    let highlighter = CodeHighlighter.shared

    @Test func swiftKeywordsStringsAndCommentsGetClasses() {
        let html = highlighter.html(code: "let s = \"hi\" // note\n", info: FenceInfo("swift"))
        #expect(
            html == """
                <pre class="code" data-lang="swift"><code class="language-swift"><span class="line">\
                <span class="tok-keyword">let</span> s = <span class="tok-string">&quot;hi&quot;</span> \
                <span class="tok-comment">// note</span>
                </span></code></pre>

                """)
    }

    /// One sample per language the issue names: each is highlighted (some token gets a class),
    /// and the text of the HTML is the code, byte for byte.
    @Test(arguments: LanguageSamples.all)
    func everyRequiredLanguageIsHighlightedWithoutLosingText(sample: LanguageSamples.Sample) {
        #expect(highlighter.highlights(sample.language), "\(sample.language) has no definition")
        let html = highlighter.html(code: sample.code, info: FenceInfo(sample.language))
        #expect(html.contains("<span class=\"tok-"), "\(sample.language): no token was classed")
        #expect(Self.text(of: html) == sample.code, "\(sample.language): the text changed")
        for expected in sample.expected {
            #expect(html.contains(expected), "\(sample.language): \(expected) missing in \(html)")
        }
    }

    @Test func languageNamesIgnoreCaseAndHaveShortForms() {
        for name in ["Swift", "PY", "js", "ts", "rs", "kt", "yml", "objc", "ps1", "c++", "golang", "Dockerfile", "sh"] {
            #expect(highlighter.highlights(name), "\(name)")
        }
    }

    @Test func unknownLanguageIsPlainEscapedText() {
        let html = highlighter.html(code: "<b>x</b> & y\n", info: FenceInfo("klingon"))
        #expect(!html.contains("tok-"))
        #expect(html.contains("&lt;b&gt;x&lt;/b&gt; &amp; y"))
        #expect(html.contains(#"data-lang="klingon""#))
    }

    @Test func languageNameWithHTMLCannotLeaveItsAttribute() {
        let html = highlighter.html(code: "x\n", info: FenceInfo(#""><script>alert(1)</script>"#))
        #expect(!html.contains("<script"))
        #expect(!html.contains(#""">"#))
        #expect(Self.text(of: html) == "x\n")
    }

    @Test func blockWithoutLanguageHasNoLanguageAttributes() {
        let html = highlighter.html(code: "plain\n", info: FenceInfo(""))
        #expect(html.hasPrefix(#"<pre class="code"><code><span class="line">plain"#))
    }

    @Test func markedLinesAndLineNumbersComeFromTheInfoString() {
        let code = "let a = 1\nlet b = 2\nlet c = 3\nlet d = 4\n"
        let html = highlighter.html(code: code, info: FenceInfo("swift {linenos, start=10, 2-3}"))
        #expect(html.hasPrefix(#"<pre class="code numbered" data-lang="swift" style="counter-reset: line 9">"#))
        let lines = html.components(separatedBy: "<span class=\"line")
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("\">"))
        #expect(lines[2].hasPrefix(" marked\">"))
        #expect(lines[3].hasPrefix(" marked\">"))
        #expect(lines[4].hasPrefix("\">"))
    }

    @Test func siteWideLineNumbersYieldToTheBlock() {
        let numbered = highlighter.html(code: "x\n", info: FenceInfo("swift"), lineNumbers: true)
        #expect(numbered.hasPrefix(#"<pre class="code numbered""#))
        let off = highlighter.html(code: "x\n", info: FenceInfo("swift {linenos=false}"), lineNumbers: true)
        #expect(off.hasPrefix(#"<pre class="code" "#))
    }

    @Test func anUnclosedCommentDoesNotReachTheNextBlock() {
        _ = highlighter.html(code: "/* never closed\n", info: FenceInfo("swift"))
        let html = highlighter.html(code: "let x = 1\n", info: FenceInfo("swift"))
        #expect(html.contains(#"<span class="tok-keyword">let</span>"#))
        #expect(!html.contains("tok-comment"))
    }

    @Test func emptyLinesAndAMissingFinalLineBreakKeepTheText() {
        for code in ["a\n\n\nb\n", "let x = 1", "\n", ""] {
            let html = highlighter.html(code: code, info: FenceInfo("swift {2}"))
            #expect(Self.text(of: html) == (code.hasSuffix("\n") || code.isEmpty ? code : code + "\n"), "\(code)")
        }
    }

    /// A megabyte on one line would take the library minutes (it searches the line once per
    /// token): such a block is written plain, at once.
    @Test func aMegabyteOnOneLineIsPlainText() {
        let code = String(repeating: "let x = \"a\" + b; ", count: 60_000) + "\n"
        let clock = ContinuousClock()
        var html = ""
        let elapsed = clock.measure { html = highlighter.html(code: code, info: FenceInfo("swift")) }
        #expect(!html.contains("tok-"))
        #expect(Self.text(of: html) == code)
        #expect(elapsed < .seconds(30))
    }

    @Test func longLinesUnderTheLimitAreHighlighted() {
        let line = String(repeating: "x + ", count: 1_000) + "1"
        #expect(line.utf8.count <= CodeHighlighter.longestHighlightedLine)
        let html = highlighter.html(code: line + "\n", info: FenceInfo("swift"))
        #expect(html.contains("tok-number"))
    }

    @Test func manyTasksAtOnceGetTheSameHTML() async {
        let samples = LanguageSamples.all
        let expected = samples.map { highlighter.html(code: $0.code, info: FenceInfo($0.language)) }
        let results = await withTaskGroup(of: (Int, String).self) { group in
            for round in 0..<8 {
                for (index, sample) in samples.enumerated() {
                    group.addTask {
                        _ = round
                        return (index, CodeHighlighter.shared.html(code: sample.code, info: FenceInfo(sample.language)))
                    }
                }
            }
            var results: [(Int, String)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.count == samples.count * 8)
        for (index, html) in results { #expect(html == expected[index]) }
    }

    /// The text a browser shows for the HTML: tags dropped, the five entities undone.
    static func text(of html: String) -> String {
        var text = ""
        var inTag = false
        let body = html.range(of: "</code></pre>").map { html[..<$0.lowerBound] } ?? html[...]
        for character in body {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// A release archive's layout: `bin/tagflow` finds `share/tagflow/source-highlight` above it.
@Suite struct BundledDefinitionsTests {
    @Test func theFolderBesideTheExecutableIsFoundThroughALink() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let release = root.appendingPathComponent("tagflow-0.1.0")
        let definitions = release.appendingPathComponent("share/tagflow/source-highlight")
        try FileManager.default.createDirectory(at: definitions, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: release.appendingPathComponent("bin"), withIntermediateDirectories: true)
        let executable = release.appendingPathComponent("bin/tagflow")
        try Data().write(to: executable)
        // No language map yet: not a definitions folder.
        #expect(CodeHighlighter.bundledFolder(beside: executable) == nil)
        try Data("c = c.lang\n".utf8).write(to: definitions.appendingPathComponent("lang.map"))
        let expected = definitions.resolvingSymlinksInPath().path
        #expect(CodeHighlighter.bundledFolder(beside: executable) == expected)
        let link = root.appendingPathComponent("tagflow-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: executable)
        #expect(CodeHighlighter.bundledFolder(beside: link) == expected)
        #expect(CodeHighlighter.bundledFolder(beside: nil) == nil)
    }
}
