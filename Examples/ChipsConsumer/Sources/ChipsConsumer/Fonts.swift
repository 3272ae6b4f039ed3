import Foundation
import TagflowMetrics

/// The fonts that measure chip text: the built-in Liberation Sans metrics, or a font file that
/// the site ships, so that the measured font is the rendered font.
func chipFonts(fontFile: URL?) throws -> FontStack {
    guard let fontFile else { return .default }
    let table = try MetricsTable(fontFile: Array(Data(contentsOf: fontFile)))
    return FontStack([table, .cjkFallback, .emojiFallback])
}
