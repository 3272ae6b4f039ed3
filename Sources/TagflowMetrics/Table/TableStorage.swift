/// The immutable contents of a metrics table, shared by copies of ``MetricsTable``.
final class TableStorage: Sendable {
    /// Font units per em.
    let unitsPerEm: Int
    /// Ascender, descender (negative) and line gap in font units, as FreeType reports them.
    let ascender: Int
    let descender: Int
    let lineGap: Int
    /// The pixels per em of the bitmap strike for a bitmap-only font (color emoji), or 0.
    let bitmapPPEM: Int
    /// Advance widths in font units, by glyph id.
    let advances: [UInt16]
    /// GDEF glyph classes (1 base, 2 ligature, 3 mark, 4 component).
    let glyphClasses: GlyphRanges
    /// Character map segments: code points `cmapStarts[i]...cmapEnds[i]` map to consecutive
    /// glyphs from `cmapGlyphs[i]`.
    let cmapStarts: [UInt32]
    let cmapEnds: [UInt32]
    let cmapGlyphs: [UInt16]
    /// Glyphs of code points below `TableStorage.directCount`, for speed (0 = unmapped).
    let direct: [UInt16]
    let substitutions: [SubstitutionLookup]
    let positionings: [PositionLookup]
    let kernTable: PositionLookup?
    let scripts: [ScriptLookups]
    /// Whether every code point of a cmap segment maps to the segment's one glyph (synthetic
    /// tables), instead of to consecutive glyphs (tables read from fonts).
    let constantGlyphs: Bool

    /// How many code points the direct map covers.
    static let directCount = 0x3000

    init(
        unitsPerEm: Int, ascender: Int, descender: Int, lineGap: Int, bitmapPPEM: Int, advances: [UInt16],
        glyphClasses: GlyphRanges, cmapStarts: [UInt32], cmapEnds: [UInt32], cmapGlyphs: [UInt16],
        substitutions: [SubstitutionLookup], positionings: [PositionLookup], kernTable: PositionLookup?,
        scripts: [ScriptLookups], constantGlyphs: Bool = false
    ) {
        self.constantGlyphs = constantGlyphs
        self.unitsPerEm = unitsPerEm
        self.ascender = ascender
        self.descender = descender
        self.lineGap = lineGap
        self.bitmapPPEM = bitmapPPEM
        self.advances = advances
        self.glyphClasses = glyphClasses
        self.cmapStarts = cmapStarts
        self.cmapEnds = cmapEnds
        self.cmapGlyphs = cmapGlyphs
        self.substitutions = substitutions
        self.positionings = positionings
        self.kernTable = kernTable
        self.scripts = scripts
        var direct = [UInt16](repeating: 0, count: TableStorage.directCount)
        for index in cmapStarts.indices where cmapStarts[index] < UInt32(TableStorage.directCount) {
            let end = min(cmapEnds[index], UInt32(TableStorage.directCount - 1))
            var code = cmapStarts[index]
            while code <= end {
                direct[Int(code)] = cmapGlyphs[index]
                    &+ (constantGlyphs ? 0 : UInt16(truncatingIfNeeded: code - cmapStarts[index]))
                code += 1
            }
        }
        self.direct = direct
    }

    /// The glyph for a code point, or 0 when the font does not map it.
    @inline(__always)
    func glyph(for code: UInt32) -> UInt16 {
        if code < UInt32(TableStorage.directCount) { return direct[Int(code)] }
        var low = 0
        var high = cmapStarts.count
        while low < high {
            let mid = (low + high) >> 1
            if cmapEnds[mid] < code {
                low = mid + 1
            } else {
                high = mid
            }
        }
        guard low < cmapStarts.count, cmapStarts[low] <= code else { return 0 }
        if constantGlyphs { return cmapGlyphs[low] }
        return cmapGlyphs[low] &+ UInt16(truncatingIfNeeded: code - cmapStarts[low])
    }

    /// The advance of a glyph in font units.
    @inline(__always)
    func advance(_ glyph: UInt16) -> Int {
        let index = Int(glyph)
        if index < advances.count { return Int(advances[index]) }
        return Int(advances.last ?? 0)
    }

    /// The lookups for an OpenType script tag, falling back to `DFLT`, then `latn`, as HarfBuzz does.
    func lookups(for tag: UInt32) -> ScriptLookups? {
        if let entry = scripts.first(where: { $0.tag == tag }) { return entry }
        return nil
    }
}
