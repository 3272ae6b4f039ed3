/// A rectangle in ``LayoutUnit``s, like SwiftUI's `CGRect`: an origin (top-left) and a size.
public struct LayoutRect: Hashable, Sendable {
    /// The top-left corner.
    public var origin: LayoutPoint
    /// The extent.
    public var size: LayoutSize

    /// Creates a rectangle from its top-left corner and size.
    ///
    /// - Parameters:
    ///   - origin: The top-left corner.
    ///   - size: The extent.
    @inlinable
    public init(origin: LayoutPoint, size: LayoutSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its coordinates and extent.
    ///
    /// - Parameters:
    ///   - x: The left edge.
    ///   - y: The top edge.
    ///   - width: The horizontal extent.
    ///   - height: The vertical extent.
    @inlinable
    public init(x: LayoutUnit, y: LayoutUnit, width: LayoutUnit, height: LayoutUnit) {
        self.origin = LayoutPoint(x: x, y: y)
        self.size = LayoutSize(width: width, height: height)
    }

    /// The empty rectangle at the origin.
    public static let zero = LayoutRect(origin: .zero, size: .zero)

    /// The left edge.
    @inlinable public var minX: LayoutUnit { origin.x }
    /// The top edge.
    @inlinable public var minY: LayoutUnit { origin.y }
    /// The right edge.
    @inlinable public var maxX: LayoutUnit { origin.x + size.width }
    /// The bottom edge.
    @inlinable public var maxY: LayoutUnit { origin.y + size.height }
    /// The horizontal extent.
    @inlinable public var width: LayoutUnit { size.width }
    /// The vertical extent.
    @inlinable public var height: LayoutUnit { size.height }

    /// Whether the two rectangles share interior area; touching edges do not count.
    ///
    /// - Parameter other: The rectangle to test against.
    /// - Returns: `true` when the interiors overlap.
    @inlinable
    public func intersects(_ other: LayoutRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The rectangle moved by the given offsets.
    ///
    /// - Parameters:
    ///   - dx: The horizontal offset.
    ///   - dy: The vertical offset.
    /// - Returns: The moved rectangle.
    @inlinable
    public func offsetBy(dx: LayoutUnit, dy: LayoutUnit) -> LayoutRect {
        LayoutRect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }
}

extension LayoutRect: CustomStringConvertible {
    /// `(x, y) width×height` in pixels.
    public var description: String { "\(origin) \(size)" }
}
