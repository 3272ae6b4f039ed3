extension FlowLayout: Layout {
    /// The subviews' ideal sizes and baselines, measured once and shared by
    /// ``sizeThatFits(proposal:subviews:cache:)`` and ``placeSubviews(in:proposal:subviews:cache:)``.
    public struct Cache: Sendable {
        /// Each subview's ideal size and first baseline.
        var idealItems: [FlowItem]
        /// The widest ideal width, to skip re-measuring when nothing is oversized.
        var widestIdealWidth: LayoutUnit
    }

    /// Measures every subview's ideal size once.
    ///
    /// - Parameter subviews: The subviews to lay out.
    /// - Returns: The cache.
    /// - Complexity: O(*n*) calls to the subviews.
    public func makeCache(subviews: [some LayoutSubview]) -> Cache {
        var widest = LayoutUnit.zero
        var items: [FlowItem] = []
        items.reserveCapacity(subviews.count)
        for index in subviews.indices {
            let size = subviews[index].sizeThatFits(.unspecified)
            widest = Swift.max(widest, size.width)
            items.append(FlowItem(size: size, firstBaseline: subviews[index].firstBaseline(for: .unspecified)))
        }
        return Cache(idealItems: items, widestIdealWidth: widest)
    }

    /// The container size for a proposal: the proposed width (or the single row's width when
    /// none is proposed) and the height of the rows.
    ///
    /// The proposed height is ignored: the layout grows downward, as a block-level flex
    /// container does.
    ///
    /// - Parameters:
    ///   - proposal: The size offered.
    ///   - subviews: The subviews to lay out.
    ///   - cache: The cache from ``makeCache(subviews:)``.
    /// - Returns: The container size.
    /// - Complexity: O(*n*), no allocation unless a subview is wider than the proposal.
    public func sizeThatFits(
        proposal: ProposedSize,
        subviews: [some LayoutSubview],
        cache: inout Cache
    ) -> LayoutSize {
        let summary = measure(items(for: proposal.width, subviews: subviews, cache: cache), in: proposal.width)
        return LayoutSize(width: LayoutUnit(rawValue: summary.width), height: LayoutUnit(rawValue: summary.height))
    }

    /// The frame of each subview within `bounds`, which rows fill at `bounds.width`.
    ///
    /// A subview past the ``lineLimit`` gets an empty frame at the bounds' origin.
    ///
    /// - Parameters:
    ///   - bounds: Where the layout is drawn.
    ///   - proposal: The proposal `bounds` was sized for.
    ///   - subviews: The subviews to lay out.
    ///   - cache: The cache from ``makeCache(subviews:)``.
    /// - Returns: One frame per subview, in subview order.
    /// - Complexity: O(*n*).
    public func placeSubviews(
        in bounds: LayoutRect,
        proposal: ProposedSize,
        subviews: [some LayoutSubview],
        cache: inout Cache
    ) -> [LayoutRect] {
        let width = bounds.width
        var placed = layout(items(for: width, subviews: subviews, cache: cache), in: width)
        var frames: [LayoutRect] = []
        swap(&frames, &placed.frames)  // unique, so the offsets below do not copy it
        for index in frames.indices {
            frames[index] = frames[index].offsetBy(dx: bounds.minX, dy: bounds.minY)
        }
        let hidden = LayoutRect(origin: bounds.origin, size: .zero)
        frames.append(contentsOf: repeatElement(hidden, count: placed.hiddenCount))
        return frames
    }

    /// The items to lay out at a width: the ideal ones, except that a subview wider than the
    /// width is asked again with the width proposed (a text might wrap; a chip stays as it is).
    private func items(for width: LayoutUnit?, subviews: [some LayoutSubview], cache: Cache) -> [FlowItem] {
        guard let width, cache.widestIdealWidth > width else { return cache.idealItems }
        var items = cache.idealItems
        let proposal = ProposedSize(width: width, height: nil)
        for index in items.indices where items[index].size.width > width {
            let subview = subviews[index]
            items[index] = FlowItem(
                size: subview.sizeThatFits(proposal),
                firstBaseline: subview.firstBaseline(for: proposal)
            )
        }
        return items
    }
}
