import Foundation
import TagflowChipPlugin
import TagflowTesting
import Testing

@testable import TagflowCore

@Suite struct ChipFontTests {
    @Test func aFontFileThatIsNotAFontIsAClearError() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            chips:
              font: static/fonts/brand.ttf
            -- static/fonts/brand.ttf --
            This is a text file with a font's name.
            -- posts/2024-01-01-a.md --
            ---
            title: A
            tags: [x]
            ---
            """)
        defer { fixture.remove() }
        do {
            try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
            Issue.record("expected a failure")
        } catch {
            let problem = try #require(error.errors.first)
            #expect(problem.location?.path == "static/fonts/brand.ttf")
            #expect(problem.message.hasPrefix("chips.font is not a usable font"))
            #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
        }
    }

    @Test func aNamedFontIsMeasuredAndShipped() async throws {
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        guard let bytes = FileManager.default.contents(atPath: font) else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "CI installs fonts-dejavu-core")
            return
        }
        let fixture = try SiteFixture(
            "-- site.yml --\nchips:\n  font: fonts/DejaVuSans.ttf\n-- posts/2024-01-01-a.md --\n---\ntitle: A\ntags: [x]\n---\n"
        )
        defer { fixture.remove() }
        try fixture.write("fonts/DejaVuSans.ttf", bytes: Array(bytes))
        try await SiteBuilder(siteRoot: fixture.site, plugins: [.chips]).build(to: fixture.output)
        #expect(try fixture.output("assets/chips.css").contains("@font-face{font-family:\"Tagflow Chips\""))
        #expect(
            FileManager.default.fileExists(
                atPath: fixture.output.appendingPathComponent("assets/chips/DejaVuSans.ttf").path))
        #expect(try fixture.output("posts/a/index.html").contains("class=\"tf-chips\""))
    }
}
