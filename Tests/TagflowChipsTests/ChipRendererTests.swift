import Foundation
import TagflowHTML
import TagflowLayout
import TagflowMetrics
import Testing

@testable import TagflowChips

@Suite struct ChipRendererTests {
    let renderer = ChipRenderer()

    @Test func chipBoxIsTextWidthPlusPaddingAndBorder() {
        let chip = Chip(label: "Swift")
        let text = FontStack.default.measure("Swift", size: 14).width
        let size = renderer.size(of: chip)
        #expect(size.width.rawValue == text + 22 * 64)
        #expect(size.height == LayoutUnit(pixels: 28))
    }

    @Test func layoutMatchesTheFlowEngineAtEveryBreakpoint() {
        let chips = (0..<40).map { Chip(label: "tag number \($0)", url: "/tags/\($0)/") }
        let block = renderer.layout(chips)
        let items = chips.map { FlowItem(size: renderer.size(of: $0)) }
        for (index, breakpoint) in ChipStyle().breakpoints.enumerated() {
            let expected = ChipStyle().flowLayout.layout(items, in: LayoutUnit(pixels: breakpoint))
            #expect(block.frames[index].compactMap { $0 } == expected.frames)
            #expect(block.heights[index] == expected.size.height)
        }
    }

    @Test func htmlIsAListOfLinksInReadingOrderWithPositions() {
        let html = renderer.html(for: [Chip(label: "A&B", url: "/tags/a-and-b/"), Chip(label: "<b>", count: 3)])
        #expect(html.hasPrefix("<div class=\"tf-flow\"><ul class=\"tf-chips\" aria-label=\"Tags\""))
        #expect(html.contains("<a href=\"/tags/a-and-b/\">A&amp;B</a>"))
        #expect(html.contains("<span>&lt;b&gt; <span class=\"tf-n\">3</span></span>"))
        #expect(html.contains("--x0:"))
        #expect(html.contains("--h3:28"))
        #expect(!html.contains("<b>"))
    }

    /// Labels of several bytes a character, escaped next to them, come out as the same text: the
    /// block's bytes become a string without being checked, so they must be whole characters.
    @Test func htmlKeepsEveryCharacterOfNonASCIILabels() {
        let labels = ["日本語", "עברית", "🧑‍💻 code", "é&è", "e\u{301}<", "Ω\"quoted\"", "한국어'"]
        let chips = labels.enumerated().map { Chip(label: $1, url: "/tags/\($0)/", count: $0) }
        let html = renderer.html(for: chips, label: "Étiquettes ✓")
        #expect(String(validating: Array(html.utf8), as: UTF8.self) == html)
        #expect(html.unicodeScalars.count == String(decoding: Array(html.utf8), as: UTF8.self).unicodeScalars.count)
        for label in labels { #expect(html.contains(HTMLEscaping.escaped(label))) }
        #expect(html.contains("aria-label=\"Étiquettes ✓\""))
        #expect(html.hasSuffix("</ul></div>"))
    }

    @Test func rowLimitEndsWithAMoreChipPerBreakpoint() {
        let chips = (0..<60).map { Chip(label: "label \($0)", url: "/t/\($0)/") }
        let block = renderer.layout(chips, rowLimit: 2)
        for (index, more) in block.more.enumerated() {
            #expect(more != nil)
            let visible = block.frames[index].compactMap { $0 }.count
            #expect(more?.hidden == 60 - visible)
            #expect(
                (block.frames[index].compactMap { $0 }.map(\.maxY).max() ?? .zero) <= LayoutUnit(pixels: 28 * 2 + 8))
        }
        let html = renderer.html(for: chips, block: block, label: "Tags", moreURL: "/tags/")
        #expect(html.components(separatedBy: "class=\"tf-more\"").count - 1 == 4)
        #expect(html.contains("--d0:none"))
    }

    @Test func lengthsAreWrittenExactlyAndShort() {
        #expect(renderer.number(LayoutUnit(rawValue: 64)) == "1")
        #expect(renderer.number(LayoutUnit(rawValue: 65)) == "1.015625")
        #expect(renderer.number(LayoutUnit(rawValue: 96)) == "1.5")
        #expect(renderer.number(LayoutUnit(rawValue: -32)) == "-0.5")
        // Every value from -100 px to 100 px, and the extremes, as the plain rule writes them.
        for raw in Array(-6_400...6_400) + [Int.max, Int.min, Int.min + 1, 1 << 40, -(1 << 40) - 1] {
            #expect(renderer.number(LayoutUnit(rawValue: raw)) == Self.plainNumber(raw), "\(raw)")
        }
    }

    /// The rule for lengths, written plainly: the whole px, then the 1/64 fraction's decimals
    /// without trailing zeros.
    static func plainNumber(_ raw: Int) -> String {
        let whole = raw.magnitude / 64
        let fraction = raw.magnitude % 64
        let sign = raw < 0 ? "-" : ""
        guard fraction != 0 else { return sign + String(whole) }
        var digits = String(fraction * 15_625)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }

    @Test func weightsFollowALogScale() {
        #expect(Chip.weights(for: [1, 2, 4, 16], steps: 4) == [0, 0, 1, 3])
        #expect(Chip.weights(for: [1, 1], steps: 4) == [0, 0])
    }

    @Test func stylesheetHasOneContainerQueryPerBreakpoint() {
        let css = renderer.stylesheet()
        #expect(css.components(separatedBy: "@container").count - 1 == 4)
        #expect(css.contains("@container (min-width:320px)"))
        #expect(css.contains("prefers-color-scheme:dark"))
        #expect(css.contains("focus-visible"))
    }
}

/// WCAG 2 contrast of the default chip colours: text and the dimmer count, light and dark.
@Suite struct ChipContrastTests {
    static func rgb(_ hex: String) -> [Double] {
        let digits = Array(hex.dropFirst())
        return stride(from: 0, to: 6, by: 2).map { Double(Int(String(digits[$0...$0 + 1]), radix: 16) ?? 0) / 255 }
    }

    static func luminance(_ color: [Double]) -> Double {
        let linear = color.map { $0 <= 0.039_28 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func contrast(_ foreground: [Double], _ background: [Double]) -> Double {
        let (a, b) = (luminance(foreground), luminance(background))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    @Test func textAndCountsReachFourAndAHalfToOne() {
        let style = ChipStyle()
        for (text, background) in [
            (style.colors.text, style.colors.background), (style.colors.darkText, style.colors.darkBackground),
        ] {
            let foreground = Self.rgb(text)
            let back = Self.rgb(background)
            let count = zip(foreground, back).map { $0 * style.countOpacity + $1 * (1 - style.countOpacity) }
            #expect(Self.contrast(foreground, back) >= 4.5, "\(text) on \(background)")
            #expect(Self.contrast(count, back) >= 4.5, "count \(text) at \(style.countOpacity) on \(background)")
        }
    }
}
