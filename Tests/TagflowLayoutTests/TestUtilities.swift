import Testing

@testable import TagflowLayout

/// A subview of a fixed size, with an optional baseline, that counts nothing and never changes.
struct FakeSubview: LayoutSubview {
    var size: LayoutSize
    var baseline: LayoutUnit?

    func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize { size }
    func firstBaseline(for proposal: ProposedSize) -> LayoutUnit? { baseline }
}

/// Shorthand for a length in raw 1/64 px units.
func units(_ raw: Int) -> LayoutUnit { LayoutUnit(rawValue: raw) }

/// Shorthand for a length in whole pixels.
func px(_ pixels: Int) -> LayoutUnit { LayoutUnit(pixels: pixels) }

/// Shorthand for an item of whole-pixel size.
func item(_ width: Int, _ height: Int, baseline: Int? = nil) -> FlowItem {
    FlowItem(size: LayoutSize(pixelWidth: width, height: height), firstBaseline: baseline.map(px))
}

/// The rows a greedy flow must make, computed the obvious way.
///
/// A reference independent of the engine's loops. Each row is a range of item indices.
func referenceRows(_ items: [FlowItem], width: LayoutUnit?, gap: LayoutUnit, lineLimit: Int?) -> [Range<Int>] {
    var rows: [Range<Int>] = []
    var start = 0
    while start < items.count {
        if let lineLimit, rows.count >= lineLimit { break }
        var end = start + 1
        var used = items[start].size.width
        while end < items.count, width.map({ used + gap + items[end].size.width <= $0 }) ?? true {
            used = used + gap + items[end].size.width
            end += 1
        }
        rows.append(start..<end)
        start = end
    }
    return rows
}

