/// The tables built into the library, decoded once on first use.
enum BuiltInTables {
    /// Liberation Sans Regular (metric-compatible with Arial and Arimo).
    static let liberationSans: MetricsTable = {
        do {
            return try MetricsTable(contentsOf: decodeBase64(liberationSansBase64))
        } catch {
            preconditionFailure("the built-in Liberation Sans table is corrupt: \(error)")
        }
    }()

    /// A synthetic CJK fallback: every CJK ideograph, kana, Hangul syllable, CJK symbol and
    /// full-width form is 1 em wide (half-width forms ½ em), with Noto Sans CJK's vertical metrics
    /// (ascender 1.16 em, descender 0.288 em), so a label's height matches a Noto Sans CJK fallback.
    static let cjk: MetricsTable = {
        let fullWidth: [ClosedRange<UInt32>] = [
            0x1100...0x11FF, 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3041...0x30FF, 0x3105...0x312F,
            0x3131...0x318E, 0x3190...0x31FF, 0x3200...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2A6DF, 0x2A700...0x2EBEF, 0x30000...0x3134F,
        ]
        let halfWidth: [ClosedRange<UInt32>] = [0xFF61...0xFF9F, 0xFFA0...0xFFDC, 0xFFE8...0xFFEE]
        var ranges = fullWidth.map { ($0, UInt16(1)) } + halfWidth.map { ($0, UInt16(2)) }
        ranges.sort { $0.0.lowerBound < $1.0.lowerBound }
        return synthetic(
            unitsPerEm: 1000, ascender: 1160, descender: -288, advances: [1000, 1000, 500], bitmapPPEM: 0,
            ranges: ranges)
    }()

    /// A synthetic color-emoji fallback with Noto Color Emoji's metrics: every emoji cluster is one
    /// glyph whose advance comes from a 136 px bitmap strike at 109 ppem (1.2477 em), as Chromium
    /// draws Noto Color Emoji.
    static let emoji: MetricsTable = synthetic(
        unitsPerEm: 2048, ascender: 1900, descender: -500, advances: [2550, 2550], bitmapPPEM: 109,
        ranges: emojiRanges.map { ($0, 1) })

    /// The code points the emoji fallback maps: maximal runs of emoji code points in the
    /// standard library's Unicode data (Swift 6.3), keycap U+20E3, variation selector U+FE0F and
    /// the tag characters.
    ///
    /// Written out rather than found at startup, where the scan of the Unicode data ran on one
    /// core before any post was read. `MeasuringTests` scans every code point
    /// and compares: a standard library with newer Unicode data fails that test, which prints the
    /// list to put here.
    static let emojiRanges: [ClosedRange<UInt32>] = [
        0x23...0x23, 0x2A...0x2A, 0x30...0x39, 0xA9...0xA9, 0xAE...0xAE, 0x203C...0x203C, 0x2049...0x2049,
        0x20E3...0x20E3, 0x2122...0x2122, 0x2139...0x2139, 0x2194...0x2199, 0x21A9...0x21AA, 0x231A...0x231B,
        0x2328...0x2328, 0x23CF...0x23CF, 0x23E9...0x23F3, 0x23F8...0x23FA, 0x24C2...0x24C2, 0x25AA...0x25AB,
        0x25B6...0x25B6, 0x25C0...0x25C0, 0x25FB...0x25FE, 0x2600...0x2604, 0x260E...0x260E, 0x2611...0x2611,
        0x2614...0x2615, 0x2618...0x2618, 0x261D...0x261D, 0x2620...0x2620, 0x2622...0x2623, 0x2626...0x2626,
        0x262A...0x262A, 0x262E...0x262F, 0x2638...0x263A, 0x2640...0x2640, 0x2642...0x2642, 0x2648...0x2653,
        0x265F...0x2660, 0x2663...0x2663, 0x2665...0x2666, 0x2668...0x2668, 0x267B...0x267B, 0x267E...0x267F,
        0x2692...0x2697, 0x2699...0x2699, 0x269B...0x269C, 0x26A0...0x26A1, 0x26A7...0x26A7, 0x26AA...0x26AB,
        0x26B0...0x26B1, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26C8...0x26C8, 0x26CE...0x26CF, 0x26D1...0x26D1,
        0x26D3...0x26D4, 0x26E9...0x26EA, 0x26F0...0x26F5, 0x26F7...0x26FA, 0x26FD...0x26FD, 0x2702...0x2702,
        0x2705...0x2705, 0x2708...0x270D, 0x270F...0x270F, 0x2712...0x2712, 0x2714...0x2714, 0x2716...0x2716,
        0x271D...0x271D, 0x2721...0x2721, 0x2728...0x2728, 0x2733...0x2734, 0x2744...0x2744, 0x2747...0x2747,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2763...0x2764, 0x2795...0x2797,
        0x27A1...0x27A1, 0x27B0...0x27B0, 0x27BF...0x27BF, 0x2934...0x2935, 0x2B05...0x2B07, 0x2B1B...0x2B1C,
        0x2B50...0x2B50, 0x2B55...0x2B55, 0x3030...0x3030, 0x303D...0x303D, 0x3297...0x3297, 0x3299...0x3299,
        0xFE0F...0xFE0F, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F170...0x1F171, 0x1F17E...0x1F17F,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F1E6...0x1F1FF, 0x1F201...0x1F202, 0x1F21A...0x1F21A,
        0x1F22F...0x1F22F, 0x1F232...0x1F23A, 0x1F250...0x1F251, 0x1F300...0x1F321, 0x1F324...0x1F393,
        0x1F396...0x1F397, 0x1F399...0x1F39B, 0x1F39E...0x1F3F0, 0x1F3F3...0x1F3F5, 0x1F3F7...0x1F4FD,
        0x1F4FF...0x1F53D, 0x1F549...0x1F54E, 0x1F550...0x1F567, 0x1F56F...0x1F570, 0x1F573...0x1F57A,
        0x1F587...0x1F587, 0x1F58A...0x1F58D, 0x1F590...0x1F590, 0x1F595...0x1F596, 0x1F5A4...0x1F5A5,
        0x1F5A8...0x1F5A8, 0x1F5B1...0x1F5B2, 0x1F5BC...0x1F5BC, 0x1F5C2...0x1F5C4, 0x1F5D1...0x1F5D3,
        0x1F5DC...0x1F5DE, 0x1F5E1...0x1F5E1, 0x1F5E3...0x1F5E3, 0x1F5E8...0x1F5E8, 0x1F5EF...0x1F5EF,
        0x1F5F3...0x1F5F3, 0x1F5FA...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CB...0x1F6D2, 0x1F6D5...0x1F6D8,
        0x1F6DC...0x1F6E5, 0x1F6E9...0x1F6E9, 0x1F6EB...0x1F6EC, 0x1F6F0...0x1F6F0, 0x1F6F3...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FA7C, 0x1FA80...0x1FA8A, 0x1FA8E...0x1FAC6, 0x1FAC8...0x1FAC8, 0x1FACD...0x1FADC,
        0x1FADF...0x1FAEA, 0x1FAEF...0x1FAF8, 0xE0020...0xE007F,
    ]

