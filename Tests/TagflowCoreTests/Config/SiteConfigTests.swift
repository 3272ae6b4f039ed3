import Testing

@testable import TagflowCore

@Suite struct SiteConfigTests {
    @Test func readsEveryKey() throws {
        let (config, warnings) = try SiteConfig.parse(
            """
            title: T
            description: D
            base_url: https://example.org/blog
            language: de
            author: A
            timezone: Europe/Zurich
            posts_per_page: 5
            feed_entries: 7
            paths: {content: content, templates: layouts, static: public, output: build}
            markdown: {unsafe: true, smart_punctuation: true, hard_breaks: true}
            """)
        #expect(warnings.isEmpty)
        #expect(config.title == "T")
        #expect(config.baseURL == "https://example.org/blog/")
        #expect(config.basePath == "/blog")
        #expect(config.timeZone == "Europe/Zurich")
        #expect(config.postsPerPage == 5)
        #expect(config.feedEntries == 7)
        #expect(config.paths.content == "content")
        #expect(config.paths.templates == "layouts")
        #expect(config.paths.static == "public")
        #expect(config.paths.output == "build")
        #expect(config.markdown.unsafe && config.markdown.smartPunctuation && config.markdown.hardBreaks)
    }

    @Test func unknownKeysWarnWithTheirLine() throws {
        let (_, warnings) = try SiteConfig.parse("title: T\ntitel: typo\nmarkdown:\n  usafe: true\n")
        #expect(warnings.count == 2)
        #expect(warnings.map { $0.error.location?.line } == [2, 4])
        #expect(warnings[0].error.message == "unknown config key 'titel' is ignored")
        #expect(warnings[1].error.message == "unknown config key 'markdown.usafe' is ignored")
        #expect(warnings.allSatisfy { $0.severity == .warning })
    }

    @Test func hugoBaseURLIsAccepted() throws {
        let (config, warnings) = try SiteConfig.parse("baseURL: \"https://example.org/\"\n")
        #expect(config.baseURL == "https://example.org/")
        #expect(warnings.isEmpty)
    }

    @Test func wrongTypesAreErrorsAtTheirLine() {
        do {
            _ = try SiteConfig.parse("title: T\nposts_per_page: many\nmarkdown:\n  unsafe: maybe\npaths: x\n")
            Issue.record("expected errors")
        } catch {
            let errors = error.errors
            #expect(errors.map { $0.location?.line } == [2, 4, 5])
            #expect(errors[0].message == "'posts_per_page' must be a whole number greater than 0")
            #expect(errors[0].location?.description == "site.yml:2:1")
            #expect(errors[1].message == "'unsafe' must be true or false, not a string")
            #expect(errors[2].message == "'paths' must be a mapping, not a string")
        }
    }

    @Test func pathsMustStayInsideTheSite() {
        #expect(throws: BuildFailure.self) { try SiteConfig.parse("paths: {content: ../elsewhere}\n") }
        #expect(throws: BuildFailure.self) { try SiteConfig.parse("paths: {static: /etc}\n") }
    }

    @Test func unknownTimeZoneIsAnError() {
        #expect(throws: BuildFailure.self) { try SiteConfig.parse("timezone: Mars/Olympus\n") }
    }

    @Test func malformedYAMLNamesTheLine() {
        do {
            _ = try SiteConfig.parse("title: [unclosed\nx: 1\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.first?.location?.path == "site.yml")
            #expect(error.errors.first?.message.hasPrefix("invalid YAML in site config") == true)
        }
    }
}
