/// A font and its fallbacks, as named in a CSS `font-family` list, measuring text as Chromium draws it.
///
/// Characters the first table lacks are measured with the next table that has them, per
/// grapheme cluster, as a browser falls back.
///
/// ```swift
/// let stack = FontStack.default                   // Liberation Sans + CJK and emoji fallbacks
/// let m = stack.measure("AVAWAY", size: 13)
/// print(m.width, m.height)                         // 3313 960   (1/64 px: 51.765625 × 15 px)
/// ```
public struct FontStack: Sendable {
    /// The tables, primary first.
    public var tables: [MetricsTable]

    /// Makes a stack from a primary table and its fallbacks, in CSS order.
    ///
    /// - Parameter tables: The tables, primary first; must not be empty.
    public init(_ tables: [MetricsTable]) {
        precondition(!tables.isEmpty, "a FontStack needs at least one table")
        self.tables = tables
    }

    /// Returns a copy with `table` added as the last fallback.
    ///
    /// - Parameter table: The fallback table.
    /// - Returns: The longer stack.
    public func withFallback(_ table: MetricsTable) -> FontStack {
        FontStack(tables + [table])
    }

    /// Measures one line of text.
    ///
    /// ```swift
    /// FontStack.default.measure("office", size: 13).width   // 1974 (30.84375 px)
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text; it is measured as one line that never wraps.
    ///   - size: The font size in px.
    ///   - letterSpacing: CSS `letter-spacing` in px, added after every grapheme cluster.
    /// - Returns: The width (rounded up to 1/64 px, per bidirectional run) and the
    ///   `line-height: normal` height, both in 1/64 px.
    /// - Complexity: O(*n*) in the length of `text`.
    public func measure(_ text: String, size: Double, letterSpacing: Double = 0) -> TextMeasurement {
        if let fast = Measurer.measureSimpleASCII(
            text, font: tables[0].storage, size: size, letterSpacing: letterSpacing)
        {
            return fast
        }
        if let fast = Measurer.measureASCII(text, font: tables[0].storage, size: size, letterSpacing: letterSpacing) {
            return fast
        }
        var measurer = Measurer(stack: self, size: size, letterSpacing: letterSpacing)
        return measurer.measure(text)
    }
}

/// The measured size of a line of text, in 1/64 px (Chromium's layout unit).
public struct TextMeasurement: Sendable, Hashable {
    /// The width in 1/64 px, rounded up as Chromium does.
    public var width: Int
    /// The `line-height: normal` height in 1/64 px.
    public var height: Int

    /// Makes a measurement from widths in 1/64 px.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The width in px.
    public var widthInPixels: Double { Double(width) / 64 }
    /// The height in px.
    public var heightInPixels: Double { Double(height) / 64 }
}
