import Testing

@testable import TagflowLayout

/// Ports of SwiftUI example layouts, written against ``Layout`` exactly as a user would.
@Suite struct CustomLayoutTests {
    /// The row-caching flexible stack from the blog posts Tagflow grew from: measure every
    /// subview once in `makeCache`, break rows in `sizeThatFits` and keep them in the cache, and
    /// reuse them in `placeSubviews`. (SwiftUI's version calls `subview.place(at:)`; here placing
    /// returns the frames.)
    struct FlexibleStack: Layout {
        var spacing: LayoutUnit

        struct Cache {
            var sizes: [LayoutSize]
            var rows: [Range<Int>] = []
            var rowsWidth: LayoutUnit?
            var sizeThatFitsCalls = 0
        }

        func makeCache(subviews: [some LayoutSubview]) -> Cache {
            Cache(sizes: subviews.map { $0.sizeThatFits(.unspecified) })
        }

        func sizeThatFits(proposal: ProposedSize, subviews: [some LayoutSubview], cache: inout Cache) -> LayoutSize {
            cache.sizeThatFitsCalls += 1
            let width = proposal.replacingUnspecifiedDimensions(by: LayoutSize(width: .max, height: .zero)).width
            cache.rows = rows(in: width, sizes: cache.sizes)
            cache.rowsWidth = width
            var height = LayoutUnit.zero
            var widest = LayoutUnit.zero
            for (index, row) in cache.rows.enumerated() {
                height += row.map { cache.sizes[$0].height }.max() ?? .zero
                if index > 0 { height += spacing }
                let rowWidth = row.reduce(LayoutUnit.zero) { $0 + cache.sizes[$1].width } + spacing * (row.count - 1)
                widest = max(widest, rowWidth)
            }
            return LayoutSize(width: widest, height: height)
        }

        func placeSubviews(
            in bounds: LayoutRect,
            proposal: ProposedSize,
            subviews: [some LayoutSubview],
            cache: inout Cache
        ) -> [LayoutRect] {
            let width = proposal.replacingUnspecifiedDimensions(by: LayoutSize(width: .max, height: .zero)).width
            if cache.rowsWidth != width {
                cache.rows = rows(in: width, sizes: cache.sizes)
                cache.rowsWidth = width
            }
            var frames: [LayoutRect] = []
            var y = bounds.minY
            for row in cache.rows {
                var x = bounds.minX
                for index in row {
                    frames.append(LayoutRect(origin: LayoutPoint(x: x, y: y), size: cache.sizes[index]))
                    x += cache.sizes[index].width + spacing
                }
                y += (row.map { cache.sizes[$0].height }.max() ?? .zero) + spacing
            }
            return frames
        }

        private func rows(in width: LayoutUnit, sizes: [LayoutSize]) -> [Range<Int>] {
            var rows: [Range<Int>] = []
            var start = 0
            var x = LayoutUnit.zero
            for (index, size) in sizes.enumerated() {
                if index > start && x + spacing + size.width > width {
                    rows.append(start..<index)
                    start = index
                    x = size.width
                } else {
                    x = index == start ? size.width : x + spacing + size.width
                }
            }
            if start < sizes.count { rows.append(start..<sizes.count) }
            return rows
        }
    }

    /// WWDC22's equal-width HStack: every subview gets the width of the widest one.
    struct EqualWidthHStack: Layout {
        var spacing: LayoutUnit

        func sizeThatFits(proposal: ProposedSize, subviews: [some LayoutSubview], cache: inout ()) -> LayoutSize {
            let maxSize = maxSize(subviews)
            return LayoutSize(
                width: maxSize.width * subviews.count + spacing * max(0, subviews.count - 1),
                height: maxSize.height
            )
        }

        func placeSubviews(
            in bounds: LayoutRect,
            proposal: ProposedSize,
            subviews: [some LayoutSubview],
            cache: inout ()
        ) -> [LayoutRect] {
            let maxSize = maxSize(subviews)
            return subviews.indices.map { index in
                LayoutRect(
                    origin: LayoutPoint(x: bounds.minX + (maxSize.width + spacing) * index, y: bounds.minY),
                    size: LayoutSize(width: maxSize.width, height: maxSize.height)
                )
            }
        }

        private func maxSize(_ subviews: [some LayoutSubview]) -> LayoutSize {
            subviews.map { $0.sizeThatFits(.unspecified) }.reduce(LayoutSize.zero) {
                LayoutSize(width: max($0.width, $1.width), height: max($0.height, $1.height))
            }
        }
    }

    @Test func flexibleStackPlacesLikeAStartAlignedFlowLayout() {
        let subviews = [56, 80, 40, 120, 10, 75, 300].map { FakeSubview(size: LayoutSize(pixelWidth: $0, height: 28)) }
        for width in [px(100), px(150), units(9_471), px(1_000)] {
            let proposal = ProposedSize(width: width, height: nil)
            let stack = FlexibleStack(spacing: px(8)).place(subviews, proposal: proposal)
            let flow = FlowLayout(spacing: px(8)).place(subviews, proposal: proposal)
            #expect(stack.frames == flow.frames)
            #expect(stack.size.height == flow.size.height)
        }
    }

    @Test func flexibleStackReusesItsCachedRows() {
        let subviews = [56, 80, 40].map { FakeSubview(size: LayoutSize(pixelWidth: $0, height: 28)) }
        let stack = FlexibleStack(spacing: px(8))
        var cache = stack.makeCache(subviews: subviews)
        let proposal = ProposedSize(width: px(100), height: nil)
        let size = stack.sizeThatFits(proposal: proposal, subviews: subviews, cache: &cache)
        #expect(cache.rows == [0..<1, 1..<2, 2..<3])
        let frames = stack.placeSubviews(
            in: LayoutRect(origin: .zero, size: size),
            proposal: proposal,
            subviews: subviews,
            cache: &cache
        )
        #expect(cache.sizeThatFitsCalls == 1)
        #expect(frames.map(\.minY) == [.zero, px(36), px(72)])
    }

    @Test func equalWidthHStack() {
        let subviews = [
            FakeSubview(size: LayoutSize(pixelWidth: 30, height: 10)),
            FakeSubview(size: LayoutSize(pixelWidth: 50, height: 20)),
        ]
        let placement = EqualWidthHStack(spacing: px(4)).place(
            subviews, proposal: .unspecified, at: LayoutPoint(x: px(1), y: px(1)))
        #expect(placement.size == LayoutSize(pixelWidth: 104, height: 20))
        #expect(
            placement.frames == [
                LayoutRect(x: px(1), y: px(1), width: px(50), height: px(20)),
                LayoutRect(x: px(55), y: px(1), width: px(50), height: px(20)),
            ])
    }
}
