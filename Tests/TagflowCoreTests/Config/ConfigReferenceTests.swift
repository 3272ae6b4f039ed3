import Foundation
import Testing

@testable import TagflowCore

/// The configuration reference (docs/configuration.md) must list exactly the keys `site.yml` accepts.
@Suite struct ConfigReferenceTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../docs/configuration.md").standardizedFileURL

    @Test func readmeDocumentsEveryConfigKey() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let section = try #require(text.range(of: "## Configuration reference"))
        // One table: a blank line inside it would end it there, and Markdown would show the rest as text.
        let lines = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        let table = lines.drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        let rows = table.filter { $0.hasPrefix("| `") }
        let documented = Set(rows.compactMap { row in row.dropFirst(3).split(separator: "`").first.map(String.init) })
        #expect(documented == Set(SiteConfig.knownKeys), "docs/configuration.md rows vs SiteConfig.knownKeys")
    }
}
