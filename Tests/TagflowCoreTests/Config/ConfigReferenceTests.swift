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
        let rows = text[section.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| `") }
        let documented = Set(rows.compactMap { row in row.dropFirst(3).split(separator: "`").first.map(String.init) })
        #expect(documented == Set(SiteConfig.knownKeys), "docs/configuration.md rows vs SiteConfig.knownKeys")
    }
}
