/// Something a layout can place: it answers its size for a proposal, like SwiftUI's
/// `LayoutSubview` proxy.
///
/// Conform a chip, a measured label or a test fake to it:
///
/// ```swift
/// struct Chip: LayoutSubview {
///     var size: LayoutSize
///     func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize { size }
/// }
/// ```
public protocol LayoutSubview {
    /// The size the subview takes for a proposal.
    ///
    /// - Parameter proposal: The proposed size; `nil` dimensions ask for the ideal size.
    /// - Returns: The size the subview takes.
    func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize

    /// The distance from the subview's top edge to its first text baseline, if it has one.
    ///
    /// Layouts that align baselines use the bottom edge for a subview without one, as a browser
    /// synthesizes a flex item's baseline from its border box.
    ///
    /// - Parameter proposal: The proposed size.
    /// - Returns: The baseline offset, or `nil` when the subview has no text.
    func firstBaseline(for proposal: ProposedSize) -> LayoutUnit?
}

extension LayoutSubview {
    /// A subview has no baseline unless it says so.
    public func firstBaseline(for proposal: ProposedSize) -> LayoutUnit? {
        nil
    }
}

/// A subview of a fixed size, whatever it is proposed: a chip whose box was measured already.
///
/// ```swift
/// let chip = FixedSizeSubview(LayoutSize(pixelWidth: 56, height: 28), firstBaseline: LayoutUnit(pixels: 19))
/// chip.sizeThatFits(.zero)   // 56px×28px
/// ```
public struct FixedSizeSubview: LayoutSubview, Hashable, Sendable {
    /// The size returned for every proposal.
    public var size: LayoutSize
    /// The baseline returned for every proposal.
    public var baseline: LayoutUnit?

    /// Creates a fixed-size subview.
    ///
    /// - Parameters:
    ///   - size: The size returned for every proposal.
    ///   - firstBaseline: The offset of the first baseline from the top, if any.
    public init(_ size: LayoutSize, firstBaseline: LayoutUnit? = nil) {
        self.size = size
        self.baseline = firstBaseline
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize {
        size
    }

    public func firstBaseline(for proposal: ProposedSize) -> LayoutUnit? {
        baseline
    }
}

/// A type-erased subview, for laying out subviews of different types together.
///
/// ```swift
/// let subviews = [AnyLayoutSubview(chip), AnyLayoutSubview(paragraph)]
/// FlowLayout().place(subviews, proposal: ProposedSize(width: LayoutUnit(pixels: 320), height: nil))
/// ```
public struct AnyLayoutSubview: LayoutSubview {
    private let base: any LayoutSubview

    /// Wraps a subview.
    ///
    /// - Parameter base: The subview to forward to.
    public init(_ base: some LayoutSubview) {
        self.base = base
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize {
        base.sizeThatFits(proposal)
    }

    public func firstBaseline(for proposal: ProposedSize) -> LayoutUnit? {
        base.firstBaseline(for: proposal)
    }
}
