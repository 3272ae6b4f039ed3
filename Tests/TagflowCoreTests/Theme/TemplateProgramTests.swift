import Foundation
import Mustache
import TagflowTesting
import Testing

@testable import TagflowCore

/// `TemplateProgram` renders exactly as swift-mustache, or declines.
@Suite struct TemplateProgramTests {
    /// Every page of the example site (the built-in theme, a site template, chips, pages,
    /// pagination, feeds) is the same byte for byte through both renderers, with no page left to
    /// swift-mustache.
    @Test func everyPageOfTheExampleSiteMatchesSwiftMustache() async throws {
        let context = try await SiteBuilder(siteRoot: ExampleSiteTests.exampleSite).run()
        let site = try #require(context.site)
        let theme = try #require(context.theme)
        let program = try #require(theme.program, "the built-in theme compiles")
        let reference = Theme(library: theme.library, program: nil, origins: theme.origins)
        // No swift-mustache to fall back on: a page the program declined would come out empty.
        let programOnly = Theme(library: MustacheLibrary(), program: program, origins: theme.origins)
        let fast = SiteRenderer(site: site, theme: programOnly, hooks: context.plugins)
        let slow = SiteRenderer(site: site, theme: reference, hooks: context.plugins)
        #expect(fast.jobs.count > 50)
        for job in fast.jobs {
            let (page, expected) = (fast.render(job).file, slow.render(job).file)
            #expect(page.path == expected.path)
            #expect(
                String(decoding: page.contents, as: UTF8.self) == String(decoding: expected.contents, as: UTF8.self))
        }
    }

    /// Generated templates (sections, inverted sections, dotted names, partials, parents and
    /// blocks, standalone lines, comments, delimiters) over generated contexts give the same
    /// text through both renderers; seeded, so a failure repeats.
    @Test func generatedTemplatesMatchSwiftMustache() throws {
        var random = SeededGenerator(seed: 8)
        var compared = 0
        for round in 0..<1_200 {
            let partial = Self.template(&random, depth: 2, partials: false)
            let base = "<b>{{$title}}T{{/title}}</b>\n{{$body}}\n  default\n{{/body}}\n"
            let main =
                Self.template(&random, depth: 3, partials: true)
                + (random.next(4) == 0 ? "\n{{> partial}}\n" : "")
                + (random.next(4) == 0 ? "{{<base}}\n{{$body}}[{{a}}]{{/body}}\n{{/base}}\n" : "")
            let sources = ["main": main, "partial": partial, "base": base]
            var library = MustacheLibrary()
            var parsed: [String: MustacheTemplate] = [:]
            for (name, text) in sources {
                guard let template = try? MustacheTemplate(string: Theme.escapingPragma + text) else { continue }
                library.register(template, named: name)
                parsed[name] = template
            }
            guard parsed.count == sources.count else { continue }
            // An indented block or partial is declined (swift-mustache indents its lines).
            guard let program = TemplateProgram(parsed, escaping: Theme.escapingContentType) else { continue }
            let context = Self.context(&random, depth: 3)
            let expected = library.render(context, withTemplate: "main") ?? ""
            if let text = try? program.render(context, with: "main") {
                #expect(text == expected, "round \(round): \(sources) with \(context)")
                compared += 1
            }
        }
        #expect(compared > 300)
    }

    /// A theme with something the program does not do is left to swift-mustache whole.
    @Test func declinesWhatItDoesNotRender() throws {
        for text in [
            "{{uppercased(name)}}", "{{>*dynamic}}", "{{% CONTENT_TYPE: TEXT }}\n{{a}}", "<ul>\n  {{> p}}\n</ul>",
        ] {
            let template = try MustacheTemplate(string: Theme.escapingPragma + text)
            let partial = try MustacheTemplate(string: Theme.escapingPragma + "x\ny\n")
            #expect(
                TemplateProgram(["t": template, "p": partial], escaping: Theme.escapingContentType) == nil,
                "\(text)")
        }
        // Without the escaping line, the template would escape with swift-mustache's own rules.
        #expect(
            TemplateProgram(["t": try MustacheTemplate(string: "{{a}}")], escaping: Theme.escapingContentType) == nil)
    }

    /// A value of a type it does not know is rendered by swift-mustache, through ``Theme/render``.
    @Test func unknownValuesFallBackToSwiftMustache() throws {
        struct Point: CustomStringConvertible {
            var description: String { "(1, 2)" }
        }
        let fixture = try SiteFixture("-- templates/t.mustache --\n<p>{{point}} {{#set}}{{.}}{{/set}}</p>\n")
        defer { fixture.remove() }
        let theme = try Theme.load(siteRoot: fixture.site, folder: "templates")
        let program = try #require(theme.program)
        let context: [String: Any] = ["point": Point(), "set": Set(["a"])]
        #expect(throws: TemplateProgram.Unsupported.self) { try program.render(context, with: "t") }
        #expect(theme.render(context, with: "t") == theme.referenceRender(context, with: "t"))
        #expect(theme.render(context, with: "t").hasPrefix("<p>(1, 2) a</p>"))
    }

    // MARK: Generators

    static func template(_ random: inout SeededGenerator, depth: Int, partials: Bool) -> String {
        let names = ["a", "b", "list", "flag", "off", "map", "map.a", "map.list", ".", "missing", "empty", "n", "x.y"]
        var text = ""
        for _ in 0..<(1 + random.next(6)) {
            let name = names[random.next(names.count)]
            switch random.next(depth > 0 ? (partials ? 12 : 10) : 7) {
            case 0: text += "{{\(name)}}"
            case 1: text += "{{{\(name)}}}"
            case 2: text += "{{& \(name) }}"
            case 3: text += ["text", " ", "\n", "  \n", "<&\"'>", "é\u{301}\"", "\t"][random.next(7)]
            case 4: text += "{{! a comment }}" + (random.next(2) == 0 ? "\n" : "")
            case 5: text += "\n{{=<% %>=}}\n<%\(name)%>\n<%={{ }}=%>\n"
            case 6: text += "{{$title}}B{{a}}{{/title}}"
            case 7, 8:
                let inner = template(&random, depth: depth - 1, partials: partials)
                let standalone = random.next(2) == 0 ? "\n" : ""
                text += "\(standalone){{#\(name)}}\(standalone)\(inner)\(standalone){{/\(name)}}\(standalone)"
            case 9:
                let inner = template(&random, depth: depth - 1, partials: partials)
                let standalone = random.next(2) == 0 ? "\n" : ""
                text += "\(standalone){{^\(name)}}\(standalone)\(inner){{/\(name)}}\(standalone)"
            case 10: text += "\n{{> partial}}\n"
            default: text += "{{> partial}}"
            }
        }
        return text
    }

    static func context(_ random: inout SeededGenerator, depth: Int) -> [String: Any] {
        var context: [String: Any] = [:]
        for name in ["a", "b", "list", "flag", "off", "map", "empty", "n", "x"] where random.next(5) != 0 {
            context[name] = value(&random, depth: depth)
        }
        return context
    }

    static func value(_ random: inout SeededGenerator, depth: Int) -> Any {
        switch random.next(depth > 0 ? 10 : 7) {
        case 0: return ["", "plain", "<b>&\"'", "日本", "e\u{301}"][random.next(5)]
        case 1: return random.next(100) - 50
        case 2: return random.next(2) == 0
        case 3: return Double(random.next(100)) / 4
        case 4: return [String]()
        case 5: return ["x", "<y>"]
        case 6: return ["title": "t", "url": "/u/"] as [String: String]
        case 7: return context(&random, depth: depth - 1)
        case 8: return (0..<random.next(3)).map { _ in context(&random, depth: depth - 1) }
        default: return (0..<random.next(3)).map { _ in value(&random, depth: depth - 1) }
        }
    }
}

extension SeededGenerator {
    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
