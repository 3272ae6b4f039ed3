import TagflowConcurrency

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
    public var tables: [MetricsTable] {
        didSet { shaped = ShapedTexts() }
    }

    /// Measurements made by the full shaper, for the next time the same text is measured.
    private var shaped = ShapedTexts()

    /// How many measurements the stack keeps (for tests).
    var keptMeasurementCount: Int { shaped.count }

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
        // Text beyond ASCII goes through the shaper (script runs, fallback fonts, GSUB and GPOS),
        // which is costly, and a site draws a CJK tag on every page that shows it: shaped once.
        let key = ShapedTexts.Key(text: text, size: size, letterSpacing: letterSpacing)
        if let known = shaped[key] { return known }
        var measurer = Measurer(stack: self, size: size, letterSpacing: letterSpacing)
        let measurement = measurer.measure(text)
        shaped[key] = measurement
        return measurement
    }
}

/// The measurements a ``FontStack`` made with its shaper, shared by its copies (which measure
/// alike) and safe to use from many threads.
final class ShapedTexts: Sendable {
    /// A text and its settings, the text compared by its bytes: `String`'s `==` holds canonically
    /// equivalent texts equal (`é` and `e` + U+0301), which a font may draw at different widths.
    struct Key: Hashable, Sendable {
        var text: String
        var size: Double
        var letterSpacing: Double

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.size == rhs.size && lhs.letterSpacing == rhs.letterSpacing && lhs.text.utf8.elementsEqual(rhs.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(size)
            hasher.combine(letterSpacing)
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// At most this many are kept; when full, all are dropped.
    ///
    /// A site's tags are a few hundred; the bound is for a long-lived stack measuring ever new text.
    static let limit = 4096

    private let measurements = Locked<[Key: TextMeasurement]>([:])

    init() {}

    var count: Int { measurements.withLock { $0.count } }

    subscript(key: Key) -> TextMeasurement? {
        get { measurements.withLock { $0[key] } }
        set {
            measurements.withLock { measurements in
                if measurements.count >= Self.limit { measurements.removeAll(keepingCapacity: true) }
                measurements[key] = newValue
            }
        }
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
