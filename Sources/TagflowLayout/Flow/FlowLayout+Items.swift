extension FlowLayout {
    /// Lays out items of fixed sizes in a container of the given width.
    ///
    /// ```swift
    /// let result = FlowLayout(spacing: LayoutUnit(pixels: 8))
    ///     .layout(sizes: [LayoutSize(pixelWidth: 60, height: 20), LayoutSize(pixelWidth: 60, height: 20)],
    ///             in: LayoutUnit(pixels: 100))
    /// result.frames.map(\.origin)   // [(0px, 0px), (0px, 28px)]
    /// result.size                   // 100px×48px
    /// ```
    ///
    /// - Parameters:
    ///   - sizes: The items' sizes, in reading order.
    ///   - width: The container width, or `nil` to put every item on one row (the ideal size).
    /// - Returns: The frames of the placed items, the container size, the row count and the
    ///   number of items past the line limit.
    /// - Complexity: O(*n*) time; one allocation, the frames.
    public func layout(sizes: [LayoutSize], in width: LayoutUnit?) -> FlowLayoutResult {
        sizes.withUnsafeBufferPointer { result(SizeSource(base: $0), width: width) }
    }

    /// Lays out items of fixed sizes, with optional baselines, in a container of the given width.
    ///
    /// Baselines matter only with ``Alignment/firstBaseline``; an item without one uses its
    /// bottom edge, as a browser does.
    ///
    /// - Parameters:
    ///   - items: The items, in reading order.
    ///   - width: The container width, or `nil` to put every item on one row (the ideal size).
    /// - Returns: The frames of the placed items, the container size, the row count and the
    ///   number of items past the line limit.
    /// - Complexity: O(*n*) time; one allocation, the frames.
    public func layout(_ items: [FlowItem], in width: LayoutUnit?) -> FlowLayoutResult {
        items.withUnsafeBufferPointer { result(ItemSource(base: $0), width: width) }
    }

    /// Lays out items under the line limit, ending with a "+N more" item when some do not fit.
    ///
    /// When every item fits, this is ``layout(_:in:)``. Otherwise the indicator takes the last
    /// place: it is appended after the items that fit, and while it does not fit itself, the last
    /// visible item is hidden too and the indicator (now counting one more) is tried again, until
    /// it settles. The indicator's frame is ``FlowLayoutResult/overflowIndicatorFrame``; it is
    /// not in ``FlowLayoutResult/frames``. With a line limit of 0 nothing is shown, not even the
    /// indicator.
    ///
    /// ```swift
    /// let flow = FlowLayout(spacing: LayoutUnit(pixels: 8), lineLimit: 1)
    /// let chips = [60, 60, 60].map { FlowItem(size: LayoutSize(pixelWidth: $0, height: 20)) }
    /// let result = flow.layout(chips, in: LayoutUnit(pixels: 150)) { hidden in
    ///     FlowItem(size: LayoutSize(pixelWidth: 30, height: 20))   // "+\(hidden)"
    /// }
    /// result.frames.count           // 1
    /// result.hiddenCount            // 2
    /// result.overflowIndicatorFrame // (68px, 0px) 30px×20px
    /// ```
    ///
    /// - Parameters:
    ///   - items: The items, in reading order.
    ///   - width: The container width, or `nil` to put every item on one row.
    ///   - overflowIndicator: Makes the "+N more" item for a number of hidden items.
    /// - Returns: The layout, with the indicator's frame when items were hidden.
    /// - Complexity: O(*n* × *k*), where *k* is the number of tries, usually one or two.
    public func layout(
        _ items: [FlowItem],
        in width: LayoutUnit?,
        overflowIndicator: (_ hiddenCount: Int) -> FlowItem
    ) -> FlowLayoutResult {
        let full = layout(items, in: width)
        guard full.hiddenCount > 0, lineLimit != 0 else { return full }
        var visible = full.frames.count
        var candidate = Array(items.prefix(visible))
        candidate.reserveCapacity(visible + 1)
        while true {
            let hidden = items.count - visible
            candidate.append(overflowIndicator(hidden))
            var attempt = layout(candidate, in: width)
            if attempt.hiddenCount == 0 {
                attempt.overflowIndicatorFrame = attempt.frames.popLast()
                attempt.hiddenCount = hidden
                return attempt
            }
            // A prefix breaks into the same rows, so only the indicator missed: make room.
            precondition(visible > 0, "the first item of the first row always fits")
            candidate.removeLast(2)
            visible -= 1
        }
    }

    /// The container size, row count and hidden count for items, without placing them.
    ///
    /// - Parameters:
    ///   - items: The items, in reading order.
    ///   - width: The container width, or `nil` for one row.
    /// - Returns: The engine's summary.
    func measure(_ items: [FlowItem], in width: LayoutUnit?) -> FlowSummary {
        items.withUnsafeBufferPointer { run(ItemSource(base: $0), width: width?.rawValue, into: nil) }
    }
}
