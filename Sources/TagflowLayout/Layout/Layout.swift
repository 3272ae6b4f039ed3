/// A type that sizes and places subviews, with the shape of SwiftUI's `Layout` protocol.
///
/// A parent first asks ``sizeThatFits(proposal:subviews:cache:)`` how big the layout wants to be
/// for a proposal, then gives it bounds of that size and asks
/// ``placeSubviews(in:proposal:subviews:cache:)`` where each subview goes. A cache, made once by
/// ``makeCache(subviews:)``, carries measurements from one call to the next. Unlike SwiftUI,
/// placing returns the frames instead of calling `place(at:)` on proxies, so a layout is a pure
/// function of its inputs.
///
/// ```swift
/// struct Column: Layout {
///     func sizeThatFits(proposal: ProposedSize, subviews: [some LayoutSubview], cache: inout ()) -> LayoutSize {
///         let sizes = subviews.map { $0.sizeThatFits(.unspecified) }
///         return LayoutSize(
///             width: sizes.map(\.width).max() ?? .zero,
///             height: sizes.reduce(.zero) { $0 + $1.height })
///     }
///     func placeSubviews(
///         in bounds: LayoutRect, proposal: ProposedSize, subviews: [some LayoutSubview], cache: inout ()
///     ) -> [LayoutRect] {
///         var y = bounds.minY
///         return subviews.map { subview in
///             let size = subview.sizeThatFits(.unspecified)
///             defer { y += size.height }
///             return LayoutRect(origin: LayoutPoint(x: bounds.minX, y: y), size: size)
///         }
///     }
/// }
/// ```
public protocol Layout {
    /// Measurements kept between calls for the same subviews.
    associatedtype Cache = Void

    /// Makes the cache for a set of subviews.
    ///
    /// - Parameter subviews: The subviews to lay out.
    /// - Returns: A new cache.
    func makeCache(subviews: [some LayoutSubview]) -> Cache

    /// Brings a cache up to date after the subviews changed.
    ///
    /// The default makes a new cache.
    ///
    /// - Parameters:
    ///   - cache: The cache to update.
    ///   - subviews: The new subviews.
    func updateCache(_ cache: inout Cache, subviews: [some LayoutSubview])

    /// The size the layout takes for a proposal.
    ///
    /// - Parameters:
    ///   - proposal: The size the parent offers; `nil` dimensions ask for the ideal size.
    ///   - subviews: The subviews to lay out.
    ///   - cache: The cache made by ``makeCache(subviews:)`` for these subviews.
    /// - Returns: The layout's size.
    func sizeThatFits(proposal: ProposedSize, subviews: [some LayoutSubview], cache: inout Cache) -> LayoutSize

    /// The frame of each subview, in the coordinate space of `bounds`.
    ///
    /// - Parameters:
    ///   - bounds: Where the layout is drawn; its size is the one ``sizeThatFits(proposal:subviews:cache:)``
    ///     returned for `proposal`.
    ///   - proposal: The proposal `bounds` was sized for.
    ///   - subviews: The subviews to lay out.
    ///   - cache: The cache made by ``makeCache(subviews:)`` for these subviews.
    /// - Returns: One frame per subview, in subview order.
    func placeSubviews(
        in bounds: LayoutRect,
        proposal: ProposedSize,
        subviews: [some LayoutSubview],
        cache: inout Cache
    ) -> [LayoutRect]
}

extension Layout {
    /// Makes a new cache, as SwiftUI's default does.
    public func updateCache(_ cache: inout Cache, subviews: [some LayoutSubview]) {
        cache = makeCache(subviews: subviews)
    }
}

extension Layout where Cache == Void {
    /// A layout without a cache makes nothing.
    public func makeCache(subviews: [some LayoutSubview]) {}
}

/// What a ``Layout`` answered for one proposal: its size and the frames of its subviews.
public struct LayoutPlacement: Hashable, Sendable {
    /// The size the layout took.
    public var size: LayoutSize
    /// One frame per subview, in subview order.
    public var frames: [LayoutRect]

    /// Creates a placement.
    ///
    /// - Parameters:
    ///   - size: The size the layout took.
    ///   - frames: One frame per subview.
    public init(size: LayoutSize, frames: [LayoutRect]) {
        self.size = size
        self.frames = frames
    }
}

extension Layout {
    /// Runs the layout as a parent would: makes a cache, asks for the size, then places the
    /// subviews in bounds of that size at `origin`.
    ///
    /// ```swift
    /// let chips = [56, 80, 40].map { FixedSizeSubview(LayoutSize(pixelWidth: $0, height: 28)) }
    /// let placement = FlowLayout(spacing: LayoutUnit(pixels: 8))
    ///     .place(chips, proposal: ProposedSize(width: LayoutUnit(pixels: 150), height: nil))
    /// placement.frames.map(\.origin)   // [(0px, 0px), (64px, 0px), (0px, 36px)]
    /// ```
    ///
    /// - Parameters:
    ///   - subviews: The subviews to lay out.
    ///   - proposal: The size offered to the layout.
    ///   - origin: The top-left corner of the bounds.
    /// - Returns: The layout's size and the subviews' frames.
    /// - Complexity: That of the layout's two calls.
    public func place(
        _ subviews: [some LayoutSubview],
        proposal: ProposedSize,
        at origin: LayoutPoint = .zero
    ) -> LayoutPlacement {
        var cache = makeCache(subviews: subviews)
        let size = sizeThatFits(proposal: proposal, subviews: subviews, cache: &cache)
        let frames = placeSubviews(
            in: LayoutRect(origin: origin, size: size),
            proposal: proposal,
            subviews: subviews,
            cache: &cache
        )
        return LayoutPlacement(size: size, frames: frames)
    }
}
