import TagflowChipPlugin
import Testing

@testable import TagflowCore

@Suite struct ChipsConfigTests {
    @Test func readsChipSettings() throws {
        let (config, warnings) = try SiteConfig.parse(
            """
            chips:
              font_size: 15
              justify: center
              align: end
              breakpoints: [640, 320, 640]
              weights: [1, 1.5]
              cloud_order: count
              home_rows: 0
              related_limit: 5
              colors: {text: "#123456", dark_background: rgb(10 20 30)}
            """)
        #expect(warnings.isEmpty)
        #expect(config.chips.fontSize == 15)
        #expect(config.chips.justify == "center")
        #expect(config.chips.align == "end")
        #expect(config.chips.breakpoints == [320, 640])
        #expect(config.chips.weights == [1, 1.5])
        #expect(config.chips.cloudOrder == "count")
        #expect(config.chips.homeRows == 0)
        #expect(config.chips.relatedLimit == 5)
        #expect(config.chips.colors == ["text": "#123456", "dark_background": "rgb(10 20 30)"])
    }

    @Test func badChipSettingsAreErrorsAtTheirLines() {
        do {
            _ = try SiteConfig.parse(
                "chips:\n  justify: left\n  breakpoints: [wide]\n  colors:\n    text: \"red;}body{display:none\"\n  padding_x: -1\n  related_limit: many\n"
            )
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.map { $0.location?.line } == [2, 3, 5, 6, 7])
        }
    }
}
