import Testing

@testable import TagflowLayout

/// Examples with known answers.
///
/// Numbers marked "Chromium" were read from headless Chromium (`display:flex; flex-wrap:wrap`,
/// boxes of the same sizes) and are in 1/64 px.
@Suite struct FlowLayoutTests {
    @Test func emptyInputMakesNoRows() {
        let result = validateFlow(FlowLayout(spacing: px(8)), [], width: px(300))
        #expect(
            result
                == FlowLayoutResult(
                    size: LayoutSize(width: px(300), height: .zero), frames: [], rowCount: 0, hiddenCount: 0))
    }

    @Test func oneItemStartsAtTheLeadingEdge() {
        let result = validateFlow(FlowLayout(spacing: px(8)), [item(40, 20)], width: px(300))
        #expect(result.frames == [LayoutRect(x: .zero, y: .zero, width: px(40), height: px(20))])
        #expect(result.size == LayoutSize(pixelWidth: 300, height: 20))
    }

    @Test func rowsWrapWhenTheNextItemDoesNotFit() {
        let flow = FlowLayout(horizontalSpacing: px(8), verticalSpacing: px(4))
        let result = validateFlow(flow, [item(60, 20), item(60, 30), item(60, 20)], width: px(140))
        #expect(
            result.frames.map(\.origin) == [
                LayoutPoint(x: .zero, y: .zero), LayoutPoint(x: px(68), y: .zero), LayoutPoint(x: .zero, y: px(34)),
            ])
        #expect(result.rowCount == 2)
        #expect(result.size == LayoutSize(pixelWidth: 140, height: 54))
    }

    /// An exact fit stays on the row; one unit less of width breaks it.
    @Test(arguments: [(0, 1), (1, 1), (-1, 2)])
    func exactFitBoundary(spare: Int, rows: Int) {
        let items = [FlowItem(size: LayoutSize(width: units(3601), height: px(28)))] + [item(41, 28)]
        let exact = units(3601) + units(515) + px(41)
        let flow = FlowLayout(horizontalSpacing: units(515))
        let result = validateFlow(flow, items, width: exact + units(spare))
        #expect(result.rowCount == rows)
    }

    @Test func noProposedWidthPutsEverythingOnOneRow() {
        let items = (0..<50).map { item(10 + $0, 20) }
        let result = validateFlow(FlowLayout(spacing: px(8), justification: .spaceBetween), items, width: nil)
        #expect(result.rowCount == 1)
        #expect(result.size.width == px((0..<50).reduce(0) { $0 + 10 + $1 } + 49 * 8))
    }

    @Test func oversizedItemGetsARowOfItsOwn() {
        let result = validateFlow(
            FlowLayout(spacing: px(8)), [item(20, 10), item(400, 10), item(20, 10)], width: px(100))
        #expect(result.rowCount == 3)
        #expect(result.frames[1] == LayoutRect(x: .zero, y: px(18), width: px(400), height: px(10)))
    }

    /// Chromium: 13 px in 10 px overflows both sides when centered, the leading side at the end,
    /// and falls back to the start for space-around and space-evenly.
    @Test(arguments: [
        (FlowLayout.Justification.center, LayoutDirection.leftToRight, -96),
        (.end, .leftToRight, -192), (.spaceAround, .leftToRight, 0), (.spaceEvenly, .leftToRight, 0),
        (.spaceBetween, .leftToRight, 0), (.start, .rightToLeft, -192), (.center, .rightToLeft, -96),
        (.end, .rightToLeft, 0),
    ])
    func oversizedItemOverflowsLikeChromium(justification: FlowLayout.Justification, direction: LayoutDirection, x: Int)
    {
        let flow = FlowLayout(justification: justification, direction: direction)
        let result = validateFlow(flow, [item(13, 1)], width: px(10))
        #expect(result.frames[0].minX == units(x))
    }

    /// Chromium, four 1 px boxes in a container 642 or 643 or 645 units wide.
    @Test(arguments: [
        (FlowLayout.Justification.spaceBetween, 642, [0, 193, 385, 578]),
        (.spaceAround, 642, [48, 209, 369, 530]),
        (.spaceEvenly, 642, [77, 218, 359, 501]),
        (.spaceEvenly, 643, [77, 218, 360, 501]),
        (.spaceAround, 645, [48, 209, 371, 532]),
        (.center, 643, [193, 257, 321, 385]),
        (.end, 643, [387, 451, 515, 579]),
    ])
    func distributedSpaceMatchesChromium(justification: FlowLayout.Justification, width: Int, xs: [Int]) {
        let flow = FlowLayout(justification: justification)
        let result = validateFlow(flow, Array(repeating: item(1, 1), count: 4), width: units(width))
        #expect(result.frames.map(\.minX.rawValue) == xs)
        let mirrored = validateFlow(
            flow.withDirection(.rightToLeft), Array(repeating: item(1, 1), count: 4), width: units(width))
        #expect(mirrored.frames.map(\.minX.rawValue) == xs.map { width - $0 - 64 })
    }

    /// Chromium: one item alone with space-around or space-evenly is centered (truncated).
    @Test func loneItemIsCenteredBySpaceAroundAndEvenly() {
        let around = validateFlow(FlowLayout(justification: .spaceAround), [item(3, 1)], width: px(10))
        #expect(around.frames[0].minX == units(224))
        let evenly = validateFlow(FlowLayout(justification: .spaceEvenly), [item(3, 1)], width: units(641))
        #expect(evenly.frames[0].minX == units(224))
        let between = validateFlow(FlowLayout(justification: .spaceBetween), [item(3, 1)], width: px(10))
        #expect(between.frames[0].minX == .zero)
    }

    /// Chromium: baselines 2 px and 6 px and a box without one (its bottom edge, 4 px).
    @Test func firstBaselineAlignment() {
        let flow = FlowLayout(alignment: .firstBaseline)
        let result = validateFlow(flow, [item(3, 5, baseline: 2), item(3, 8, baseline: 6), item(3, 4)], width: px(10))
        #expect(result.frames.map(\.minY.rawValue) == [256, 0, 128])
        #expect(result.size.height == px(9))
    }

    /// Chromium: stretch makes every item as tall as the row; center truncates toward the top.
    @Test func stretchAndCenterAlignment() {
        let stretched = validateFlow(
            FlowLayout(alignment: .stretch), [item(3, 5), item(3, 8), item(3, 4)], width: px(10))
        #expect(stretched.frames.map(\.height) == [px(8), px(8), px(8)])
        let items = [FlowItem(size: LayoutSize(width: px(3), height: units(321))), item(3, 8), item(3, 4)]
        let centered = validateFlow(FlowLayout(alignment: .center), items, width: px(10))
        #expect(centered.frames.map(\.minY.rawValue) == [95, 0, 128])
        let ended = validateFlow(FlowLayout(alignment: .end), items, width: px(10))
        #expect(ended.frames.map(\.minY.rawValue) == [191, 0, 256])
    }

    @Test func rightToLeftFillsFromTheRight() {
        let flow = FlowLayout(spacing: px(8), direction: .rightToLeft)
        let result = validateFlow(flow, [item(40, 20), item(30, 20), item(50, 20)], width: px(100))
        #expect(result.frames.map(\.minX) == [px(60), px(22), px(50)])
    }

    @Test func lineLimitCountsTheItemsThatDidNotFit() {
        let flow = FlowLayout(spacing: px(8), lineLimit: 2)
        let result = validateFlow(flow, Array(repeating: item(40, 20), count: 10), width: px(100))
        #expect(result.rowCount == 2)
        #expect(result.frames.count == 4)
        #expect(result.hiddenCount == 6)
        #expect(result.size.height == px(48))
        let none = validateFlow(flow.withLineLimit(0), [item(40, 20)], width: px(100))
        #expect(none.frames.isEmpty && none.hiddenCount == 1 && none.size.height == .zero)
    }

    @Test func overflowIndicatorTakesTheLastPlace() {
        let flow = FlowLayout(spacing: px(8), lineLimit: 1)
        let chips = [60, 60, 60].map { item($0, 20) }
        let result = flow.layout(chips, in: px(150)) { _ in item(30, 20) }
        #expect(result.frames.count == 1)
        #expect(result.hiddenCount == 2)
        #expect(result.overflowIndicatorFrame == LayoutRect(x: px(68), y: .zero, width: px(30), height: px(20)))
    }

    /// "+9" fits where the last visible chip ends; "+10" is wider and pushes one more chip out,
    /// and the count it shows must be the final one.
    @Test func overflowIndicatorSettlesWhenItsWidthGrows() {
        let flow = FlowLayout(spacing: px(4), lineLimit: 1)
        let chips = Array(repeating: item(20, 10), count: 13)
        var asked: [Int] = []
        let result = flow.layout(chips, in: px(100)) { hidden in
            asked.append(hidden)
            return item(hidden < 10 ? 20 : 28, 10)
        }
        // 4 chips fit (92 px); "+9" (20 px) does not fit after them: 3 chips + "+10" (28 px) = 100 px.
        #expect(asked == [9, 10])
        #expect(result.frames.count == 3)
        #expect(result.hiddenCount == 10)
        #expect(result.overflowIndicatorFrame?.maxX == px(100))
    }

    @Test func overflowIndicatorIsNotAddedWhenEverythingFits() {
        let flow = FlowLayout(spacing: px(4), lineLimit: 3)
        let result = flow.layout([item(20, 10)], in: px(100)) { _ in item(30, 10) }
        #expect(result.overflowIndicatorFrame == nil)
        #expect(result.hiddenCount == 0)
    }

    @Test func oversizedSubviewIsProposedTheContainerWidth() {
        struct Paragraph: LayoutSubview {
            func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize {
                // One long line, or two lines when narrower.
                if let width = proposal.width, width < px(200) { return LayoutSize(width: width, height: px(40)) }
                return LayoutSize(pixelWidth: 200, height: 20)
            }
        }
        let placement = FlowLayout().place([Paragraph()], proposal: ProposedSize(width: px(120), height: nil))
        #expect(placement.frames == [LayoutRect(x: .zero, y: .zero, width: px(120), height: px(40))])
        #expect(placement.size == LayoutSize(pixelWidth: 120, height: 40))
    }

    @Test func subviewsOfDifferentTypesLayOutTogether() {
        struct Dot: LayoutSubview {
            func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize { LayoutSize(pixelWidth: 4, height: 4) }
        }
        let chip = FixedSizeSubview(LayoutSize(pixelWidth: 40, height: 20), firstBaseline: px(15))
        let subviews = [AnyLayoutSubview(chip), AnyLayoutSubview(Dot())]
        let placement = FlowLayout(horizontalSpacing: px(2), alignment: .firstBaseline)
            .place(subviews, proposal: ProposedSize(width: px(100), height: nil))
        #expect(placement.frames.map(\.origin) == [LayoutPoint(x: .zero, y: .zero), LayoutPoint(x: px(42), y: px(11))])
    }

    @Test func hiddenSubviewsGetEmptyFramesAtTheOrigin() {
        let subviews = [
            FakeSubview(size: LayoutSize(pixelWidth: 60, height: 10)),
            FakeSubview(size: LayoutSize(pixelWidth: 60, height: 10)),
        ]
        let placement = FlowLayout(lineLimit: 1).place(
            subviews, proposal: ProposedSize(width: px(100), height: nil), at: LayoutPoint(x: px(7), y: px(9)))
        #expect(placement.frames[1] == LayoutRect(x: px(7), y: px(9), width: .zero, height: .zero))
    }

    @Test func withMethodsReturnChangedCopies() {
        let flow = FlowLayout()
            .withSpacing(horizontal: px(1), vertical: px(2))
            .withJustification(.end)
            .withAlignment(.center)
            .withDirection(.rightToLeft)
            .withLineLimit(-3)
        #expect(
            flow
                == FlowLayout(
                    horizontalSpacing: px(1), verticalSpacing: px(2), justification: .end, alignment: .center,
                    direction: .rightToLeft, lineLimit: 0))
    }

    /// The examples in the documentation say what the code does.
    @Test func documentationExamples() {
        let flow = FlowLayout(spacing: px(8), justification: .center, lineLimit: 2)
        let chips = [56.25, 80, 40, 120].map {
            FlowItem(size: LayoutSize(width: LayoutUnit(cssPixels: $0), height: px(28)))
        }
        let result = validateFlow(flow, chips, width: px(200))
        #expect(
            result.frames.map(\.description) == [
                "(3.875px, 0px) 56.25px×28px", "(68.125px, 0px) 80px×28px",
                "(156.125px, 0px) 40px×28px", "(40px, 36px) 120px×28px",
            ])
        #expect(result.size == LayoutSize(pixelWidth: 200, height: 64))

        let centered = FlowLayout(spacing: px(8), justification: .center)
            .layout(sizes: [56, 80, 40, 120].map { LayoutSize(pixelWidth: $0, height: 28) }, in: px(200))
        #expect(
            centered.frames.map(\.origin.description) == ["(4px, 0px)", "(68px, 0px)", "(156px, 0px)", "(40px, 36px)"])

        let two = FlowLayout(spacing: px(8)).layout(
            sizes: [LayoutSize(pixelWidth: 60, height: 20), LayoutSize(pixelWidth: 60, height: 20)], in: px(100))
        #expect(two.frames.map(\.origin.description) == ["(0px, 0px)", "(0px, 28px)"])
        #expect(two.size.description == "100px×48px")

        let subviews = [56, 80, 40].map { FixedSizeSubview(LayoutSize(pixelWidth: $0, height: 28)) }
        let placement = FlowLayout(spacing: px(8)).place(subviews, proposal: ProposedSize(width: px(150), height: nil))
        #expect(placement.frames.map(\.origin.description) == ["(0px, 0px)", "(64px, 0px)", "(0px, 36px)"])
    }
}
