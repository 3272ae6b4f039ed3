/// A position in ``LayoutUnit``s, like SwiftUI's `CGPoint`; y grows downward.
public struct LayoutPoint: Hashable, Sendable {
    /// The horizontal coordinate.
    public var x: LayoutUnit
    /// The vertical coordinate.
    public var y: LayoutUnit

    /// Creates a point.
    ///
    /// - Parameters:
    ///   - x: The horizontal coordinate.
    ///   - y: The vertical coordinate.
    @inlinable
    public init(x: LayoutUnit, y: LayoutUnit) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = LayoutPoint(x: .zero, y: .zero)
}

extension LayoutPoint: CustomStringConvertible {
    /// `(x, y)` in pixels.
    public var description: String { "(\(x), \(y))" }
}
