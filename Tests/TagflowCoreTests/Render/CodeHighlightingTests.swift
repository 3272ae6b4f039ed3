import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

/// Fenced code is highlighted when the site is built, and the theme colours every token readably.
@Suite struct CodeHighlightingTests {
    static let post = """
        -- posts/2024-01-01-code.md --
        ---
        title: Code
        ---
        ```swift {2}
        let greeting = "Hello"
        print(greeting)
        ```

        ```klingon
        <b>Qapla'</b>
        ```
        """

    @Test func postsHaveHighlightedCode() async throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n" + Self.post)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let html = try fixture.output("posts/code/index.html")
        #expect(html.contains(#"<pre class="code" data-lang="swift"><code class="language-swift">"#))
        #expect(html.contains(#"<span class="tok-keyword">let</span>"#))
        #expect(html.contains(#"<span class="line marked"><span class="tok-function">print</span>"#))
        #expect(
            html.contains(
                #"<pre class="code" data-lang="klingon"><code class="language-klingon"><span class="line">&lt;b&gt;Qapla&#39;&lt;/b&gt;"#
            ))
    }

    @Test func siteSettingsTurnHighlightingOffAndLineNumbersOn() async throws {
        let off = try SiteFixture("-- site.yml --\ntitle: T\nmarkdown:\n  highlight: false\n" + Self.post)
        defer { off.remove() }
        try await SiteBuilder(siteRoot: off.site).build(to: off.output)
        let plain = try off.output("posts/code/index.html")
        #expect(!plain.contains("tok-"))
        #expect(plain.contains(#"<pre><code class="language-swift">let greeting"#))

        let numbered = try SiteFixture("-- site.yml --\ntitle: T\nmarkdown:\n  line_numbers: true\n" + Self.post)
        defer { numbered.remove() }
        try await SiteBuilder(siteRoot: numbered.site).build(to: numbered.output)
        #expect(
            try numbered.output("posts/code/index.html").contains(#"<pre class="code numbered" data-lang="swift">"#))
    }

    /// WCAG's 4.5:1 for every token colour on the code background and on a marked line's, in the
    /// light and the dark scheme of the built-in stylesheet.
    @Test func everyTokenColourIsReadableInBothSchemes() throws {
        let css = try #require(BuiltInTheme.files["assets/tagflow.css"])
        let dark = try #require(css.range(of: "@media (prefers-color-scheme: dark)"))
        let schemes = [("light", String(css[..<dark.lowerBound])), ("dark", String(css[dark.upperBound...]))]
        for (scheme, text) in schemes {
            let colours = Self.customProperties(in: text)
            let backgrounds = try ["--code-bg", "--code-marked-bg"].map { try #require(colours[$0], "\(scheme) \($0)") }
            let tokens = colours.filter { $0.key.hasPrefix("--tok-") }
            #expect(tokens.count == 12, "\(scheme): \(tokens.keys.sorted())")
            for (name, colour) in tokens.sorted(by: { $0.key < $1.key }) + [("--fg", colours["--fg"] ?? "")] {
                for background in backgrounds {
                    let ratio = try #require(Self.contrast(colour, background), "\(scheme) \(name) \(colour)")
                    #expect(ratio >= 4.5, "\(scheme) \(name) \(colour) on \(background): \(ratio)")
                }
            }
            // Every class the highlighter writes has a rule.
            for name in tokens.keys {
                let token = name.dropFirst(2)
                #expect(css.contains(".\(token) { color: var(\(name)); }"), "\(token) has no rule")
            }
        }
    }

    /// `--name: #rrggbb;` declarations (the first block of the text holding them).
    static func customProperties(in css: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in css.split(separator: "\n") {
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("--"), result[String(parts[0])] == nil else { continue }
            result[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " ;"))
        }
        return result
    }

    static func contrast(_ first: String, _ second: String) -> Double? {
        func luminance(_ hex: String) -> Double? {
            guard hex.hasPrefix("#"), hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return nil }
            let channels = [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
            let linear = channels.map { $0 <= 0.039_28 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        guard let a = luminance(first), let b = luminance(second) else { return nil }
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
