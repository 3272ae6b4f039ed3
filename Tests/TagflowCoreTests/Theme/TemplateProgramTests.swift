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
        // Prepared, as a build renders: list entries come from shared contexts, rendered once.
        let fast = await SiteRenderer(
            site: site, theme: programOnly, hooks: context.plugins,
            images: ContentImages(staticFiles: [], config: site.config)
        ).prepared()
        let slow = await SiteRenderer(
            site: site, theme: reference, hooks: context.plugins,
            images: ContentImages(staticFiles: [], config: site.config)
        ).prepared()
        #expect(fast.jobs.count > 50)
        // Twice, the second time in reverse: pages then take list entries kept by other pages.
        for job in fast.jobs + fast.jobs.reversed() {
            let (page, expected) = (fast.render(job).file, slow.render(job).file)
            #expect(page.path == expected.path)
            #expect(
                String(decoding: page.contents, as: UTF8.self) == String(decoding: expected.contents, as: UTF8.self))
        }
        // Every listed post's entries were kept (the home list, the tag list, "newer", "older"),
        // and taken again by later pages.
        for (post, listed) in zip(site.posts, fast.listedPosts) {
            #expect(listed.keptCount >= 2, "\(post.sourcePath): \(listed.keptCount)")
            #expect(listed.reuseCount >= 2, "\(post.sourcePath): \(listed.reuseCount)")
        }
    }

    /// Sections with the same body, in any template and under any name, render a shared context
    /// once: a post's entry in the home list is the one its tags' lists show.
    @Test func sectionsWithTheSameBodyShareWhatTheyKeep() throws {
        let sources = [
            "home": "<h>{{#posts}}{{> entry}}{{/posts}}</h>",
            "tag": "<t>{{#listed}}{{> entry}}{{/listed}}</t>",
            "framed": "{{#posts}}[{{> entry}}]{{/posts}}",
            "entry": "({{title}})",
        ]
        let parsed = try sources.mapValues { try MustacheTemplate(string: Theme.escapingPragma + $0) }
        let program = try #require(TemplateProgram(parsed, escaping: Theme.escapingContentType))
        let item = SharedContext(["title": "x"])
        #expect(try program.render(["posts": [item]], with: "home") == "<h>(x)</h>")
        #expect(item.keptCount == 1 && item.reuseCount == 0)
        #expect(try program.render(["listed": [item]], with: "tag") == "<t>(x)</t>")
        #expect(item.keptCount == 1 && item.reuseCount == 1, "the tag list took the home list's text")
        #expect(try program.render(["posts": [item]], with: "framed") == "[(x)]")
        #expect(item.keptCount == 2 && item.reuseCount == 1, "another body keeps a text of its own")
    }

    /// The page's `strings` are the same on every page of a build: a list entry that shows one
    /// is kept all the same, where any other name of the page keeps it from being kept.
    @Test func theStringsOfThePageDoNotKeepAnEntryFromBeingKept() throws {
        let sources = ["list": "{{#items}}[{{name}} {{strings.draft}}]{{/items}}"]
        let parsed = try sources.mapValues { try MustacheTemplate(string: Theme.escapingPragma + $0) }
        let program = try #require(TemplateProgram(parsed, escaping: Theme.escapingContentType))
        let item = SharedContext(["name": "x"])
        for _ in 1...2 {
            #expect(
                try program.render(["items": [item], "strings": ["draft": "Entwurf"]], with: "list") == "[x Entwurf]")
        }
        #expect(item.keptCount == 1 && item.reuseCount == 1)
    }

    /// A section body's text is kept in a shared context only when it read nothing below it on
    /// the stack, and a kept text is what rendering again would give.
    @Test func keepsOnlyWhatDependsOnTheSharedContextAlone() throws {
        let sources = [
            "inside": "{{#items}}[{{name}}{{#tags}}<{{label}}>{{/tags}}]{{/items}}",
            "outside": "{{#items}}[{{name}}{{outer}}]{{/items}}",
            "missing": "{{#items}}[{{name}}{{nowhere}}]{{/items}}",
            "block": "{{#items}}[{{$slot}}{{name}}{{/slot}}]{{/items}}",
            "top": "{{#items}}[{{.name}}]{{/items}}",
        ]
        let parsed = try sources.mapValues { try MustacheTemplate(string: Theme.escapingPragma + $0) }
        let program = try #require(TemplateProgram(parsed, escaping: Theme.escapingContentType))
        let item = SharedContext(["name": "x", "tags": [["label": "t"], ["label": "u"]]])
        #expect(try program.render(["items": [item]], with: "inside") == "[x<t><u>]")
        #expect(item.keptCount == 1 && item.reuseCount == 0)
        #expect(try program.render(["items": [item, item]], with: "inside") == "[x<t><u>][x<t><u>]")
        #expect(item.reuseCount == 2)
        for outer in ["1", "2"] {
            #expect(try program.render(["items": [item], "outer": outer], with: "outside") == "[x\(outer)]")
        }
        // Kept with the name it missed; not taken where the page holds that name.
        #expect(try program.render(["items": [item]], with: "missing") == "[x]")
        #expect(item.keptCount == 2)
        #expect(try program.render(["items": [item], "nowhere": "!"], with: "missing") == "[x!]")
        #expect(item.reuseCount == 2, "not taken where the page holds the missed name")
        #expect(try program.render(["items": [item], "other": "?"], with: "missing") == "[x]")
        #expect(item.reuseCount == 3, "taken where the page holds other names")
        #expect(try program.render(["items": [item]], with: "block") == "[x]")
        #expect(item.keptCount == 2, "neither outside nor block was kept")
        #expect(try program.render(["items": [item], "name": "no"], with: "top") == "[x]")
        #expect(item.keptCount == 3)
    }

    /// Generated templates over contexts holding shared contexts, rendered twice with the same
    /// shared contexts and different values around them, give swift-mustache's text each time:
    /// a kept text is never one that depended on the page around it.
    @Test func sharedContextsRenderAsSwiftMustacheAcrossPages() throws {
        var random = SeededGenerator(seed: 21)
        var compared = 0
        var kept = 0
        var reused = 0
        for round in 0..<1_000 {
            let partial = Self.template(&random, depth: 2, partials: false)
            let base = "<b>{{$title}}T{{/title}}</b>\n{{$body}}\n  default\n{{/body}}\n"
            let main =
                Self.template(&random, depth: 3, partials: true)
                + "{{#shared}}\(Self.template(&random, depth: 2, partials: true)){{/shared}}"
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
            guard parsed.count == sources.count,
                let program = TemplateProgram(parsed, escaping: Theme.escapingContentType)
            else { continue }
            var first = Self.sharedPage(&random)
            first["shared"] = (0..<3).map { _ in SharedContext(Self.scalars(&random)) }
            // The second page keeps the first one's shared values and changes the rest.
            var second = Self.sharedPage(&random)
            for (name, value) in first where !Self.sharedContexts(in: value).isEmpty { second[name] = value }
            for context in [first, second, first] {
                let expected = library.render(context, withTemplate: "main") ?? ""
                if let text = try? program.render(context, with: "main") {
                    #expect(text == expected, "round \(round): \(sources) with \(context)")
                    compared += 1
                }
            }
            kept += Self.sharedContexts(in: first).reduce(0) { $0 + $1.keptCount }
            reused += Self.sharedContexts(in: first).reduce(0) { $0 + $1.reuseCount }
        }
        #expect(compared > 600)
        #expect(kept > 100 && reused > 100, "kept texts were made and used")
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
            guard let context = TemplateValue(any: Self.context(&random, depth: 3)) else { continue }
            let expected = library.render(Self.reference(context), withTemplate: "main") ?? ""
            if let text = try? program.render(context, with: "main") {
                #expect(text == expected, "round \(round): \(sources) with \(context)")
                compared += 1
            }
        }
        #expect(compared > 300)
    }

    /// A list or an object prints as Swift prints it, but an object's names in the order they
    /// were set, where a dictionary's order changes from one run to the next; a shared context's
    /// watched name counts as read.
    @Test func printedValuesAreSwiftsInTheirOrder() throws {
        let list: TemplateValue = .list([.text("a \"b\"\n"), .number(1), .flag(true), .decimal(1.5), .list([])])
        #expect(list.printed == String(describing: ["a \"b\"\n", 1, true, 1.5, [Any]()] as [Any]))
        #expect(TemplateValue.object(["t": .text("x")]).printed == String(describing: ["t": "x"] as [String: Any]))
        #expect(TemplateValue.object([:]).printed == String(describing: [String: Any]()))
        let object: TemplateValue = .object([
            "z": .number(1), "a": .list([.object(["m": .flag(false), "b": .text("")])]),
        ])
        #expect(object.printed == #"["z": 1, "a": [["m": false, "b": ""]]]"#)
        let reads = NameReads()
        let shared = SharedContext(["count": .number(3), "name": .text("Swift")], watching: ("count", reads))
        #expect(TemplateValue.list([.shared(shared)]).printed == #"[["count": 3, "name": "Swift"]]"#)
        #expect(reads.anyNoted)
        // Through the program, as `{{post}}` and `{{{post}}}` show it.
        let template = try MustacheTemplate(string: Theme.escapingPragma + "{{post}}|{{{post}}}")
        let program = try #require(TemplateProgram(["t": template], escaping: Theme.escapingContentType))
        let text = try program.render(
            .object(["post": .object(["url": .text("/a/"), "title": .text("<A>")])]), with: "t")
        #expect(
            text
                == #"[&quot;url&quot;: &quot;/a/&quot;, &quot;title&quot;: &quot;&lt;A&gt;&quot;]|["url": "/a/", "title": "<A>"]"#
        )
    }

    /// A shared context that stands for an input for some names notes it in the reads of the page
    /// being rendered when a template looks one of them up, whether the text is rendered or
    /// taken as kept, and by either renderer; a template that does not look them up notes nothing.
    @Test func aSharedContextNotesItsInputWhereItsNamesAreRead() throws {
        let input = PageInput(.summaryTags, 7)
        let post = SharedContext(
            ["title": .text("A"), "tags": .list([.text("Swift")])], noting: (["tags"], input))
        let templates = [
            "tags": try MustacheTemplate(string: Theme.escapingPragma + "{{#posts}}{{#tags}}{{.}}{{/tags}}{{/posts}}"),
            "titles": try MustacheTemplate(string: Theme.escapingPragma + "{{#posts}}{{title}}{{/posts}}"),
        ]
        let program = try #require(TemplateProgram(templates, escaping: Theme.escapingContentType))
        let context: TemplateValue = .object(["posts": .list([.shared(post)])])
        func noting(_ render: () throws -> String) rethrows -> (String, [PageInput]) {
            let reads = PageReads()
            let text = try PageReads.$current.withValue(reads) { try render() }
            return (text, reads.inputs)
        }
        let first = try noting { try program.render(context, with: "tags") }
        let second = try noting { try program.render(context, with: "tags") }
        #expect(first == ("Swift", [input]) && second == ("Swift", [input]))
        #expect(post.reuseCount == 1, "the second page took the kept text")
        #expect(try noting { try program.render(context, with: "titles") } == ("A", []))
        // swift-mustache looks names up through the context too.
        let library = MustacheLibrary(templates: templates)
        #expect(noting { library.render(context.any, withTemplate: "tags") ?? "" } == ("Swift", [input]))
        #expect(noting { library.render(context.any, withTemplate: "titles") ?? "" } == ("A", []))
        // Printed whole, it shows them.
        #expect(noting { TemplateValue.shared(post).printed }.1 == [input])
        // Outside a page's rendering, nothing is noted and nothing fails.
        #expect(try program.render(context, with: "tags") == "Swift")
    }

    /// A kept text notes what its rendering read even when the page had just noted the same
    /// input before it: a page that takes the text without the section before it notes it too.
    @Test func aKeptTextNotesItsInputsWhateverCameBefore() throws {
        let input = PageInput(.summaryTags, 3)
        let post = SharedContext(["tags": .list([.text("Swift")])], noting: (["tags"], input))
        let template = try MustacheTemplate(
            string: Theme.escapingPragma + "{{#a}}{{#tags}}{{.}}{{/tags}}{{/a}}|{{#b}}{{#tags}}<{{.}}>{{/tags}}{{/b}}")
        let program = try #require(TemplateProgram(["t": template], escaping: Theme.escapingContentType))
        func noted(_ context: TemplateValue) throws -> (String, [PageInput]) {
            let reads = PageReads()
            let text = try PageReads.$current.withValue(reads) { try program.render(context, with: "t") }
            return (text, reads.inputs)
        }
        let both = try noted(.object(["a": .list([.shared(post)]), "b": .list([.shared(post)])]))
        #expect(both == ("Swift|<Swift>", [input, input]))
        let second = try noted(.object(["a": .list([]), "b": .list([.shared(post)])]))
        #expect(second == ("|<Swift>", [input]))
        #expect(post.reuseCount == 1)
    }

    /// A context's names: set, replaced, removed and looked up, with the hash made once or not.
    @Test func objectsHoldTheirNames() {
        var object: TemplateObject = ["title": .text("a"), "n": .number(1)]
        object["title"] = .text("b")
        object["flag"] = .flag(true)
        object["n"] = nil
        #expect(object.count == 2)
        #expect(object["n"] == nil && object["missing"] == nil)
        #expect(object.value(named: "title", hash: TemplateObject.hash("title")).map { "\($0)" } == "text(\"b\")")
        #expect(object.value(named: "title", hash: TemplateObject.hash("flag")) == nil, "a name is found by its hash")
        #expect(object.any.keys.sorted() == ["flag", "title"])
        #expect(TemplateObject.hash("ab") != TemplateObject.hash("ba"))
        // Names Swift holds equal are one name, as in a dictionary.
        var accents: TemplateObject = ["caf\u{E9}": .number(1)]
        #expect(accents["cafe\u{301}"] != nil)
        accents["cafe\u{301}"] = .number(2)
        #expect(accents.count == 1)
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

    /// A converted context as swift-mustache takes it, each object printing its names in their
    /// order, as the program does (the one way the two are meant to differ: swift-mustache prints
    /// a dictionary in its hash order).
    static func reference(_ value: TemplateValue) -> Any {
        switch value {
        case .text(let text): text
        case .number(let number): number
        case .decimal(let number): number
        case .flag(let flag): flag
        case .list(let items): items.map(reference)
        case .object(let object): OrderedObject(object)
        case .shared(let shared): shared
        }
    }

    /// An object for swift-mustache that prints as ``TemplateObject/printed``.
    final class OrderedObject: MustacheParent, CustomStringConvertible {
        let object: TemplateObject

        init(_ object: TemplateObject) { self.object = object }

        func child(named name: String) -> Any? { object[name].map(TemplateProgramTests.reference) }

        var description: String { object.printed }
    }

    /// A page's context for the shared-context test: texts, numbers and flags, with shared
    /// contexts (alone and in lists) of the same.
    static func sharedPage(_ random: inout SeededGenerator) -> [String: Any] {
        var page = scalars(&random)
        for name in ["list", "map", "x"] where random.next(2) == 0 {
            page[name] =
                random.next(3) == 0
                ? SharedContext(scalars(&random)) : (0..<random.next(3)).map { _ in SharedContext(scalars(&random)) }
        }
        return page
    }

    /// Some of the generated templates' names, each with a text, a number or a flag.
    static func scalars(_ random: inout SeededGenerator) -> [String: Any] {
        var values: [String: Any] = [:]
        for name in ["a", "b", "flag", "off", "empty", "n", "missing"] where random.next(3) != 0 {
            switch random.next(4) {
            case 0: values[name] = ["", "plain", "<b>&\"'", "日本"][random.next(4)]
            case 1: values[name] = random.next(100) - 50
            case 2: values[name] = random.next(2) == 0
            default: values[name] = "\(name)\(random.next(3))"
            }
        }
        return values
    }

    /// Every ``SharedContext`` in a value.
    static func sharedContexts(in value: Any) -> [SharedContext] {
        if let shared = value as? SharedContext { return [shared] + sharedContexts(in: shared.values.any) }
        if let list = value as? [Any] { return list.flatMap { sharedContexts(in: $0) } }
        if let dictionary = value as? [String: Any] { return dictionary.values.flatMap { sharedContexts(in: $0) } }
        return []
    }

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

extension SharedContext {
    /// A shared context of Swift values, as the generators make them.
    convenience init(_ values: [String: Any]) {
        guard case .object(let object)? = TemplateValue(any: values) else {
            preconditionFailure("not template values: \(values)")
        }
        self.init(object, watching: nil)
    }
}

extension SeededGenerator {
    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
