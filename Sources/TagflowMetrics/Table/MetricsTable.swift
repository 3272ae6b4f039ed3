/// What measuring text in one font needs: vertical metrics, the character map, advance widths,
/// kerning and ligature rules, read from a real font file or from a compact table.
///
/// ```swift
/// let table = try MetricsTable(fontFile: bytes)          // parse a .ttf/.otf/.ttc face
/// let compact = table.encoded()                            // a few kilobytes, loads in milliseconds
/// let again = try MetricsTable(contentsOf: compact)
/// print(again.unitsPerEm)                                  // 2048
/// ```
public struct MetricsTable: Sendable {
    let storage: TableStorage

    init(storage: TableStorage) {
        self.storage = storage
    }

    /// Loads a compact metrics table written by ``encoded()``.
    ///
    /// - Parameter bytes: The table's bytes (starting with `TFMT`).
    /// - Throws: ``FontError`` with tag `TFMT` when the bytes are not a valid table.
    /// - Complexity: O(*n*) in the table size.
    public init(contentsOf bytes: [UInt8]) throws(FontError) {
        storage = try TableStorage(decoding: bytes)
    }

    /// Reads a metrics table from a TrueType or OpenType font file (or one face of a collection).
    ///
    /// - Parameters:
    ///   - bytes: The font file's bytes.
    ///   - faceIndex: The face to read from a `.ttc` collection; 0 for a plain font.
    /// - Throws: ``FontError`` naming the table and byte offset when the file is truncated,
    ///   corrupt or unsupported.
    /// - Complexity: O(*n*) in the size of the tables read.
    public init(fontFile bytes: [UInt8], faceIndex: Int = 0) throws(FontError) {
        storage = try FontParser(bytes, faceIndex: faceIndex).parse()
    }

    /// Reads a font file or a compact table, whichever `bytes` holds.
    ///
    /// - Parameters:
    ///   - bytes: A font file or a table written by ``encoded()``.
    ///   - faceIndex: The face of a collection (ignored for tables).
    /// - Throws: ``FontError``.
    public init(tableOrFont bytes: [UInt8], faceIndex: Int = 0) throws(FontError) {
        if bytes.count >= 4, bytes[0] == 0x54, bytes[1] == 0x46, bytes[2] == 0x4D, bytes[3] == 0x54 {
            try self.init(contentsOf: bytes)
        } else {
            try self.init(fontFile: bytes, faceIndex: faceIndex)
        }
    }

    /// The number of faces in a font file: 1 for a `.ttf`/`.otf`, the face count of a `.ttc`.
    ///
    /// - Parameter bytes: The font file's bytes.
    /// - Returns: The number of faces.
    /// - Throws: ``FontError`` when the header cannot be read.
    public static func faceCount(ofFontFile bytes: [UInt8]) throws(FontError) -> Int {
        try FontParser.faceCount(bytes)
    }

    /// The compact binary form of this table, for ``init(contentsOf:)``.
    ///
    /// - Returns: The table's bytes (format described in the "Metrics table format" article).
    public func encoded() -> [UInt8] { storage.encoded() }

    /// Font units per em.
    public var unitsPerEm: Int { storage.unitsPerEm }
    /// The ascender in font units (positive, above the baseline), as FreeType reports it.
    public var ascender: Int { storage.ascender }
    /// The descender in font units (negative, below the baseline).
    public var descender: Int { storage.descender }
    /// The line gap in font units.
    public var lineGap: Int { storage.lineGap }
    /// The number of glyphs.
    public var glyphCount: Int { storage.advances.count }
    /// Whether this is a bitmap-only (color emoji) font, whose advances come from its bitmap strike.
    public var isBitmapFont: Bool { storage.bitmapPPEM > 0 }

    /// Whether the font maps a character.
    ///
    /// - Parameter scalar: A Unicode scalar.
    /// - Returns: `true` when the character map has a glyph for it.
    public func covers(_ scalar: Unicode.Scalar) -> Bool {
        storage.glyph(for: scalar.value) != 0
    }

    /// The `line-height: normal` height of this font at `size`, in 1/64 px, as Chromium computes it
    /// (rounded ascent + rounded descent + rounded line gap).
    ///
    /// - Parameter size: The font size in px.
    /// - Returns: The height in 1/64 px.
    public func lineHeight(size: Double) -> Int {
        let metrics = VerticalMetrics(storage, size: size)
        return metrics.ascent + metrics.descent
    }
}

/// A font's rounded ascent and descent at one size, with the line gap split as half-leading
/// (all in 1/64 px).
struct VerticalMetrics {
    var ascent: Int
    var descent: Int

    init(_ font: TableStorage, size: Double) {
        let scale = Float(size)
        let upem = Float(font.unitsPerEm)
        func rounded(_ units: Int) -> Int { Int((Float(units) / upem * scale + 0.5).rounded(.down)) }
        let ascent = rounded(font.ascender)
        let descent = rounded(-font.descender)
        let gap = rounded(font.lineGap)
        let halfGap = gap * 64 / 2
        self.ascent = ascent * 64 + halfGap
        self.descent = descent * 64 + gap * 64 - halfGap
    }
}
