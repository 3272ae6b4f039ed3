public import TagflowLayout
import TagflowMetrics

/// How chips look and where they go: the settings of a chip block, all in CSS pixels.
///
/// The defaults look good with the built-in Liberation Sans metrics table.
public struct ChipStyle: Sendable, Hashable {
    /// The CSS `font-family` list the browser uses; it must draw with the font that ``ChipRenderer/fonts`` measures.
    public var fontFamily = #""Liberation Sans", Arimo, Arial, "Noto Sans CJK JP", "Noto Color Emoji", sans-serif"#
    /// The text size.
    public var fontSize = 14.0
    /// The line box height of a chip's text.
    public var lineHeight = 20.0
    /// Space left and right of the text.
    public var paddingX = 10.0
    /// Space above and below the text.
    public var paddingY = 3.0
    /// Border width.
    public var border = 1.0
    /// Corner radius.
    public var radius = 999.0
    /// Space between chips in a row.
    public var columnGap = 8.0
    /// Space between rows.
    public var rowGap = 8.0
    /// Where a row's chips go along it: start, center or end.
    public var justification = FlowLayout.Justification.start
    /// Where a chip goes within its row's height (rows mix heights in a weighted cloud).
    public var alignment = FlowLayout.Alignment.center
    /// The opacity of a chip's count; with the default colours it keeps a contrast of at least
    /// 4.5:1 in both colour schemes (a test checks).
    public var countOpacity = 0.85
    /// Block widths to lay out for; CSS container queries pick the widest that fits.
    public var breakpoints: [Int] = [320, 480, 640, 800]
    /// Text size multipliers for the weighted tag cloud, lightest first (a log scale of counts).
    public var weightScale: [Double] = [1.0, 1.15, 1.35, 1.6]
    /// Colours: text, background and border, light then dark.
    public var colors = ChipColors()

    /// Creates the default style.
    public init() {}

    /// The chip box size for a text width (1/64 px) at a text size.
    func boxSize(textWidth: Int, scale: Double) -> LayoutSize {
        let text = LayoutUnit(rawValue: textWidth)
        let chrome = LayoutUnit(cssPixels: 2 * (paddingX + border))
        return LayoutSize(width: text + chrome, height: LayoutUnit(cssPixels: height(scale: scale)))
    }

    /// The chip height in CSS px at a weight.
    func height(scale: Double) -> Double {
        (lineHeight * scale).rounded() + 2 * (paddingY + border)
    }

    var flowLayout: FlowLayout {
        FlowLayout(
            horizontalSpacing: LayoutUnit(cssPixels: columnGap), verticalSpacing: LayoutUnit(cssPixels: rowGap),
            justification: justification, alignment: alignment)
    }
}

/// Chip colours for light and dark colour schemes (CSS colour values).
public struct ChipColors: Sendable, Hashable {
    /// Light scheme: text.
    public var text = "#0b4a8c"
    /// Light scheme: background.
    public var background = "#eaf2fc"
    /// Light scheme: border.
    public var borderColor = "#b9d0ee"
    /// Dark scheme: text.
    public var darkText = "#d4e6ff"
    /// Dark scheme: background.
    public var darkBackground = "#1d2a3b"
    /// Dark scheme: border.
    public var darkBorderColor = "#37506f"

    /// Creates the default colours.
    public init() {}
}
