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
        ranges: emojiRanges(scanning: emojiBlocks))

    /// The blocks that hold every code point the emoji fallback maps.
    ///
    /// Scanning only these rather than every code point up to U+1FFFF is eight times less work (the
    /// table is made on every build that draws chips: 5 ms on one core before any post was read);
    /// `MeasuringTests` checks that they find exactly what the scan of every code point finds.
    static let emojiBlocks: [ClosedRange<UInt32>] = [
        0x23...0x3300, 0xFE0F...0xFE0F, 0x1F000...0x1FFFF, 0xE0020...0xE007F,
    ]

    /// The emoji fallback's ranges: maximal runs of emoji code points (as the standard library's
    /// Unicode data has them), keycap U+20E3, variation selector U+FE0F and the tag characters,
    /// found in `blocks` (in order; a run ends where a block does).
    static func emojiRanges(scanning blocks: [ClosedRange<UInt32>]) -> [(ClosedRange<UInt32>, UInt16)] {
        var ranges: [(ClosedRange<UInt32>, UInt16)] = []
        for block in blocks {
            var start: UInt32? = nil
            for code in block {
                let isEmoji = Unicode.Scalar(code).map { $0.properties.isEmoji } ?? false
                let mapped = isEmoji || (0xE0020...0xE007F).contains(code) || code == 0x20E3 || code == 0xFE0F
                if mapped, start == nil { start = code }
                if !mapped, let first = start {
                    ranges.append((first...(code - 1), 1))
                    start = nil
                }
            }
            if let first = start { ranges.append((first...block.upperBound, 1)) }
        }
        return ranges
    }

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
