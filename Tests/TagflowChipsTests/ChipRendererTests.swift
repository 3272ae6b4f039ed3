import Foundation
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