    private static func synthetic(
        unitsPerEm: Int, ascender: Int, descender: Int, advances: [UInt16], bitmapPPEM: Int,
        ranges: [(ClosedRange<UInt32>, UInt16)]
    ) -> MetricsTable {
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        var glyphs: [UInt16] = []
        // Every code point of a range maps to the range's one glyph (`constantGlyphs`).
        for (range, glyph) in ranges {
            starts.append(range.lowerBound)
            ends.append(range.upperBound)
            glyphs.append(glyph)
        }
        let storage = TableStorage(
            unitsPerEm: unitsPerEm, ascender: ascender, descender: descender, lineGap: 0, bitmapPPEM: bitmapPPEM,
            advances: advances, glyphClasses: GlyphRanges(), cmapStarts: starts, cmapEnds: ends, cmapGlyphs: glyphs,
            substitutions: [], positionings: [], kernTable: nil,
            scripts: [], constantGlyphs: true)
        return MetricsTable(storage: storage)
    }

    /// Decodes standard base64, skipping whitespace.
    static func decodeBase64(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            let value: UInt32
            switch byte {
            case 0x41...0x5A: value = UInt32(byte - 0x41)
            case 0x61...0x7A: value = UInt32(byte - 0x61 + 26)
            case 0x30...0x39: value = UInt32(byte - 0x30 + 52)
            case 0x2B: value = 62
            case 0x2F: value = 63
            default: continue
            }
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}

extension MetricsTable {
    /// The built-in table for Liberation Sans Regular, metric-compatible with Arial (Windows,
    /// macOS) and Arimo (ChromeOS): the same advances are found on every common system.
    public static var liberationSans: MetricsTable { BuiltInTables.liberationSans }

    /// The built-in default table: ``liberationSans``.
    public static var `default`: MetricsTable { BuiltInTables.liberationSans }

    /// A built-in CJK fallback: ideographs, kana, Hangul and full-width forms 1 em wide, with
    /// Noto Sans CJK's ascender and descender.
    public static var cjkFallback: MetricsTable { BuiltInTables.cjk }

    /// A built-in emoji fallback: each emoji cluster one glyph of 136/109 em, as Noto Color Emoji
    /// draws in Chromium.
    public static var emojiFallback: MetricsTable { BuiltInTables.emoji }
}

extension FontStack {
    /// The built-in stack: Liberation Sans, then the CJK and emoji fallbacks.
    ///
    /// In CSS, name `"Liberation Sans", Arimo, Arial, sans-serif`.
    public static let `default` = FontStack([.liberationSans, .cjkFallback, .emojiFallback])
}
