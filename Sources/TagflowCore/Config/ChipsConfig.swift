/// Chip block settings (`chips:` in `site.yml`).
public struct ChipsConfig: Sendable, Hashable {
    /// Lay tags out as chip blocks (off: plain lists from the templates).
    public var enabled = true
    /// A font file (site-relative, `.ttf`/`.otf`/`.ttc`) to measure and ship with `@font-face`;
    /// empty: the built-in Liberation Sans table and a font stack that finds its metrics everywhere.
    public var font = ""
    /// Text size in px.
    public var fontSize = 14.0
    /// Line box height in px.
    public var lineHeight = 20.0
    /// Horizontal padding in px.
    public var paddingX = 10.0
    /// Vertical padding in px.
    public var paddingY = 3.0
    /// Border width in px.
    public var border = 1.0
    /// Corner radius in px.
    public var radius = 999.0
    /// Space between chips in px.
    public var columnGap = 8.0
    /// Space between rows in px.
    public var rowGap = 8.0
    /// `start`, `center` or `end`.
    public var justify = "start"
    /// Where chips of different heights sit in a row: `start`, `center` or `end`.
    public var align = "center"
    /// Colours (CSS values): text, background and border, light and dark.
    public var colors: [String: String] = [:]
    /// Widths in px to lay each block out for.
    public var breakpoints = [320, 480, 640, 800]
    /// Text size multipliers of the weighted cloud, lightest first.
    public var weights = [1.0, 1.15, 1.35, 1.6]
    /// The cloud's order: `name`, or `count` (most used first, then name).
    public var cloudOrder = "name"
    /// Rows of the collapsed cloud on the home page (0: no cloud there).
    public var homeRows = 3
    /// Most tags in a tag page's related tags, the tag itself included (0: no limit).
    ///
    /// A popular
    /// tag shares posts with nearly every other tag; hundreds of chips on each of its pages would
    /// help nobody and make up most of a large site's bytes.
    public var relatedLimit = 24

    /// The default settings.
    public init() {}

    /// How many breakpoints a site may have, and the widths they may take, in px.
    public static let breakpointLimits = (count: 16, width: 100...4_000)
    /// How many weight steps a cloud may have.
    public static let maximumWeightSteps = 8
}
