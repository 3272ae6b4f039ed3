import Foundation
import Testing

@testable import TagflowCore

@Suite struct SlugTests {
    @Test(arguments: [
        ("Swift", "swift"), ("Server Side Swift", "server-side-swift"), ("C++", "c-plus-plus"), ("C#", "c-sharp"),
        ("C", "c"), (".NET", "dot-net"), ("F#", "f-sharp"), ("async/await", "async-await"), ("async", "async"),
        ("Q&A", "q-and-a"), ("100% coverage", "100-percent-coverage"), ("Café", "cafe"), ("Zürich", "zurich"),
        ("naïve Bayes", "naive-bayes"), ("Crème brûlée", "creme-brulee"), ("标签布局", "标签布局"), ("レイアウト", "レイアウト"),
        ("한국어", "한국어"), ("Русский", "русский"), ("Exercise 💪", "exercise"), ("#hashtag", "hashtag"),
        ("Swift 5.9", "swift-5-9"), ("Node.js", "node-js"), ("  spaced   out ", "spaced-out"), ("Straße", "strasse"),
        ("💪", "u1f4aa"),
    ])
    func slugs(name: String, expected: String) {
        #expect(Slug(from: name).rawValue == expected)
    }

    @Test func slugsAreURLSafeAfterEncoding() {
        for name in ["C#", "a/b", "x?y", "标签", "Rocket 🚀", "tilde~tag"] {
            let encoded = percentEncodedPath(Slug(from: name).rawValue)
            #expect(!encoded.contains("#") && !encoded.contains("?") && !encoded.contains("/"), "\(name) → \(encoded)")
        }
    }

    @Test func validatedRejectsTraversalAndSlashes() {
        for bad in ["../../etc/x", "/etc/passwd", "a/b", "..", ".hidden", "a\\b", "", "two words"] {
            #expect(Slug.validated(bad) == nil, "\(bad) should be rejected")
        }
        #expect(Slug.validated("my-post_2.0")?.rawValue == "my-post_2.0")
        #expect(Slug.validated("标签")?.rawValue == "标签")
    }

    /// Every string of up to three pieces from a set of plain, edge and non-ASCII text.
    static let shortStrings: [String] = {
        let pieces = [
            "a", "Z", "0", "-", "_", ".", " ", "  ", "/", "\\", "\t", "\n", "~", "é", "e\u{301}", "标", "\u{A0}",
        ]
        var strings = [""]
        for _ in 0..<3 { strings += strings.flatMap { prefix in pieces.map { prefix + $0 } } }
        return Array(Set(strings))
    }()

    @Test func validatedTakesTheSameDecisionOnTheASCIIPath() {
        for text in Self.shortStrings {
            #expect(Slug.validated(text) == Slug.unicodeValidated(text), "\(text.debugDescription)")
        }
    }

    /// Every ASCII name of up to four pieces gets the same slug from its bytes as by `Character`.
    @Test func asciiNamesGetTheSameSlugFromTheirBytes() {
        let pieces = ["a", "Q", "7", "+", "#", "&", "%", "@", ".", " ", "-", "_", "!", "\r\n", "\t", "~"]
        var names = [""]
        for _ in 0..<4 { names += names.flatMap { prefix in pieces.map { prefix + $0 } } }
        for name in Set(names) {
            let unicode = Slug.unicodeSlug(name)
            if let fromBytes = Slug.asciiSlug(name) {
                #expect(fromBytes == unicode, "\(name.debugDescription)")
            } else {
                // Only a name with no letter, digit or spelt-out sign is left to the other path.
                let hasWord = name.contains { $0.isLetter || $0.isNumber || "+&%@".contains($0) }
                #expect(!hasWord, "\(name.debugDescription)")
            }
            #expect(Slug(from: name).rawValue == unicode, "\(name.debugDescription)")
        }
        #expect(Slug.asciiSlug("Café") == nil)
        #expect(Slug.asciiSlug("C# & .NET") == "c-sharp-and-dot-net")
    }

    @Test func percentEncodesNonASCII() {
        #expect(percentEncodedPath("/tags/标签/") == "/tags/%E6%A0%87%E7%AD%BE/")
        #expect(percentEncodedPath("/a b/") == "/a%20b/")
        #expect(percentEncodedPath("/x\u{1}y%~/") == "/x%01y%25~/")
        #expect(percentEncodedPath("/posts/plain-slug_1.0~/") == "/posts/plain-slug_1.0~/")
    }
}

@Suite struct TagKeyTests {
    @Test func caseAndSpacingDoNotMatter() {
        #expect(TagKey("Swift") == TagKey("swift "))
        #expect(TagKey("SWIFT") == TagKey("  swift"))
        #expect(TagKey("Flow  Layout") == TagKey("flow layout"))
    }

    @Test func unicodeNormalisationDoesNotMatter() {
        #expect(TagKey("Cafe\u{301}") == TagKey("Café"))
        #expect(TagKey("Cafe\u{301}").rawValue == "café")
    }

    @Test func cleanedSpellingIsTheSameOnTheASCIIPath() {
        // Twice: the second round reads the spellings the first one kept.
        for _ in 0..<2 {
            for text in SlugTests.shortStrings {
                let normalized = Self.normalizedSpelling(text)
                #expect(TagKey.cleanedSpelling(text) == normalized, "\(text.debugDescription)")
                #expect(TagKey.unicodeCleanedSpelling(text) == normalized, "\(text.debugDescription)")
                #expect(TagKey(text).rawValue == normalized.lowercased(), "\(text.debugDescription)")
            }
        }
    }

    /// Past the bound, the kept spellings are dropped and made again, still right.
    @Test func keptSpellingsStayRightPastTheirBound() {
        for number in 0..<10_100 {
            let name = "Tag  \(number) é"
            #expect(TagKey.unicodeCleaned(name) == ("Tag \(number) é", "tag \(number) é"))
        }
    }

    /// The rule, without the ASCII path or the kept spellings.
    static func normalizedSpelling(_ name: String) -> String {
        name.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").precomposedStringWithCanonicalMapping
    }

    @Test func punctuationMatters() {
        let keys: Set = [TagKey("C"), TagKey("C++"), TagKey("C#"), TagKey("async"), TagKey("async/await")]
        #expect(keys.count == 5)
    }
}
