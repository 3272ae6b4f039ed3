/// A width and a height in ``LayoutUnit``s, like SwiftUI's `CGSize`.
public struct LayoutSize: Hashable, Sendable {
    /// The horizontal extent.
    public var width: LayoutUnit
    /// The vertical extent.
    public var height: LayoutUnit

    /// Creates a size.
    ///
    /// - Parameters:
    ///   - width: The horizontal extent.
    ///   - height: The vertical extent.
    @inlinable
    public init(width: LayoutUnit, height: LayoutUnit) {
        self.width = width
        self.height = height
    }

    /// Creates a size from whole CSS pixels.
    ///
    /// - Parameters:
    ///   - width: The horizontal extent in pixels.
    ///   - height: The vertical extent in pixels.
    @inlinable
    public init(pixelWidth width: Int, height: Int) {
        self.init(width: LayoutUnit(pixels: width), height: LayoutUnit(pixels: height))
    }

    /// The size with zero width and height.
    public static let zero = LayoutSize(width: .zero, height: .zero)
}

extension LayoutSize: CustomStringConvertible {
    /// `width×height` in pixels.
    public var description: String { "\(width)×\(height)" }
}
