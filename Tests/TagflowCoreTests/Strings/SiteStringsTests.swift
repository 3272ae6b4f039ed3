import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// The theme's words in the site's language: the built-in tables, plural rules, dates,
/// `strings:` in site.yml, right-to-left pages and a post's own `lang`.
@Suite struct SiteStringsTests {
    /// Every built-in language has every string, keeps each string's placeholders, and gives
    /// forms only for the plural categories its numbers take.
    @Test(arguments: BuiltInStrings.tables.keys.sorted())
    func everyBuiltInTableIsComplete(language: String) throws {
        let table = try #require(BuiltInStrings.tables[language])
        #expect(Set(table.keys) == Set(SiteStrings.keys.map(\.name)), "\(language)")
        let categories = PluralCategory.used(by: language)
        for key in SiteStrings.keys {
            guard let phrase = table[key.name] else { continue }
            for (category, text) in phrase.forms {
                #expect(!text.isEmpty, "\(language).\(key.name)")
                let problem = SiteStrings.problem(in: text, of: key, needsAll: category == .other)
                #expect(problem == nil, "\(language).\(key.name).\(category): \(problem ?? "")")
                #expect(key.isCounted || category == .other, "\(language).\(key.name) is not counted")
                #expect(categories.contains(category), "\(language).\(key.name): \(category) is never used")
            }
        }
    }

