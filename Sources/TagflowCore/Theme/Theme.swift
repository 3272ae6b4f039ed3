package import Foundation
import Mustache
internal import TagflowHTML

/// The templates a site renders with: the built-in theme, with any template of the same name in
/// the site's `templates/` folder taking its place.
package struct Theme: Sendable {
    /// The compiled templates, partials included.
    let library: MustacheLibrary
    /// The same templates for the faster renderer; `nil` when one uses something it does not do.
    let program: TemplateProgram?
    /// Every template's name, and where it came from (`templates/post.mustache` or `built-in`).
    package let origins: [String: String]
    /// Whether a template may read `site.posts` or `site.tags`: only then are they made, and
    /// every page depends on every post and tag (see ``readsSiteLists(_:)``).
    var readsSiteLists = false

    /// Templates every site needs.
    static let requiredTemplates = [
        "home", "post", "page", "tags", "archive", "tag", "series", "series-list", "terms", "term", "404", "atom",
        "sitemap",
    ]

    /// Loads and checks the theme: syntax, partials that exist, and no partial that includes
    /// itself through others (which would never finish rendering).
    ///
    /// - Parameters:
    ///   - siteRoot: The site folder.
    ///   - folder: The site's templates folder, relative to `siteRoot`.
    /// - Returns: The theme.
    /// - Throws: ``BuildFailure`` with every problem found, each at its file and line.
    package static func load(siteRoot: URL, folder: String) throws(BuildFailure) -> Theme {
        try compile(readSources(siteRoot: siteRoot, folder: folder))
    }

    /// A theme's template texts, read but not parsed: each template's name, text and origin, and
    /// the files that could not be read.
    struct Sources: Sendable {
        fileprivate var templates: [String: (text: String, path: String)]
        fileprivate var diagnostics: [Diagnostic]

        /// Every template's name.
        var names: Set<String> { Set(templates.keys) }
    }

    /// The built-in theme with one template replaced by `text`, compiled as a site's would be (for
    /// the template fuzzer).
    @_spi(Fuzzing) public static func compile(template text: String, named name: String) throws(BuildFailure)
        -> Theme
    {
        var sources: [String: (text: String, path: String)] = [:]
        for (builtIn, source) in BuiltInTheme.templates {
            sources[builtIn] = (source, "built-in theme: \(builtIn).mustache")
        }
        sources[name] = (text, "templates/\(name).mustache")
        return try compile(Sources(templates: sources, diagnostics: []))
    }

    /// Reads the built-in templates and the site's; cheap next to ``compile(_:)``, which a build
    /// runs while the content loads.
    static func readSources(siteRoot: URL, folder: String) -> Sources {
        var sources: [String: (text: String, path: String)] = [:]
        for (name, text) in BuiltInTheme.templates { sources[name] = (text, "built-in theme: \(name).mustache") }
        var diagnostics: [Diagnostic] = []
        let listing = SiteFiles.allFiles(under: folder, in: siteRoot)
        diagnostics += listing.diagnostics
        for path in listing.files where path.hasSuffix(".mustache") {
            let name = String(path.dropFirst(folder.count + 1).dropLast(".mustache".count))
            guard let data = FileManager.default.contents(atPath: siteRoot.appendingPathComponent(path).path) else {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: path), step: "templates", message: "cannot read template")))
                continue
            }
            guard let text = String(data: data, encoding: .utf8) else {
                let offset = ContentLoader.firstInvalidUTF8Offset(in: Array(data)) ?? 0
                let position = ContentLoader.position(of: offset, in: data)
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: path, line: position.line, column: position.column),
                            step: "templates", message: "template is not valid UTF-8 text (byte \(offset))",
                            hint: "save the file as UTF-8")))
                continue
            }
            sources[name] = (text, path)
        }
        return Sources(templates: sources, diagnostics: diagnostics)
    }

    /// Parses and checks read templates: syntax, partials that exist, and no partial that
    /// includes itself through others.
    static func compile(_ read: Sources) throws(BuildFailure) -> Theme {
        let sources = read.templates
        var diagnostics = read.diagnostics
        var parsed: [String: MustacheTemplate] = [:]
        for name in sources.keys.sorted() {
            guard let source = sources[name] else { continue }
            if let deep = Self.tooDeepSection(in: source.text) {
                // swift-mustache parses sections recursively: thousands of levels overflow the stack.
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: source.path, line: deep.line, column: deep.column),
                            step: "templates",
                            message: "sections nested more than \(Self.maximumSectionDepth) deep",
                            hint: "split the template into partials", sourceLine: deep.lineText)))
                continue
            }
            do {
                parsed[name] = try MustacheTemplate(string: Self.escapingPragma + source.text)
            } catch let error as MustacheTemplate.ParserError {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(
                                path: source.path,
                                line: Self.line(ofParserLine: error.context.lineNumber - 1, in: source.text),
                                column: error.context.columnNumber),
                            step: "templates", message: "template syntax error: \(describe(error.error))",
                            hint: "check that every {{#section}} has a matching {{/section}}",
                            sourceLine: error.context.line, underlying: error)))
            } catch {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: source.path), step: "templates",
                            message: "template error: \(error)")))
            }
        }
        diagnostics += checkPartials(sources)
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw BuildFailure(diagnostics: diagnostics.sortedForDisplay())
        }
        return Theme(
            library: MustacheLibrary(templates: parsed),
            program: TemplateProgram(parsed, escaping: Self.escapingContentType),
            origins: sources.mapValues(\.path), readsSiteLists: sources.values.contains { readsSiteLists($0.text) })
    }

    /// Whether a template's text may read `site.posts` or `site.tags`: it names one, or opens a
    /// section on `site` itself, inside which `{{posts}}` would be `site.posts`.
    ///
    /// Read from the text rather than the parse, so that it holds for templates only
    /// swift-mustache renders too; a false alarm only costs the lists being made.
    static func readsSiteLists(_ text: String) -> Bool {
        text.contains(/site\.(posts|tags)\b/) || text.contains(/\{\{[#^]\s*site\s*\}\}/)
    }

    /// A line put before every template so that `{{name}}` escapes through ``HTMLEscaping``.
    ///
    /// swift-mustache's own HTML escaping looks up every `Character` in a dictionary (a large
    /// share of a build) and lets a quote joined to a combining mark through unescaped. Its only
    /// hook is the `CONTENT_TYPE` pragma, which each template (partials included) starts over
    /// without, hence one per template. The pragma is a standalone tag, so its line renders as
    /// nothing; parse errors are reported one line up to match the file.
    static let escapingPragma: String = {
        MustacheContentTypes.register(EscapingContentType(), named: "TAGFLOW_HTML")
        return "{{% CONTENT_TYPE: TAGFLOW_HTML }}\n"
    }()

    /// The content type ``escapingPragma`` names.
    static let escapingContentType: any MustacheContentType.Type = EscapingContentType.self

    /// Whether a template of this name exists.
    package func hasTemplate(_ name: String) -> Bool { origins[name] != nil }

    /// Renders a context with the named template, as UTF-8 bytes: with the template program, or
    /// with swift-mustache when the program declines the context.
    func bytes(rendering context: TemplateObject, with name: String) -> [UInt8] {
        if let program, let bytes = try? program.bytes(rendering: .object(context), with: name) { return bytes }
        return Array(referenceRender(context.any, with: name).utf8)
    }

    /// Renders with swift-mustache itself: for what ``TemplateProgram`` declines, and for tests
    /// that compare the two.
    func referenceRender(_ context: [String: Any], with name: String) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: "a closing tag does not match the open section"
        case .unfinishedName: "a tag is not closed with }}"
        case .expectedSectionEnd: "a section is never closed"
        case .invalidSetDelimiter: "invalid set-delimiter tag"
        case .transformAppliedToInheritanceSection: "a transform cannot apply to an inherited section"
        case .illegalTokenInsideInheritSection: "only {{$block}} overrides may appear inside {{<parent}}"
        case .textInsideInheritSection: "text inside {{<parent}} must be in a {{$block}}"
        case .invalidConfigVariableSyntax, .unrecognisedConfigVariable: "invalid {{% config }} tag"
        case nil: "\(error)"
        }
    }

    /// Finds `{{> name}}` and `{{< name}}` references to templates that do not exist, and cycles.
    static func checkPartials(_ sources: [String: (text: String, path: String)]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var edges: [String: [(target: String, line: Int, column: Int, lineText: String)]] = [:]
        for name in sources.keys.sorted() {
            guard let source = sources[name] else { continue }
            for reference in partialReferences(in: source.text) {
                edges[name, default: []].append(reference)
                if sources[reference.target] == nil {
                    diagnostics.append(
                        Diagnostic(
                            .error,
                            TagflowError(
                                location: SourceLocation(
                                    path: source.path, line: reference.line, column: reference.column),
                                step: "templates", message: "template '\(reference.target)' does not exist",
                                hint: "add templates/\(reference.target).mustache or fix the name",
                                sourceLine: reference.lineText)))
                }
            }
        }
        // Depth-first search for a cycle, reported once at the reference that closes it.
        var state: [String: Int] = [:]  // 1 = on the stack, 2 = done
        var reported = Set<String>()
        func visit(_ name: String, stack: [String]) {
            state[name] = 1
            for reference in edges[name] ?? [] where sources[reference.target] != nil {
                if state[reference.target] == 1 {
                    let cycle = (stack.drop { $0 != reference.target } + [name, reference.target]).joined(
                        separator: " → ")
                    if reported.insert(reference.target).inserted, let source = sources[name] {
                        diagnostics.append(
                            Diagnostic(
                                .error,
                                TagflowError(
                                    location: SourceLocation(
                                        path: source.path, line: reference.line, column: reference.column),
                                    step: "templates", message: "templates include each other forever: \(cycle)",
                                    hint: "a template must not include itself, directly or through others",
                                    sourceLine: reference.lineText)))
                    }
                } else if state[reference.target] == nil {
                    visit(reference.target, stack: stack + [name])
                }
            }
            state[name] = 2
        }
        for name in sources.keys.sorted() where state[name] == nil { visit(name, stack: []) }
        return diagnostics
    }

    /// How deep sections (`{{#…}}`, `{{^…}}`, blocks and parents) may nest in one template.
    static let maximumSectionDepth = 100

    /// Where a template's sections first nest deeper than ``maximumSectionDepth``, or `nil`.
    ///
    /// The line and column (1-based) are the opening tag's. A delimiter change (`{{=<% %>=}}`)
    /// is followed, as the parser follows it.
    static func tooDeepSection(in text: String) -> (line: Int, column: Int, lineText: String)? {
        var depth = 0
        var opening = "{{"
        var closing = "}}"
        for (lineIndex, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let open = rest.range(of: opening) {
                let sigil = rest[open.upperBound...].first
                rest = rest[open.upperBound...]
                switch sigil {
                case "#", "^", "$", "<":
                    depth += 1
                    if depth > maximumSectionDepth {
                        let column = line.distance(from: line.startIndex, to: open.lowerBound) + 1
                        return (lineIndex + 1, column, String(line))
                    }
                case "/": depth = max(0, depth - 1)
                case "=":
                    // `{{=<% %>=}}`: the two new delimiters, between `=` and `=` + the old closing.
                    let body = rest.dropFirst()
                    guard let end = body.range(of: "=" + closing) else { continue }
                    let parts = body[..<end.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\t" })
                    if parts.count == 2 {
                        opening = String(parts[0])
                        closing = String(parts[1])
                    }
                    rest = rest[end.upperBound...]
                default: break
                }
            }
        }
        return nil
    }

    /// The 1-based line, counting only `\n`, of swift-mustache's line `parserLine`.
    ///
    /// The parser counts every `Character.isNewline` (form feed, U+2028…) as a line break, so its
    /// line numbers drift from the editor's on such text; its column and line text are already
    /// `\n`-based.
    static func line(ofParserLine parserLine: Int, in text: String) -> Int {
        var breaks = 0
        var lines = 1
        for character in text where character.isNewline {
            guard breaks < parserLine - 1 else { break }
            breaks += 1
            if character.unicodeScalars.contains("\n") { lines += 1 }
        }
        return lines
    }

    /// `{{> name}}` / `{{< name}}` tags with their line and column (1-based).
    static func partialReferences(in text: String) -> [(target: String, line: Int, column: Int, lineText: String)] {
        var found: [(String, Int, Int, String)] = []
        for (lineIndex, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let open = rest.range(of: "{{") {
                let afterOpen = rest[open.upperBound...].drop { $0 == " " }
                guard let marker = afterOpen.first, marker == ">" || marker == "<" else {
                    rest = rest[open.upperBound...]
                    continue
                }
                let nameStart = afterOpen.dropFirst().drop { $0 == " " }
                guard let close = nameStart.range(of: "}}") else { break }
                let name = nameStart[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                let column = line.distance(from: line.startIndex, to: open.lowerBound) + 1
                if !name.isEmpty, !name.hasPrefix("*") { found.append((name, lineIndex + 1, column, String(line))) }
                rest = nameStart[close.upperBound...]
            }
        }
        return found
    }
}

/// HTML escaping for `{{name}}` tags, through the escaper every Tagflow module shares.
fileprivate struct EscapingContentType: MustacheContentType {
    func escapeText(_ text: String) -> String { HTMLEscaping.escaped(text) }
}