/// Checks every invariant of a flow layout and returns its result.
///
/// Every layout test calls it, as swift-algorithms' tests call their `IndexValidator`.
///
/// Invariants: the same result twice; placed items are a prefix and the rest are counted hidden;
/// rows are the greedy ones (each row fits unless it is one oversized item, and the first item
/// of each row would not have fit on the row before); rows are stacked top to bottom at least
/// `verticalSpacing` apart; within a row items keep reading order (left to right, or right to
/// left) at least `horizontalSpacing` apart, so nothing overlaps; every item lies inside the
/// container unless it alone is wider; frame sizes are item sizes (row height for stretch); the
/// container height ends at the last row; and the `Layout` protocol (`sizeThatFits`, then
/// `placeSubviews`) gives the same size and frames as the direct entry point.
@discardableResult
func validateFlow(
    _ flow: FlowLayout,
    _ items: [FlowItem],
    width: LayoutUnit?,
    sourceLocation: SourceLocation = #_sourceLocation
) -> FlowLayoutResult {
    let result = flow.layout(items, in: width)
    #expect(flow.layout(items, in: width) == result, "same result twice", sourceLocation: sourceLocation)
    if items.allSatisfy({ $0.firstBaseline == nil }) {
        #expect(
            flow.layout(sizes: items.map(\.size), in: width) == result,
            "sizes entry point agrees",
            sourceLocation: sourceLocation
        )
    }

    let rows = referenceRows(items, width: width, gap: flow.horizontalSpacing, lineLimit: flow.lineLimit)
    let placed = rows.last?.upperBound ?? 0
    #expect(result.rowCount == rows.count, "row count", sourceLocation: sourceLocation)
    #expect(result.frames.count == placed, "placed items are a prefix", sourceLocation: sourceLocation)
    #expect(result.hiddenCount == items.count - placed, "hidden count", sourceLocation: sourceLocation)
    guard result.frames.count == placed else { return result }

    let containerWidth =
        width ?? rows.first.map { row in
            row.reduce(LayoutUnit.zero) { $0 + items[$1].size.width } + flow.horizontalSpacing * (row.count - 1)
        } ?? .zero
    #expect(result.size.width == containerWidth, "container width", sourceLocation: sourceLocation)

    var previousBottom: LayoutUnit?
    for (rowIndex, row) in rows.enumerated() {
        let rowWidth =
            row.reduce(LayoutUnit.zero) { $0 + items[$1].size.width } + flow.horizontalSpacing * (row.count - 1)
        // Greedy: the row fits (or is one item), and its first item would not fit on the row before.
        #expect(row.count == 1 || rowWidth <= containerWidth, "row \(rowIndex) fits", sourceLocation: sourceLocation)
        if rowIndex > 0 {
            let before = rows[rowIndex - 1]
            let beforeWidth =
                before.reduce(LayoutUnit.zero) { $0 + items[$1].size.width }
                + flow.horizontalSpacing * (before.count - 1)
            #expect(
                beforeWidth + flow.horizontalSpacing + items[row.lowerBound].size.width > containerWidth,
                "row \(rowIndex) is greedy",
                sourceLocation: sourceLocation
            )
        }
        // Rows are bands stacked in order.
        let top = row.map { result.frames[$0].minY }.min() ?? .zero
        let bottom = row.map { result.frames[$0].maxY }.max() ?? .zero
        if let previousBottom {
            #expect(
                top >= previousBottom + flow.verticalSpacing, "row \(rowIndex) below", sourceLocation: sourceLocation)
        } else {
            #expect(top >= .zero, "first row at the top", sourceLocation: sourceLocation)
        }
        previousBottom = bottom
        // Reading order within the row, spacing kept, so no overlap.
        for index in row.dropFirst() {
            let before = result.frames[index - 1]
            let frame = result.frames[index]
            switch flow.direction {
            case .leftToRight:
                #expect(
                    frame.minX >= before.maxX + flow.horizontalSpacing,
                    "item \(index) after item \(index - 1)",
                    sourceLocation: sourceLocation
                )
            case .rightToLeft:
                #expect(
                    frame.maxX + flow.horizontalSpacing <= before.minX,
                    "item \(index) before item \(index - 1)",
                    sourceLocation: sourceLocation
                )
            }
        }
        // Inside the container unless alone and wider; sizes kept.
        let rowHeight = row.map { result.frames[$0].height }.max() ?? .zero
        for index in row {
            let frame = result.frames[index]
            if !(row.count == 1 && frame.width > containerWidth) {
                #expect(
                    frame.minX >= .zero && frame.maxX <= containerWidth,
                    "item \(index) inside",
                    sourceLocation: sourceLocation
                )
            }
            #expect(frame.width == items[index].size.width, "item \(index) width", sourceLocation: sourceLocation)
            let expectedHeight = flow.alignment == .stretch ? rowHeight : items[index].size.height
            #expect(frame.height == expectedHeight, "item \(index) height", sourceLocation: sourceLocation)
        }
    }
    #expect(result.size.height == (previousBottom ?? .zero), "container height", sourceLocation: sourceLocation)
    // No two frames overlap at all (a direct check for small inputs).
    if result.frames.count <= 60 {
        for a in result.frames.indices {
            for b in result.frames.indices where a < b {
                #expect(
                    !result.frames[a].intersects(result.frames[b]), "\(a) and \(b) overlap",
                    sourceLocation: sourceLocation)
            }
        }
    }

    // The SwiftUI-shaped API agrees with the direct one.
    let subviews = items.map { FakeSubview(size: $0.size, baseline: $0.firstBaseline) }
    let proposal = ProposedSize(width: width, height: nil)
    var cache = flow.makeCache(subviews: subviews)
    let size = flow.sizeThatFits(proposal: proposal, subviews: subviews, cache: &cache)
    #expect(size == result.size, "sizeThatFits agrees", sourceLocation: sourceLocation)
    let origin = LayoutPoint(x: px(3), y: units(5))
    let frames = flow.placeSubviews(
        in: LayoutRect(origin: origin, size: size),
        proposal: proposal,
        subviews: subviews,
        cache: &cache
    )
    #expect(frames.count == items.count, "one frame per subview", sourceLocation: sourceLocation)
    #expect(
        Array(frames.prefix(placed)) == result.frames.map { $0.offsetBy(dx: origin.x, dy: origin.y) },
        "placeSubviews agrees",
        sourceLocation: sourceLocation
    )
    return result
}
