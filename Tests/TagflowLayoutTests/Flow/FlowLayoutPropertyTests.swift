import PropertyBased
import Testing

@testable import TagflowLayout

/// Random inputs through the shared validator: overlap, containment, reading order, greedy rows,
/// and agreement of `sizeThatFits` with `placeSubviews`, for every option.
@Suite struct FlowLayoutPropertyTests {
    /// Items up to 200 px wide and 60 px tall in raw units, so widths are often fractional; a
    /// quarter of them have a baseline somewhere in their height.
    static let items = zip(
        Gen.int(in: 0...12_800), Gen.int(in: 0...3_840), Gen.int(in: 0...100).optional(valueRate: 0.25)
    )
    .map { values in
        FlowItem(
            size: LayoutSize(width: units(values.0), height: units(values.1)),
            firstBaseline: values.2.map { units(values.1 * $0 / 100) }
        )
    }
    .array(of: 0...40)

    static let flows = zip(
        zip(Gen.int(in: 0...1_280), Gen.int(in: 0...1_280)),
        Gen<FlowLayout.Justification>.case,
        Gen<FlowLayout.Alignment>.case,
        zip(Gen<LayoutDirection>.case, Gen.int(in: 0...4).optional(valueRate: 0.3))
    )
    .map { values in
        FlowLayout(
            horizontalSpacing: units(values.0.0),
            verticalSpacing: units(values.0.1),
            justification: values.1,
            alignment: values.2,
            direction: values.3.0,
            lineLimit: values.3.1
        )
    }

    @Test func randomLayoutsKeepEveryInvariant() async {
        await propertyCheck(count: 300, input: Self.flows, Self.items, Gen.int(in: 0...40_000).optional(valueRate: 0.9))
        {
            flow, items, width in
            validateFlow(flow, items, width: width.map(units))
        }
    }

    /// Right-to-left is left-to-right mirrored, unit for unit.
    @Test func rightToLeftMirrorsLeftToRight() async {
        await propertyCheck(count: 200, input: Self.flows, Self.items, Gen.int(in: 0...40_000)) { flow, items, raw in
            let width: LayoutUnit = units(raw)
            let leftToRight: FlowLayoutResult = flow.withDirection(.leftToRight).layout(items, in: width)
            let rightToLeft: FlowLayoutResult = validateFlow(flow.withDirection(.rightToLeft), items, width: width)
            let mirrored: [LayoutRect] = leftToRight.frames.map { (frame: LayoutRect) -> LayoutRect in
                frame.offsetBy(dx: width - frame.maxX - frame.minX, dy: .zero)
            }
            #expect(rightToLeft.frames == mirrored)
            #expect(rightToLeft.size == leftToRight.size)
        }
    }

    /// Containers exactly as wide as a prefix of the items on one row, give or take one unit:
    /// the boundary where floating point would drift.
    @Test func exactFitsBreakOnTheUnit() async {
        await propertyCheck(count: 300, input: Self.flows, Self.items, Gen.int(in: 1...40), Gen.int(in: -1...1)) {
            flow, items, fit, spare in
            guard !items.isEmpty else { return }
            let count = min(fit, items.count)
            let prefix = items.prefix(count).reduce(LayoutUnit.zero) { $0 + $1.size.width }
            let width = prefix + flow.horizontalSpacing * (count - 1) + units(spare)
            validateFlow(flow.withLineLimit(nil), items, width: width)
            let firstRow = referenceRows(items, width: width, gap: flow.horizontalSpacing, lineLimit: nil)[0]
            if spare >= 0 {
                #expect(firstRow.count >= count, "an exact fit stays on the row")
            } else if count > 1 && flow.horizontalSpacing + items[count - 1].size.width > .zero {
                #expect(firstRow.count == count - 1, "one unit short breaks the row")
            }
        }
    }

    /// The "+N more" item always ends up on the last allowed row, counting what it hides.
    @Test func overflowIndicatorSettles() async {
        await propertyCheck(count: 200, input: Self.flows, Self.items, Gen.int(in: 1...3), Gen.int(in: 0...30_000)) {
            flow, items, lines, width in
            let limited = flow.withLineLimit(lines)
            let indicator = { (hidden: Int) in
                FlowItem(size: LayoutSize(width: units(1_000 + 300 * String(hidden).count), height: px(20)))
            }
            let result = limited.layout(items, in: units(width), overflowIndicator: indicator)
            let all = limited.layout(items, in: units(width))
            if all.hiddenCount == 0 {
                #expect(result == all)
            } else {
                let indicatorFrame = try #require(result.overflowIndicatorFrame)
                #expect(result.hiddenCount == items.count - result.frames.count)
                #expect(result.rowCount <= lines)
                #expect(result.frames.allSatisfy { !$0.intersects(indicatorFrame) })
                #expect(indicatorFrame.width == units(1_000 + 300 * String(result.hiddenCount).count))
                // Greedy: one more visible item, with the indicator for one fewer, would not fit.
                #expect(
                    validateFlow(limited, Array(items.prefix(result.frames.count)), width: units(width)).hiddenCount
                        == 0)
                if result.frames.count < all.frames.count {
                    let retry = limited.layout(
                        Array(items.prefix(result.frames.count + 1)) + [indicator(result.hiddenCount - 1)],
                        in: units(width)
                    )
                    #expect(retry.hiddenCount > 0)
                }
            }
        }
    }
}
