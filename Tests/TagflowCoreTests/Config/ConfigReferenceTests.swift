import Foundation
import TagflowChips
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

    /// Each chip setting's default in the reference is the one the chips plugin uses: the style's
    /// for how chips look (`ChipsConfig` leaves them `nil`), `ChipsConfig`'s for the rest.
    @Test func theChipDefaultsAreTheOnesInTheCode() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        var documented: [String: String] = [:]
        for row in text.split(separator: "\n") where row.hasPrefix("| `chips.") {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            documented[cells[0].trimmingCharacters(in: ["`"])] = cells[1].trimmingCharacters(in: ["`"])
        }
        func number(_ value: Double) -> String { String(format: "%g", value) }
        let style = ChipStyle()
        let config = ChipsConfig()
        let expected: [String: String] = [
            "chips.enabled": "\(config.enabled)", "chips.font": config.font.isEmpty ? "empty" : config.font,
            "chips.font_size": number(style.fontSize), "chips.line_height": number(style.lineHeight),
            "chips.padding_x": number(style.paddingX), "chips.padding_y": number(style.paddingY),
            "chips.border": number(style.border), "chips.radius": number(style.radius),
            "chips.column_gap": number(style.columnGap), "chips.row_gap": number(style.rowGap),
            "chips.justify": "\(style.justification)", "chips.align": "\(style.alignment)",
            "chips.colors.text": style.colors.text, "chips.colors.background": style.colors.background,
            "chips.colors.border": style.colors.borderColor, "chips.colors.dark_text": style.colors.darkText,
            "chips.colors.dark_background": style.colors.darkBackground,
            "chips.colors.dark_border": style.colors.darkBorderColor,
            "chips.breakpoints": "[" + style.breakpoints.map(String.init).joined(separator: ", ") + "]",
            "chips.weights": "[" + style.weightScale.map(number).joined(separator: ", ") + "]",
            "chips.cloud_order": config.cloudOrder, "chips.home_rows": "\(config.homeRows)",
            "chips.related_limit": "\(config.relatedLimit)",
        ]
        #expect(Set(expected.keys) == Set(SiteConfig.knownKeys.filter { $0.hasPrefix("chips.") }))
        for key in expected.keys.sorted() {
            #expect(documented[key] == expected[key], "\(key): the reference says \(documented[key] ?? "nothing")")
        }
    }
}
