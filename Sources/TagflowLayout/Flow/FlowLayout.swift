/// A layout that fills rows from the leading edge and wraps to a new row when the next item does
/// not fit, placing every item exactly where Chromium draws `display:flex; flex-wrap:wrap`.
///
/// Use it in two ways:
/// - as a ``Layout``, with subviews that answer their size for a proposal, as in SwiftUI;
/// - directly, with fixed sizes, through ``layout(sizes:in:)`` or ``layout(_:in:)``: one call,
///   one allocation (the frames), and a ``FlowLayoutResult`` that also tells how many rows were
///   made and how many items did not fit under the ``lineLimit``.
///
/// ```swift
/// let flow = FlowLayout(spacing: LayoutUnit(pixels: 8), justification: .center)
/// let result = flow.layout(
///     sizes: [56, 80, 40, 120].map { LayoutSize(pixelWidth: $0, height: 28) },
///     in: LayoutUnit(pixels: 200))
/// result.frames.map(\.origin)
/// // [(4px, 0px), (68px, 0px), (156px, 0px), (40px, 36px)]
/// result.rowCount   // 2
/// ```
///
/// Rows are greedy: an item starts a new row when the items already on the row, the spacing
/// between them and the item itself would be wider than the container, strictly, so an exact fit
/// stays. The first item of a row is always taken: an item wider than the container sits alone on
/// its row and overflows it. All arithmetic is in ``LayoutUnit``s (1/64 px), as in the browser.
public struct FlowLayout: Hashable, Sendable {
    /// Where the items of a row go along it, like CSS `justify-content`.
    public enum Justification: Hashable, Sendable, CaseIterable {
        /// Packed toward the leading edge (`flex-start`).
        case start
        /// Packed around the middle (`center`); an oversized item overflows both edges.
        case center
        /// Packed toward the trailing edge (`flex-end`); an oversized item overflows the leading edge.
        case end
        /// The first item at the leading edge, the last at the trailing edge, the rest of the free
        /// space spread evenly between them (`space-between`); a lone item goes to the start.
        case spaceBetween
        /// Equal space on both sides of each item (`space-around`): half a share at each end.
        case spaceAround
        /// Equal space before, between and after the items (`space-evenly`).
        case spaceEvenly
    }

    /// Where an item goes within the height of its row, like CSS `align-items`.
    public enum Alignment: Hashable, Sendable, CaseIterable {
        /// At the top of the row (`flex-start`).
        case start
        /// In the middle of the row (`center`), rounded toward the top.
        case center
        /// At the bottom of the row (`flex-end`).
        case end
        /// With the first baselines of the row's items on one line (`baseline`). An item without a
        /// baseline uses its bottom edge.
        case firstBaseline
        /// As tall as the row (`stretch`).
        case stretch
    }

    /// The space between two items of a row (CSS `column-gap`).
    public var horizontalSpacing: LayoutUnit
    /// The space between two rows (CSS `row-gap`).
    public var verticalSpacing: LayoutUnit
    /// Where the items of a row go along it.
    public var justification: Justification
    /// Where an item goes within the height of its row.
    public var alignment: Alignment
    /// Whether rows fill from the left or from the right.
    public var direction: LayoutDirection
    /// The most rows to make, or `nil` for no limit.
    ///
    /// The items that do not fit are not placed; ``FlowLayoutResult/hiddenCount`` says how many
    /// there were.
    public var lineLimit: Int? {
        didSet { lineLimit = lineLimit.map { Swift.max(0, $0) } }
    }

    /// Creates a flow layout.
    ///
    /// - Parameters:
    ///   - horizontalSpacing: The space between two items of a row.
    ///   - verticalSpacing: The space between two rows.
    ///   - justification: Where the items of a row go along it.
    ///   - alignment: Where an item goes within the height of its row.
    ///   - direction: Whether rows fill from the left or from the right.
    ///   - lineLimit: The most rows to make, or `nil` for no limit; a negative limit counts as 0.
    public init(
        horizontalSpacing: LayoutUnit = .zero,
        verticalSpacing: LayoutUnit = .zero,
        justification: Justification = .start,
        alignment: Alignment = .start,
        direction: LayoutDirection = .leftToRight,
        lineLimit: Int? = nil
    ) {
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
        self.justification = justification
        self.alignment = alignment
        self.direction = direction
        self.lineLimit = lineLimit.map { Swift.max(0, $0) }
    }

