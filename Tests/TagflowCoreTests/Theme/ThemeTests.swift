import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

@Suite struct ThemeTests {
    @Test func builtInThemeHasEveryRequiredTemplate() throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        let theme = try Theme.load(siteRoot: fixture.site, folder: "templates")
        for name in Theme.requiredTemplates { #expect(theme.hasTemplate(name)) }
        #expect(theme.origins["post"] == "built-in theme: post.mustache")
    }

    @Test func siteTemplatesOverrideByName() throws {
        let fixture = try SiteFixture("-- templates/footer.mustache --\n<footer>mine</footer>")
        defer { fixture.remove() }
        let theme = try Theme.load(siteRoot: fixture.site, folder: "templates")
        #expect(theme.origins["footer"] == "templates/footer.mustache")
        #expect(theme.render([:], with: "footer") == "<footer>mine</footer>\n")
    }

    /// `{{name}}` escapes through `HTMLEscaping` in templates, partials and inherited blocks; a
    /// quote joined to a combining mark (one `Character`) is escaped too, which swift-mustache's
    /// own escaper missed.
    @Test func variablesEscapeEveryQuoteInEveryKindOfTemplate() throws {
        let fixture = try SiteFixture(
            """
            -- templates/frame.mustache --
            <title>{{$title}}{{name}}{{/title}}</title>
            {{$body}}{{/body}}
            -- templates/card.mustache --
            <a title="{{name}}">{{{name}}}</a>
            -- templates/page.mustache --
            {{<frame}}{{$body}}<p title="{{name}}">{{> card}}</p>{{/body}}{{/frame}}
            """)
        defer { fixture.remove() }
        let theme = try Theme.load(siteRoot: fixture.site, folder: "templates")
        let name = "x\"\u{301} onmouseover='y' & <b>"
        let escaped = "x&quot;\u{301} onmouseover=&#39;y&#39; &amp; &lt;b&gt;"
        #expect(
            theme.render(["name": name], with: "page")
                == "<title>\(escaped)</title>\n<p title=\"\(escaped)\"><a title=\"\(escaped)\">\(name)</a>\n</p>\n\n")
    }

    /// The line put before each template renders as nothing, and a template may still choose its
    /// own content type.
    @Test func escapingLineLeavesOutputAndContentTypeAlone() throws {
        let fixture = try SiteFixture(
            """
            -- templates/a.mustache --
            {{name}}
            -- templates/b.mustache --
            {{% CONTENT_TYPE: TEXT }}
            {{name}}
            """)
        defer { fixture.remove() }
        let theme = try Theme.load(siteRoot: fixture.site, folder: "templates")
        #expect(theme.render(["name": "<i>"], with: "a") == "&lt;i&gt;\n")
        #expect(theme.render(["name": "<i>"], with: "b") == "<i>\n")
    }

    /// The first problem reported when loading a site made of `files`; loading must fail.
    static func firstProblem(loading files: String) throws -> TagflowError {
        let fixture = try SiteFixture(files)
        defer { fixture.remove() }
        do {
            _ = try Theme.load(siteRoot: fixture.site, folder: "templates")
        } catch {
            return try #require(error.errors.first)
        }
        return try #require(nil as TagflowError?, "expected an error")
    }

    @Test func syntaxErrorOnTheFirstLineNamesLineOne() throws {
        let problem = try Self.firstProblem(loading: "-- templates/post.mustache --\n{{/nothing}}\n")
        #expect(problem.location?.line == 1)
        #expect(problem.sourceLine == "{{/nothing}}")
    }

    @Test func syntaxErrorNamesFileLineAndColumn() throws {
        let problem = try Self.firstProblem(
            loading: "-- templates/post.mustache --\n<h1>ok</h1>\n{{#post}}\n<p>{{title}}</p>\n{{/poster}}\n")
        #expect(problem.location?.path == "templates/post.mustache")
        #expect(problem.location?.line == 4)
        #expect(problem.message.contains("template syntax error"))
    }

    /// The parser breaks lines at form feeds and U+2028 too; an editor does not (found by FuzzTemplate).
    @Test func syntaxErrorLineCountsOnlyLineFeeds() throws {
        let problem = try Self.firstProblem(
            loading: "-- templates/post.mustache --\n<p>a\u{0C}b\u{2028}c</p>\n{{#post}}\n{{/poster}}\n")
        #expect(problem.location?.line == 3)
        #expect(problem.sourceLine == "{{/poster}}")
        #expect(Theme.line(ofParserLine: 4, in: "a\u{0C}b\r\nc\n") == 3)
        #expect(Theme.line(ofParserLine: 99, in: "a\nb") == 2)
    }

    @Test func missingPartialIsAnError() throws {
        let fixture = try SiteFixture("-- templates/page.mustache --\n<main>\n  {{> sidebar}}\n</main>\n")
        defer { fixture.remove() }
        #expect {
            try Theme.load(siteRoot: fixture.site, folder: "templates")
        } throws: { error in
            let problem = (error as? BuildFailure)?.errors.first
            return problem?.message == "template 'sidebar' does not exist" && problem?.location?.line == 2
                && problem?.location?.column == 3
        }
    }

    @Test func partialCyclesAreRefused() throws {
        let fixture = try SiteFixture(
            "-- templates/a.mustache --\n{{> b}}\n-- templates/b.mustache --\nx\n{{>a}}\n-- templates/c.mustache --\n{{> c}}\n"
        )
        defer { fixture.remove() }
        do {
            _ = try Theme.load(siteRoot: fixture.site, folder: "templates")
            Issue.record("expected an error")
        } catch {
            let messages = error.errors.map(\.message)
            #expect(messages.contains("templates include each other forever: a → b → a"))
            #expect(messages.contains("templates include each other forever: c → c"))
        }
    }

    @Test func embeddedThemeMatchesTemplatesFolder() throws {
        let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Templates").standardizedFileURL
        let files = folderContents(templates)
        #expect(!files.isEmpty)
        #expect(Set(files.keys) == Set(BuiltInTheme.files.keys), "run scripts/embed-files.py")
        for (path, data) in files {
            #expect(
                String(decoding: data, as: UTF8.self) == BuiltInTheme.files[path],
                "\(path) changed: run scripts/embed-files.py")
        }
    }

    /// `site.posts` and `site.tags` are made, and every page depends on them, only for a theme
    /// that may read them.
    @Test func knowsWhetherATemplateReadsTheSiteLists() throws {
        let fixture = try SiteFixture("-- site.yml --\ntitle: T\n")
        defer { fixture.remove() }
        #expect(try !Theme.load(siteRoot: fixture.site, folder: "templates").readsSiteLists)
        for (text, reads) in [
            ("{{#site.posts}}{{title}}{{/site.posts}}", true), ("{{site.tags.0.name}}", true),
            ("{{# site }}{{posts}}{{/ site }}", true), ("{{^site}}none{{/site}}", true),
            ("{{site.title}} {{#posts}}{{title}}{{/posts}} {{site.posts_count}}", false),
        ] {
            #expect(Theme.readsSiteLists(text) == reads, "\(text)")
        }
        try fixture.write("templates/footer.mustache", "{{#site.tags}}{{name}}{{/site.tags}}")
        #expect(try Theme.load(siteRoot: fixture.site, folder: "templates").readsSiteLists)
    }
}
