/// Chip block settings (`chips:` in `site.yml`).
///
/// A setting of how chips look is `nil` unless the site gives it: the chips plugin then takes
/// `ChipStyle`'s default, so that each default is written once (docs/configuration.md is checked
/// against them). The settings only the plugin reads keep their defaults here.
public struct ChipsConfig: Sendable, Hashable {
    /// Lay tags out as chip blocks (off: plain lists from the templates).
    public var enabled = true
    /// A font file (site-relative, `.ttf`/`.otf`/`.ttc`) to measure and ship with `@font-face`;
    /// empty: the built-in Liberation Sans table and a font stack that finds its metrics everywhere.
    public var font = ""
    /// Text size in px.
    public var fontSize: Double?
    /// Line box height in px.
    public var lineHeight: Double?
    /// Horizontal padding in px.
    public var paddingX: Double?
    /// Vertical padding in px.
    public var paddingY: Double?
    /// Border width in px.
    public var border: Double?
    /// Corner radius in px.
    public var radius: Double?
    /// Space between chips in px.
    public var columnGap: Double?
    /// Space between rows in px.
    public var rowGap: Double?
    /// `start`, `center` or `end`.
    public var justify: String?
    /// Where chips of different heights sit in a row: `start`, `center` or `end`.
    public var align: String?
    /// Colours (CSS values) the site gives, by name (`text`, `dark_border`…); the rest are the
    /// plugin's.
    public var colors: [String: String] = [:]
    /// Widths in px to lay each block out for.
    public var breakpoints: [Int]?
    /// Text size multipliers of the weighted cloud, lightest first.
    public var weights: [Double]?
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
