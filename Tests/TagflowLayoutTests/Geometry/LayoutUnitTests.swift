import Testing

@testable import TagflowLayout

@Suite struct LayoutUnitTests {
    /// Chromium: `width: 1.0156249999px` in a stylesheet is 65 units (through a float, 1.015625),
    /// not 64 as truncating the double would give; likewise `2.99999999px` is 192.
    @Test(arguments: [
        (56.25, 3600), (0.01, 0), (8.3, 531), (-8.3, -531), (0.015625, 1), (0.0156, 0), (300, 19_200),
        (1.0156249999, 65), (2.99999999, 192), (0.0156249, 0),
    ])
    func cssPixelsAreTruncated(pixels: Double, raw: Int) {
        #expect(LayoutUnit(cssPixels: pixels).rawValue == raw)
    }

    @Test(arguments: [(41.2, 2637), (41.203125, 2637), (0.0001, 1), (0, 0), (10, 640)])
    func textWidthsAreRoundedUp(pixels: Double, raw: Int) {
        #expect(LayoutUnit(textWidth: pixels).rawValue == raw)
    }

    @Test func conversionsSaturateLikeTheBrowser() {
        #expect(LayoutUnit(cssPixels: 1e12) == .max)
        #expect(LayoutUnit(cssPixels: -1e12) == .min)
        #expect(LayoutUnit(cssPixels: .nan) == .zero)
        #expect(LayoutUnit(textWidth: .infinity) == .max)
    }

    @Test func pixelsAreExact() {
        #expect(LayoutUnit(rawValue: 3601).pixels == 56.265625)
        #expect(LayoutUnit(pixels: 3).rawValue == 192)
    }

    @Test func arithmeticIsIntegral() {
        #expect(units(5) + units(7) == units(12))
        #expect(units(5) - units(7) == units(-2))
        #expect(units(5) * 3 == units(15))
        #expect(units(-193) / 2 == units(-96), "truncates toward zero as C++ does")
        #expect(-units(4) == units(-4))
        #expect(units(1) < units(2))
    }

    @Test(arguments: [(3600, "56.25px"), (1, "0.015625px"), (-1, "-0.015625px"), (-65, "-1.015625px"), (640, "10px")])
    func descriptionIsInPixels(raw: Int, text: String) {
        #expect(units(raw).description == text)
    }

    @Test func geometryHelpers() {
        let rect = LayoutRect(x: px(1), y: px(2), width: px(3), height: px(4))
        #expect(rect.maxX == px(4) && rect.maxY == px(6))
        #expect(
            !rect.intersects(LayoutRect(x: px(4), y: px(2), width: px(1), height: px(1))), "touching is not overlapping"
        )
        #expect(rect.intersects(LayoutRect(x: px(3), y: px(5), width: px(1), height: px(1))))
        #expect(
            ProposedSize(width: px(300), height: nil).replacingUnspecifiedDimensions()
                == LayoutSize(pixelWidth: 300, height: 10))
        #expect(ProposedSize(LayoutSize(pixelWidth: 1, height: 2)) == ProposedSize(width: px(1), height: px(2)))
        #expect(rect.description == "(1px, 2px) 3px×4px")
    }
}
