/// A length in fixed point: one unit is 1/64 of a CSS pixel, as a browser's `LayoutUnit`.
///
/// Chromium lays out in this unit, so a layout done in it can equal the browser's to the last unit.
/// Lengths written in CSS pixels are truncated to the unit; the width of a shaped text run is rounded
/// *up* to it. All arithmetic is exact integer arithmetic: no floating-point drift at exact-fit
/// boundaries.
///
/// ```swift
/// let gap = LayoutUnit(cssPixels: 8.3)       // 531 units (8.296875 px): truncated
/// let label = LayoutUnit(textWidth: 41.2)    // 2637 units (41.203125 px): rounded up
/// print((gap + label).pixels)                // 49.5
/// ```
public struct LayoutUnit: Hashable, Comparable, Sendable {
    /// The number of units in one CSS pixel.
    public static let unitsPerPixel = 64

    /// The length in 1/64 px.
    public var rawValue: Int

    /// Creates a length from a count of 1/64 px units.
    ///
    /// - Parameter rawValue: The length in 1/64 px.
    @inlinable
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Creates a length of a whole number of CSS pixels.
    ///
    /// - Parameter pixels: The length in CSS pixels.
    @inlinable
    public init(pixels: Int) {
        self.rawValue = pixels * Self.unitsPerPixel
    }

    /// Creates a length from a CSS length in pixels, truncated toward zero as a browser does.
    ///
    /// The value goes through a 32-bit float first, as Blink does for a length in a stylesheet or
    /// a style attribute, so that values a hair below a unit boundary land where the browser puts
    /// them: `1.0156249999px` is 65 units, as in Chromium, not 64. Values beyond the browser's
    /// range saturate; NaN becomes zero.
    ///
    /// ```swift
    /// LayoutUnit(cssPixels: 56.25).rawValue   // 3600
    /// LayoutUnit(cssPixels: 0.01).rawValue    // 0
    /// ```
    ///
    /// - Parameter cssPixels: The length in CSS pixels.
    public init(cssPixels: Double) {
        self.rawValue = Self.saturated(Float(cssPixels) * Float(Self.unitsPerPixel), roundingUp: false)
    }

    /// Creates a length from the measured width of a text run, rounded up to the next unit as
    /// a browser does for a shaped run.
    ///
    /// ```swift
    /// LayoutUnit(textWidth: 41.2).rawValue   // 2637
    /// ```
    ///
    /// - Parameter textWidth: The width in CSS pixels.
    public init(textWidth: Double) {
        self.rawValue = Self.saturated(Float(textWidth) * Float(Self.unitsPerPixel), roundingUp: true)
    }

    /// The length in CSS pixels; exact, since every unit is a multiple of 1/64.
    @inlinable
    public var pixels: Double {
        Double(rawValue) / Double(Self.unitsPerPixel)
    }

    /// The zero length.
    public static let zero = LayoutUnit(rawValue: 0)

    /// The largest length a browser represents (about 33.5 million px).
    public static let max = LayoutUnit(rawValue: Int(Int32.max))

    /// The most negative length a browser represents.
    public static let min = LayoutUnit(rawValue: Int(Int32.min))

    /// Units as an integer, truncated toward zero or rounded up, clamped to the browser's range.
    ///
    /// Written without `rounded(_:)`, which calls libm's `truncf`/`ceilf`: a leaf that imports
    /// only the standard library must link without libm.
    private static func saturated(_ units: Float, roundingUp: Bool) -> Int {
        guard !units.isNaN else { return 0 }
        if units >= Float(Int32.max) { return Int(Int32.max) }
        if units <= Float(Int32.min) { return Int(Int32.min) }
        let truncated = Int(units)  // toward zero
        return roundingUp && Float(truncated) < units ? truncated + 1 : truncated
    }

    @inlinable
    public static func < (lhs: LayoutUnit, rhs: LayoutUnit) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension LayoutUnit: AdditiveArithmetic {
    @inlinable
    public static func + (lhs: LayoutUnit, rhs: LayoutUnit) -> LayoutUnit {
        LayoutUnit(rawValue: lhs.rawValue + rhs.rawValue)
    }

    @inlinable
    public static func - (lhs: LayoutUnit, rhs: LayoutUnit) -> LayoutUnit {
        LayoutUnit(rawValue: lhs.rawValue - rhs.rawValue)
    }

    /// Multiplies a length by a count.
    @inlinable
    public static func * (lhs: LayoutUnit, rhs: Int) -> LayoutUnit {
        LayoutUnit(rawValue: lhs.rawValue * rhs)
    }

    /// Divides a length by a count, truncating toward zero as the browser's `LayoutUnit / int`.
    @inlinable
    public static func / (lhs: LayoutUnit, rhs: Int) -> LayoutUnit {
        LayoutUnit(rawValue: lhs.rawValue / rhs)
    }

    /// The negated length.
    @inlinable
    public static prefix func - (operand: LayoutUnit) -> LayoutUnit {
        LayoutUnit(rawValue: -operand.rawValue)
    }
}

extension LayoutUnit: CustomStringConvertible {
    /// The length in pixels, with `px`: `56.25px`.
    public var description: String {
        let whole = rawValue / Self.unitsPerPixel
        let fraction = abs(rawValue % Self.unitsPerPixel)
        let sign = rawValue < 0 && whole == 0 ? "-" : ""
        guard fraction != 0 else { return "\(sign)\(whole)px" }
        // 1/64 = 0.015625: six decimal digits always suffice.
        var digits = String(fraction * 15_625)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)px"
    }
}
