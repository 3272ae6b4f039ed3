/// A size proposed by a parent to a child, like SwiftUI's `ProposedViewSize`.
///
/// A `nil` dimension asks for the child's ideal size in that dimension.
///
/// ```swift
/// let proposal = ProposedSize(width: LayoutUnit(pixels: 300), height: nil)
/// proposal.replacingUnspecifiedDimensions().height   // 10px
/// ```
public struct ProposedSize: Hashable, Sendable {
    /// The proposed width, or `nil` for the ideal width.
    public var width: LayoutUnit?
    /// The proposed height, or `nil` for the ideal height.
    public var height: LayoutUnit?

    /// Creates a proposal.
    ///
    /// - Parameters:
    ///   - width: The proposed width, or `nil` for the ideal width.
    ///   - height: The proposed height, or `nil` for the ideal height.
    @inlinable
    public init(width: LayoutUnit?, height: LayoutUnit?) {
        self.width = width
        self.height = height
    }

    /// Creates a proposal of a definite size.
    ///
    /// - Parameter size: The proposed size.
    @inlinable
    public init(_ size: LayoutSize) {
        self.init(width: size.width, height: size.height)
    }

    /// The proposal that asks for the ideal size in both dimensions.
    public static let unspecified = ProposedSize(width: nil, height: nil)

    /// The proposal of zero width and height.
    public static let zero = ProposedSize(width: .zero, height: .zero)

    /// A definite size: the proposal with each `nil` dimension replaced.
    ///
    /// SwiftUI replaces a missing dimension with 10 points; the default here is 10 px.
    ///
    /// - Parameter size: The values for missing dimensions.
    /// - Returns: A definite size.
    @inlinable
    public func replacingUnspecifiedDimensions(
        by size: LayoutSize = LayoutSize(pixelWidth: 10, height: 10)
    ) -> LayoutSize {
        LayoutSize(width: width ?? size.width, height: height ?? size.height)
    }
}
