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

    @Test func syntaxErrorNamesFileLineAndColumn() throws {
        let fixture = try SiteFixture(
            "-- templates/post.mustache --\n<h1>ok</h1>\n{{#post}}\n<p>{{title}}</p>\n{{/poster}}\n")
        defer { fixture.remove() }
        do {
            _ = try Theme.load(siteRoot: fixture.site, folder: "templates")
            Issue.record("expected an error")
        } catch {
            let problem = try #require(error.errors.first)
            #expect(problem.location?.path == "templates/post.mustache")
            #expect(problem.location?.line == 4)
            #expect(problem.message.contains("template syntax error"))
        }
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
        #expect(Set(files.keys) == Set(BuiltInTheme.files.keys), "run scripts/embed-theme.py")
        for (path, data) in files {
            #expect(
                String(decoding: data, as: UTF8.self) == BuiltInTheme.files[path],
                "\(path) changed: run scripts/embed-theme.py")
        }
    }
}
