import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

/// The template reference (docs/templates.md, "Variables") names every value the renderer gives a
/// template: a value added without its documentation fails here.
@Suite struct TemplateReferenceTests {
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../docs/templates.md").standardizedFileURL

    /// A site that gives every optional value: updated dates, a table of contents, related posts,
    /// neighbours, params, several pages of posts, a description and an author, a series, nested
    /// tags, a category.
    static let site = """
        -- site.yml --
        title: Reference
        description: Every value
        author: Ann
        posts_per_page: 2
        tags:
          hierarchy: true
        -- posts/2024-01-01-a.md --
        ---
        title: A
        tags: [Swift, Layout]
        categories: [Guides]
        updated: 2024-02-01
        toc: true
        series: one
        ---
        ## First
        ### Second
        A.
        -- posts/2024-01-02-b.md --
        ---
        title: B
        tags: [Swift, Layout]
        ---
        B.
        -- posts/2024-01-03-c.md --
        ---
        title: C
        tags: [Swift, lang/swift]
        ---
        C.
        -- pages/about.md --
        ---
        title: About
        team: us
        ---
        About.
        """

    @Test func everyValueATemplateGetsIsDocumented() async throws {
        let fixture = try SiteFixture(Self.site)
        defer { fixture.remove() }
        let context = try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).run()
        let site = try #require(context.site)
        let renderer = await SiteRenderer(
            site: site, theme: try #require(context.theme), hooks: context.plugins,
            images: ContentImages(staticFiles: [], config: site.config)
        ).prepared()
        // Template → the dotted names it was given (`post.related.tags.url`).
        var given: [String: Set<String>] = [:]
        for job in renderer.jobs {
            guard let made = renderer.templateContext(of: job) else { continue }
            Self.collect(.object(made.context), prefix: "", into: &given[made.template, default: []])
        }
        #expect(
            Set(given.keys) == [
                "home", "post", "page", "tags", "tag", "archive", "series", "series-list", "terms", "term", "404",
                "atom",
                "sitemap",
            ])

        let (common, byTemplate) = try Self.documentedNames()
        for (template, names) in given.sorted(by: { $0.key < $1.key }) {
            let documented = common.union(byTemplate[template] ?? [])
            // A name is documented when its path, or its last part in this template's row or in
            // the sections every page shares, is written in backticks. Params are the author's.
            let missing = names.filter { name in
                let parts = name.split(separator: ".").map(String.init)
                if parts.contains("params") { return false }
                return !documented.contains(name) && !documented.contains(parts.last ?? name)
            }
            #expect(missing.isEmpty, "docs/templates.md does not name what `\(template)` gets: \(missing.sorted())")
        }
    }

    /// Every name in a template value, as dotted paths; a list's items add their names under the
    /// list's.
    static func collect(_ value: TemplateValue, prefix: String, into names: inout Set<String>) {
        switch value {
        case .object(let object):
            for key in object.names {
                guard let inner = object[key] else { continue }
                let path = prefix.isEmpty ? key : prefix + "." + key
                names.insert(path)
                collect(inner, prefix: path, into: &names)
            }
        case .shared(let shared):
            collect(.object(shared.values), prefix: prefix, into: &names)
        case .list(let items):
            for item in items { collect(item, prefix: prefix, into: &names) }
        default:
            break
        }
    }

    /// The names in backticks in the "Variables" section: those of the sections every page shares,
    /// and those of each template's row of the "Per page kind" table (with their parts:
    /// `site.home_url` also names `home_url`).
    static func documentedNames() throws -> (common: Set<String>, byTemplate: [String: Set<String>]) {
        let text = try String(contentsOf: reference, encoding: .utf8)
        let start = try #require(text.range(of: "## Variables\n"))
        let section = text[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var common = Set<String>()
        var byTemplate: [String: Set<String>] = [:]
        var heading = ""
        for line in section[..<end].split(separator: "\n") {
            if line.hasPrefix("### ") { heading = String(line.dropFirst(4)) }
            let names = Self.backticked(String(line))
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            if heading == "Per page kind", line.hasPrefix("| `"), cells.count >= 3,
                let template = Self.backticked(String(cells[1])).first
            {
                // A row of the "Per page kind" table: `home` (`/`, …) | what it gets.
                byTemplate[template, default: []].formUnion(Self.backticked(String(cells[2])))
            } else {
                common.formUnion(names)
            }
        }
        return (common, byTemplate)
    }

    /// The backticked words of a line, each also split at `.` and `,`.
    static func backticked(_ line: String) -> [String] {
        let parts = line.split(separator: "`", omittingEmptySubsequences: false)
        var names: [String] = []
        for (index, part) in parts.enumerated() where index % 2 == 1 {
            let name = part.trimmingCharacters(in: .whitespaces)
            names.append(name)
            names += name.split(whereSeparator: { $0 == "." || $0 == "," }).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        return names
    }
}
