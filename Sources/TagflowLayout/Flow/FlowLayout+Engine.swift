// The line breaker and placer behind every FlowLayout entry point. It works on raw 1/64 px
// integers and reads items through a tiny protocol so that the compiler specializes one loop per
// input shape ([LayoutSize] or [FlowItem]) with no per-item indirection.

/// Read access to the items being laid out, in raw 1/64 px.
protocol FlowItemSource {
    /// The number of items.
    var count: Int { get }
    /// The width of item `index`.
    func width(at index: Int) -> Int
    /// The height of item `index`.
    func height(at index: Int) -> Int
    /// The first baseline of item `index`, or its height when it has none.
    func baseline(at index: Int) -> Int
}

/// Items given as bare sizes: none has a baseline.
struct SizeSource: FlowItemSource {
    let base: UnsafeBufferPointer<LayoutSize>

    var count: Int { base.count }
    @inline(__always) func width(at index: Int) -> Int { base[index].width.rawValue }
    @inline(__always) func height(at index: Int) -> Int { base[index].height.rawValue }
    @inline(__always) func baseline(at index: Int) -> Int { base[index].height.rawValue }
}

/// Items given with optional baselines.
struct ItemSource: FlowItemSource {
    let base: UnsafeBufferPointer<FlowItem>

    var count: Int { base.count }
    @inline(__always) func width(at index: Int) -> Int { base[index].size.width.rawValue }
    @inline(__always) func height(at index: Int) -> Int { base[index].size.height.rawValue }
    @inline(__always) func baseline(at index: Int) -> Int {
        base[index].firstBaseline?.rawValue ?? base[index].size.height.rawValue
    }
}

/// What a run of the engine found, in raw 1/64 px.
struct FlowSummary {
    /// The number of items placed (a prefix of the input).
    var placedCount = 0
    /// The number of rows made.
    var rowCount = 0
    /// The container width.
    var width = 0
    /// The container height.
    var height = 0
}

extension FlowLayout {
    /// Breaks items into rows and, when `frames` is given, writes the frame of every placed item.
    ///
    /// - Parameters:
    ///   - items: The items.
    ///   - proposedWidth: The container width, or `nil` to put every item on one row.
    ///   - frames: Room for `items.count` frames, or `nil` to measure only.
    /// - Returns: The counts and the container size.
    /// - Complexity: O(*n*): every item is read twice, once to break rows and once to place it
    ///   (three times with baseline alignment).
    func run<Source: FlowItemSource>(
        _ items: Source,
        width proposedWidth: Int?,
        into frames: UnsafeMutablePointer<LayoutRect>?
    ) -> FlowSummary {
        let count = items.count
        let available = proposedWidth ?? Int.max
        let gap = horizontalSpacing.rawValue
        let rowGap = verticalSpacing.rawValue
        let rowLimit = lineLimit ?? Int.max
        var summary = FlowSummary()
        var start = 0
        var top = 0
        var widest = 0
        while start < count && summary.rowCount < rowLimit {
            // Greedy break: the first item is always taken; the next joins while
            // (items so far + gaps + item) <= available, exactly as Chromium's line breaker.
            var used = items.width(at: start)
            var rowHeight = items.height(at: start)
            var end = start + 1
            while end < count {
                let next = used + gap + items.width(at: end)
                if next > available { break }
                used = next
                rowHeight = Swift.max(rowHeight, items.height(at: end))
                end += 1
            }
            var ascent = 0
            if alignment == .firstBaseline {
                var descent = 0
                for index in start..<end {
                    let baseline = items.baseline(at: index)
                    ascent = Swift.max(ascent, baseline)
                    descent = Swift.max(descent, items.height(at: index) - baseline)
                }
                rowHeight = Swift.max(rowHeight, ascent + descent)
            }
            if summary.rowCount > 0 { top += rowGap }
            let containerWidth = proposedWidth ?? used
            widest = Swift.max(widest, used)
            if let frames {
                placeRow(
                    items,
                    start..<end,
                    used: used,
                    containerWidth: containerWidth,
                    top: top,
                    rowHeight: rowHeight,
                    ascent: ascent,
                    into: frames
                )
            }
            top += rowHeight
            summary.rowCount += 1
            start = end
        }
        summary.placedCount = start
        summary.width = proposedWidth ?? widest
        summary.height = top
        return summary
    }

    /// Writes the frames of one row.
    ///
    /// Justification follows Chromium: the leading offset is a whole number of units (truncated),
    /// and the space distributed between items is rounded per item from the exact share
    /// (`round(k * free / slots)`, halves up), so the remainder is spread one unit at a time and
    /// the last item ends exactly at the trailing edge for `spaceBetween`.
    @inline(__always)
    private func placeRow<Source: FlowItemSource>(
        _ items: Source,
        _ range: Range<Int>,
        used: Int,
        containerWidth: Int,
        top: Int,
        rowHeight: Int,
        ascent: Int,
        into frames: UnsafeMutablePointer<LayoutRect>
    ) {
        let itemCount = range.count
        let free = containerWidth - used
        var lead = 0
        var slots = 0
        switch justification {
        case .start:
            break
        case .end:
            lead = free
        case .center:
            lead = free / 2
        case .spaceBetween:
            if free > 0 && itemCount > 1 { slots = itemCount - 1 }
        case .spaceAround:
            if free > 0 {
                slots = itemCount
                lead = free / (2 * itemCount)
            }
        case .spaceEvenly:
            if free > 0 {
                slots = itemCount + 1
                lead = free / (itemCount + 1)
            }
        }
        let gap = horizontalSpacing.rawValue
        let rightToLeft = direction == .rightToLeft
        // extra(k) = round(k * free / slots) = (2 * k * free + slots) / (2 * slots)
        var numerator = slots
        let denominator = 2 * slots
        var main = lead
        for index in range {
            let width = items.width(at: index)
            let height = items.height(at: index)
            var x = main
            if slots > 0 {
                x += numerator / denominator
                numerator += 2 * free
            }
            if rightToLeft { x = containerWidth - x - width }
            var y = top
            var frameHeight = height
            switch alignment {
            case .start:
                break
            case .center:
                y += (rowHeight - height) / 2
            case .end:
                y += rowHeight - height
            case .firstBaseline:
                y += ascent - items.baseline(at: index)
            case .stretch:
                frameHeight = rowHeight
            }
            frames[index] = LayoutRect(
                x: LayoutUnit(rawValue: x),
                y: LayoutUnit(rawValue: y),
                width: LayoutUnit(rawValue: width),
                height: LayoutUnit(rawValue: frameHeight)
            )
            main += width + gap
        }
    }

    /// Runs the engine and collects the frames into a result.
    func result<Source: FlowItemSource>(_ items: Source, width: LayoutUnit?) -> FlowLayoutResult {
        var summary = FlowSummary()
        let frames = [LayoutRect](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            summary = run(items, width: width?.rawValue, into: buffer.baseAddress)
            initialized = summary.placedCount
        }
        return FlowLayoutResult(
            size: LayoutSize(width: LayoutUnit(rawValue: summary.width), height: LayoutUnit(rawValue: summary.height)),
            frames: frames,
            rowCount: summary.rowCount,
            hiddenCount: items.count - summary.placedCount
        )
    }
}