    /// Creates a flow layout with the same spacing between items and between rows.
    ///
    /// - Parameters:
    ///   - spacing: The space between two items of a row and between two rows.
    ///   - justification: Where the items of a row go along it.
    ///   - alignment: Where an item goes within the height of its row.
    ///   - direction: Whether rows fill from the left or from the right.
    ///   - lineLimit: The most rows to make, or `nil` for no limit.
    public init(
        spacing: LayoutUnit,
        justification: Justification = .start,
        alignment: Alignment = .start,
        direction: LayoutDirection = .leftToRight,
        lineLimit: Int? = nil
    ) {
        self.init(
            horizontalSpacing: spacing,
            verticalSpacing: spacing,
            justification: justification,
            alignment: alignment,
            direction: direction,
            lineLimit: lineLimit
        )
    }

    /// A copy with other spacing.
    ///
    /// - Parameters:
    ///   - horizontal: The space between two items of a row.
    ///   - vertical: The space between two rows.
    /// - Returns: The changed copy.
    public func withSpacing(horizontal: LayoutUnit, vertical: LayoutUnit) -> FlowLayout {
        var copy = self
        copy.horizontalSpacing = horizontal
        copy.verticalSpacing = vertical
        return copy
    }

    /// A copy with another justification.
    ///
    /// - Parameter justification: Where the items of a row go along it.
    /// - Returns: The changed copy.
    public func withJustification(_ justification: Justification) -> FlowLayout {
        var copy = self
        copy.justification = justification
        return copy
    }

    /// A copy with another alignment.
    ///
    /// - Parameter alignment: Where an item goes within the height of its row.
    /// - Returns: The changed copy.
    public func withAlignment(_ alignment: Alignment) -> FlowLayout {
        var copy = self
        copy.alignment = alignment
        return copy
    }

    /// A copy with another direction.
    ///
    /// - Parameter direction: Whether rows fill from the left or from the right.
    /// - Returns: The changed copy.
    public func withDirection(_ direction: LayoutDirection) -> FlowLayout {
        var copy = self
        copy.direction = direction
        return copy
    }

    /// A copy with another line limit.
    ///
    /// - Parameter lineLimit: The most rows to make, or `nil` for no limit.
    /// - Returns: The changed copy.
    public func withLineLimit(_ lineLimit: Int?) -> FlowLayout {
        var copy = self
        copy.lineLimit = lineLimit
        return copy
    }
}

/// The direction in which rows fill, like SwiftUI's `LayoutDirection` and CSS `direction`.
public enum LayoutDirection: Hashable, Sendable, CaseIterable {
    /// Rows start at the left edge.
    case leftToRight
    /// Rows start at the right edge.
    case rightToLeft
}

/// One item for ``FlowLayout/layout(_:in:)``: a fixed size and, optionally, a first baseline.
public struct FlowItem: Hashable, Sendable {
    /// The item's size.
    public var size: LayoutSize
    /// The distance from the item's top edge to its first text baseline, if it has text.
    public var firstBaseline: LayoutUnit?

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - size: The item's size.
    ///   - firstBaseline: The distance from the top edge to the first baseline, if any.
    @inlinable
    public init(size: LayoutSize, firstBaseline: LayoutUnit? = nil) {
        self.size = size
        self.firstBaseline = firstBaseline
    }
}

/// Where ``FlowLayout`` put a list of items.
public struct FlowLayoutResult: Hashable, Sendable {
    /// The container's size: the proposed width (or, with none, the width of the single row) and
    /// the height of the rows and the spacing between them.
    public var size: LayoutSize
    /// The frames of the items that were placed, in item order.
    ///
    /// Frames are relative to the container's top-left corner. Items past the line limit have none.
    public var frames: [LayoutRect]
    /// The number of rows made.
    public var rowCount: Int
    /// The number of items that did not fit under the line limit.
    public var hiddenCount: Int
    /// Where the "+N more" item went, when one was asked for and items were hidden.
    public var overflowIndicatorFrame: LayoutRect?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - size: The container's size.
    ///   - frames: The frames of the placed items.
    ///   - rowCount: The number of rows.
    ///   - hiddenCount: The number of items that did not fit.
    ///   - overflowIndicatorFrame: Where the "+N more" item went, if anywhere.
    public init(
        size: LayoutSize,
        frames: [LayoutRect],
        rowCount: Int,
        hiddenCount: Int,
        overflowIndicatorFrame: LayoutRect? = nil
    ) {
        self.size = size
        self.frames = frames
        self.rowCount = rowCount
        self.hiddenCount = hiddenCount
        self.overflowIndicatorFrame = overflowIndicatorFrame
    }
}