    /// docs/templates.md lists every string with its English text.
    @Test func theReferenceListsEveryString() throws {
        let text = try String(contentsOf: TemplateReferenceTests.reference, encoding: .utf8)
        let start = try #require(text.range(of: "### Strings\n"))
        let rows = text[start.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| `") }
        var documented: [String] = []
        let english = SiteStrings(language: "en")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let names = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map { String($0.element) }
            documented += names
            if names.count == 1, let key = SiteStrings.keysByName[names[0]] {
                let shown =
                    key.isCounted
                    ? english.counted(key.name, 2).replacingOccurrences(of: "2", with: "{count}")
                    : english.text(key.name)
                #expect(cells[1].hasSuffix(shown), "\(key.name): \(cells[1]) vs \(shown)")
            }
        }
        #expect(documented == SiteStrings.keys.map(\.name))
    }

    @Test func pluralCategoriesFollowCLDR() {
        func categories(_ language: String, _ counts: [Int]) -> [PluralCategory] {
            counts.map { PluralCategory.of($0, language: language) }
        }
        #expect(categories("en", [0, 1, 2, 21]) == [.other, .one, .other, .other])
        #expect(categories("de-CH", [1, 2]) == [.one, .other])
        #expect(categories("fr", [0, 1, 2]) == [.one, .one, .other])
        #expect(categories("pt-PT", [0, 1]) == [.other, .one])
        #expect(categories("ja", [0, 1, 2]) == [.other, .other, .other])
        #expect(categories("he", [1, 2, 3, 20]) == [.one, .two, .other, .other])
        #expect(
            categories("ar", [0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111])
                == [.zero, .one, .two, .few, .few, .many, .many, .other, .other, .few, .many])
        #expect(categories("ru", [1, 2, 5, 11, 21, 22, 112]) == [.one, .few, .many, .many, .one, .few, .many])
        #expect(categories("pl", [1, 2, 5, 12, 22]) == [.one, .few, .many, .many, .few])
    }

    @Test func countedStringsTakeTheFormOfTheirNumber() {
        let english = SiteStrings(language: "en")
        #expect(english.counted("post_count", 1) == "1 post")
        #expect(english.counted("post_count", 0) == "0 posts")
        let french = SiteStrings(language: "fr")
        #expect(
            french.counted("post_count", 0) == french.counted("post_count", 1).replacingOccurrences(of: "1", with: "0"))
        let arabic = SiteStrings(language: "ar")
        let forms = [0, 1, 2, 3, 11, 100].map { arabic.counted("post_count", $0) }
        #expect(Set(forms).count == 6, "\(forms)")
    }

    @Test func daysAreWrittenAsTheLanguageWritesThem() {
        #expect(SiteStrings(language: "en").day(year: 2024, month: 3, day: 5) == "5 March 2024")
        let german = SiteStrings(language: "de")
        #expect(german.day(year: 2024, month: 3, day: 5) == "5. \(german.monthName(3)) 2024")
        #expect(SiteStrings(language: "ja").day(year: 2024, month: 3, day: 5) == "2024年3月5日")
        #expect(SiteStrings(language: "ko").day(year: 2024, month: 12, day: 25) == "2024년 12월 25일")
        let custom = SiteStrings(language: "en", overrides: ["date_format": .text("{year}/{month_number}/{day}")])
        #expect(custom.day(year: 2024, month: 3, day: 5) == "2024/3/5")
        // A language with no table of its own is English.
        #expect(SiteStrings(language: "sv").text("posts") == "Posts")
    }

    @Test func siteYAMLRewordsStrings() throws {
        let (config, warnings) = try SiteConfig.parse(
            """
            strings:
              posts: Artikel
              post_count:
                one: "ein Artikel"
                other: "{count} Artikel"
            language: de
            """)
        #expect(warnings.isEmpty, "\(warnings)")
        let strings = SiteStrings(language: config.language, overrides: config.strings)
        #expect(strings.text("posts") == "Artikel")
        #expect(strings.counted("post_count", 1) == "ein Artikel")
        #expect(strings.counted("post_count", 7) == "7 Artikel")
        #expect(strings.text("tags") == BuiltInStrings.tables["de"]?["tags"]?.forms[.other])
    }

    @Test func unknownStringsAndUnusedCategoriesAreWarnings() throws {
        let (_, warnings) = try SiteConfig.parse(
            """
            strings:
              post:
                other: x
              tag_count:
                few: "{count} tags"
                other: "{count} tags"
            """)
        #expect(warnings.map { $0.error.location?.line } == [2, 5])
        #expect(warnings[0].error.message == "unknown string 'post' is ignored")
        #expect(warnings[0].error.hint == "did you mean 'posts'?")
        #expect(warnings[1].error.message == "'few' is never used in 'en'")
    }

    @Test func badStringsAreErrorsAtTheirLines() {
        do {
            _ = try SiteConfig.parse(
                """
                strings:
                  tagged: "Tagged {name}"
                  post_count:
                    one: "one post"
                    other: "posts"
                  tag_count:
                    one: "{count} tag"
                  reading_time:
                    several: "{count} min"
                    other: "{count} min"
                  posts:
                    one: Post
                  page_of: "Page {page}"
                  date_format: "{day} {year"
                """)
            Issue.record("expected errors")
        } catch {
            let errors = error.errors
            #expect(errors.map { $0.location?.line } == [2, 5, 6, 9, 11, 13, 14])
            #expect(errors[0].message == "strings.tagged: '{name}' is not a placeholder of 'tagged' (it has {tag})")
            #expect(errors[1].message == "strings.post_count.other: 'post_count' must contain {count}")
            #expect(errors[2].message == "strings.tag_count needs an 'other' form, used for every count not given")
            #expect(errors[3].message == "'several' is not a plural category")
            #expect(errors[4].message == "strings.posts does not take a count: write one text")
            #expect(errors[5].message == "strings.page_of: 'page_of' must contain {pages}")
            #expect(errors[6].message == "strings.date_format: a '{' or '}' that is not around a placeholder")
        }
    }

    @Test func everyStrayBraceIsAnError() throws {
        let tags = try #require(SiteStrings.keys.first { $0.name == "tags" })
        let tagged = try #require(SiteStrings.keys.first { $0.name == "tagged" })
        for (text, key) in [
            ("All tags }", tags), ("}{tag}{", tagged), ("Tagged {tag}}", tagged), ("Tagged {{tag}", tagged),
            ("Tagged {tag", tagged),
        ] {
            #expect(
                SiteStrings.problem(in: text, of: key) == "a '{' or '}' that is not around a placeholder", "\(text)")
        }
        #expect(SiteStrings.problem(in: "Tagged {tag}", of: tagged) == nil)
        #expect(SiteStrings.problem(in: "All tags", of: tags) == nil)
    }

    @Test func aGermanSiteSpeaksGerman() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: Notizen
            language: de
            posts_per_page: 1
            chips:
              home_rows: 1
            -- posts/2024-03-05-a.md --
            ---
            title: A
            tags: [Swift, Layout, Typografie, Schriften, Farben, Formen, Linien, Raster, Abstände, Farbräume]
            ---
            A.
            -- posts/2024-03-06-b.md --
            ---
            title: B
            tags: [Swift]
            ---
            B.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        let german = SiteStrings(language: "de")
        let home = try fixture.output("index.html")
        #expect(home.contains(#"<html lang="de">"#))
        for key in ["skip_to_content", "posts", "tags", "archive", "atom_feed", "older"] {
            #expect(home.contains(german.text(key)), "\(key): \(german.text(key))")
        }
        #expect(home.contains(german.text("page_of", ["page": "1", "pages": "2"])))
        #expect(home.contains(german.day(year: 2024, month: 3, day: 6)))
        // The collapsed cloud: its "+N more" chips and its "Show all" in German.
        #expect(home.contains(german.counted("show_all_tags", 10)))
        #expect(home.contains("tf-more") && !home.contains(" more<"))
        let post = try fixture.output("posts/a/index.html")
        #expect(post.contains(german.counted("reading_time", 1)))
        let tag = try fixture.output("tags/swift/index.html")
        #expect(tag.contains(german.text("tagged", ["tag": "Swift"])))
        #expect(tag.contains(german.counted("post_count", 2)))
        let archive = try fixture.output("archive/index.html")
        #expect(archive.contains("<h3>\(german.monthName(3)) "))
        for text in ["Skip to content", "min read", "Page 1 of 2", "5 March 2024", "Older"] {
            #expect(!home.contains(text) && !post.contains(text), "\(text) is English")
        }
    }

    @Test func aRightToLeftSiteIsMirrored() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: מחברת
            language: he
            tags:
              aliases:
                תכנות: קוד
            -- posts/2024-03-05-a.md --
            ---
            title: א
            tags: [קוד, Swift]
            ---
            שלום.
            -- posts/2024-03-06-b.md --
            ---
            title: English inside
            lang: en
            ---
            Hello.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        #expect(try fixture.output("index.html").contains(#"<html lang="he" dir="rtl">"#))
        let english = try fixture.output("posts/b/index.html")
        #expect(english.contains(#"<article class="post" lang="en" dir="ltr">"#))
        let redirect = try fixture.output("tags/תכנות/index.html")
        #expect(redirect.contains(#"<html lang="he" dir="rtl">"#))
        let css = try fixture.output("assets/chips.css")
        #expect(css.contains(".tf-chips:dir(rtl)>li"))
        let theme = try fixture.output("assets/tagflow.css")
        #expect(!theme.contains("margin-left") && !theme.contains("border-left") && !theme.contains("padding-left"))
    }

    @Test func aPostInAnotherLanguageSaysSo() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-03-05-a.md --
            ---
            title: Bonjour
            lang: fr
            ---
            Bonjour.
            -- posts/2024-03-06-b.md --
            ---
            title: مرحبا
            lang: ar
            ---
            مرحبا.
            -- pages/about.md --
            ---
            title: Über
            lang: de_CH
            ---
            Über.
            """)
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        #expect(try fixture.output("posts/a/index.html").contains(#"<article class="post" lang="fr">"#))
        #expect(try fixture.output("posts/b/index.html").contains(#"<article class="post" lang="ar" dir="rtl">"#))
        #expect(try fixture.output("about/index.html").contains(#"<article class="page" lang="de-CH">"#))
        // The page around the post stays in the site's language.
        #expect(try fixture.output("posts/a/index.html").contains(#"<html lang="en">"#))
    }

    @Test(arguments: ["f", "de-", "en-toolongsubtag", "\"><script>", "fr FR"])
    func aMalformedLangIsAnErrorAtItsLine(lang: String) async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            -- posts/2024-03-05-a.md --
            ---
            title: A
            lang: '\(lang)'
            ---
            A.
            """)
        defer { fixture.remove() }
        await #expect {
            try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        } throws: { error in
            (error as? BuildFailure)?.errors.contains {
                $0.message.hasPrefix("'lang' must be a language tag")
                    && $0.location?.description == "posts/2024-03-05-a.md:3:1"
            } ?? false
        }
    }
}
