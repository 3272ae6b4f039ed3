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

    /// Per glyph bit: the glyph is a mark (GDEF class 3).
    let markBits: [UInt64]
    /// Per substitution lookup: a bit per glyph its subtables can start a match at.
    let substitutionTriggers: [[UInt64]]
    /// Per printable ASCII character (0x20...0x7E, index `code - 0x20`): its glyph's slot, so that
    /// `glyphSlots[glyph]` is the slot of a glyph (255: not a printable ASCII glyph).
    let glyphSlots: [UInt8]
    /// Per script entry: the summed pair adjustments (font units) of every pair of printable ASCII
    /// glyphs (`slot1 * 95 + slot2`), when the script's positioning is simple enough to sum
    /// (first-glyph adjustments only); empty otherwise.
    let pairMatrices: [[Int32]]
    /// Advance (font units; 0 for marks) of each printable ASCII character, and 0xFFFF where the
    /// font does not map it.
    let asciiAdvances: [UInt16]
    /// Per script entry, per printable ASCII character: bit 0 when a substitution enabled with all
    /// features could change ASCII-only text starting at it, bit 1 the same for required features.
    let asciiTriggers: [[UInt8]]
    /// The script entries for Latin and for common text (`-1` when missing).
    let latinIndex: Int
    let commonIndex: Int

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
                direct[Int(code)] =
                    cmapGlyphs[index]
                    &+ (constantGlyphs ? 0 : UInt16(truncatingIfNeeded: code - cmapStarts[index]))
                code += 1
            }
        }
        self.direct = direct
        let glyphCount = advances.count
        let words = (glyphCount + 63) / 64
        var markBits = [UInt64](repeating: 0, count: words)
        for index in glyphClasses.starts.indices where glyphClasses.values[index] == 3 {
            var glyph = Int(glyphClasses.starts[index])
            while glyph <= Int(glyphClasses.ends[index]) && glyph < glyphCount {
                markBits[glyph >> 6] |= 1 << UInt64(glyph & 63)
                glyph += 1
            }
        }
        self.markBits = markBits
        self.substitutionTriggers = substitutions.map { TableStorage.triggers(of: $0, glyphCount: glyphCount) }
        var slots = [UInt8](repeating: 255, count: glyphCount)
        for code in 0x20...0x7E {
            let glyph = Int(direct[code])
            if glyph != 0 && glyph < glyphCount && slots[glyph] == 255 { slots[glyph] = UInt8(code - 0x20) }
        }
        self.glyphSlots = slots
        var matrices: [[Int32]] = []
        // Scripts with the same positioning lookups share one matrix.
        struct MatrixKey: Hashable {
            var positionings: [UInt16]
            var usesKernTable: Bool
        }
        var cache: [MatrixKey: [Int32]] = [:]
        for script in scripts {
            let key = MatrixKey(positionings: script.positionings, usesKernTable: script.usesKernTable)
            if let matrix = cache[key] {
                matrices.append(matrix)
                continue
            }
            let matrix = TableStorage.pairMatrix(
                script: script, positionings: positionings, kernTable: kernTable, direct: direct,
                glyphCount: glyphCount, markBits: markBits)
            cache[key] = matrix
            matrices.append(matrix)
        }
        self.pairMatrices = matrices
        var asciiAdvances = [UInt16](repeating: 0xFFFF, count: 95)
        var asciiGlyphs = Set<UInt16>()
        for code in 0x20...0x7E where direct[code] != 0 {
            let glyph = direct[code]
            asciiGlyphs.insert(glyph)
            let isMark = Int(glyph) < glyphCount && markBits[Int(glyph) >> 6] & (1 << UInt64(glyph & 63)) != 0
            asciiAdvances[code - 0x20] = isMark ? 0 : (Int(glyph) < glyphCount ? advances[Int(glyph)] : 0)
        }
        self.asciiAdvances = asciiAdvances
        var triggerCache: [Int: [Bool]] = [:]
        var asciiTriggers: [[UInt8]] = []
        for script in scripts {
            var bits = [UInt8](repeating: 0, count: 95)
            for (position, lookupIndex) in script.substitutions.enumerated()
            where Int(lookupIndex) < substitutions.count {
                let lookupTriggers: [Bool]
                if let cached = triggerCache[Int(lookupIndex)] {
                    lookupTriggers = cached
                } else {
                    lookupTriggers = (0x20...0x7E).map { code in
                        TableStorage.mayChangeASCII(substitutions[Int(lookupIndex)], direct[code], asciiGlyphs)
                    }
                    triggerCache[Int(lookupIndex)] = lookupTriggers
                }
                let feature = script.substitutionFeatures[position]
                for slot in 0..<95 where lookupTriggers[slot] {
                    bits[slot] |= 1
                    if feature & FeatureBit.alwaysOn != 0 { bits[slot] |= 2 }
                }
            }
            asciiTriggers.append(bits)
        }
        self.asciiTriggers = asciiTriggers
        latinIndex = scripts.firstIndex { $0.tag == 0x6C61_746E } ?? -1
        commonIndex = scripts.firstIndex { $0.tag == 0x4446_4C54 } ?? -1
    }

    /// Whether a substitution lookup could change ASCII-only text at `glyph` (conservative).
    private static func mayChangeASCII(_ lookup: SubstitutionLookup, _ glyph: UInt16, _ ascii: Set<UInt16>) -> Bool {
        guard glyph != 0 else { return false }
        func intersects(_ ranges: GlyphRanges) -> Bool { ascii.contains { ranges.value($0) != nil } }
        for subtable in lookup.subtables {
            switch subtable {
            case .single(let map):
                if map[glyph] != nil { return true }
            case .ligature(let map):
                if let ligatures = map[glyph], ligatures.contains(where: { $0.components.allSatisfy(ascii.contains) }) {
                    return true
                }
            case .contextGlyphs(let coverage, _), .contextClasses(let coverage, _, _, _, _):
                if coverage.value(glyph) != nil { return true }
            case .contextCoverages(let backtrack, let input, let lookahead, _):
                guard let first = input.first, first.value(glyph) != nil else { continue }
                if input.dropFirst().allSatisfy(intersects) && backtrack.allSatisfy(intersects)
                    && lookahead.allSatisfy(intersects)
                {
                    return true
                }
            }
        }
        return false
    }

    /// Whether a glyph is a mark (GDEF class 3).
    @inline(__always)
    func isMark(_ glyph: UInt16) -> Bool {
        let index = Int(glyph)
        guard index >> 6 < markBits.count else { return false }
        return markBits[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Whether substitution lookup `lookup` can start a match at `glyph`.
    @inline(__always)
    func mayTrigger(_ lookup: Int, _ glyph: UInt16) -> Bool {
        let bits = substitutionTriggers[lookup]
        let index = Int(glyph)
        guard index >> 6 < bits.count else { return false }
        return bits[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    private static func triggers(of lookup: SubstitutionLookup, glyphCount: Int) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (glyphCount + 63) / 64)
        func set(_ glyph: UInt16) {
            let index = Int(glyph)
            if index < glyphCount { bits[index >> 6] |= 1 << UInt64(index & 63) }
        }
        func set(_ ranges: GlyphRanges) {
            for index in ranges.starts.indices {
                var glyph = Int(ranges.starts[index])
                while glyph <= Int(ranges.ends[index]) && glyph < glyphCount {
                    bits[glyph >> 6] |= 1 << UInt64(glyph & 63)
                    glyph += 1
                }
            }
        }
        for subtable in lookup.subtables {
            switch subtable {
            case .single(let map): for glyph in map.keys { set(glyph) }
            case .ligature(let map): for glyph in map.keys { set(glyph) }
            case .contextGlyphs(let coverage, _), .contextClasses(let coverage, _, _, _, _): set(coverage)
            case .contextCoverages(_, let input, _, _): if let first = input.first { set(first) }
            }
        }
        return bits
    }

    /// Sums a script's pair adjustments for every pair of printable ASCII glyphs, when all of its
    /// positioning subtables adjust only the first glyph of a pair (so pairs are independent).
    private static func pairMatrix(
        script: ScriptLookups, positionings: [PositionLookup], kernTable: PositionLookup?, direct: [UInt16],
        glyphCount: Int, markBits: [UInt64]
    ) -> [Int32] {
        var lookups = script.positionings.compactMap { Int($0) < positionings.count ? positionings[Int($0)] : nil }
        if script.usesKernTable, let kernTable { lookups.append(kernTable) }
        if lookups.allSatisfy({ $0.subtables.isEmpty }) { return [] }
        for lookup in lookups {
            // IgnoreBaseGlyphs would skip the ASCII glyphs themselves.
            if lookup.flag & 0x2 != 0 { return [] }
            for subtable in lookup.subtables {
                switch subtable {
                case .single, .contextual: return []
                case .pairs(_, _, let hasSecond), .classes(_, _, _, _, _, let hasSecond): if hasSecond { return [] }
                }
            }
        }
        var glyphs: [UInt16] = []
        for code in 0x20...0x7E {
            let glyph = direct[code]
            // A mark among the ASCII glyphs would be skipped by IgnoreMarks: no shortcut.
            if Int(glyph) < glyphCount, markBits[Int(glyph) >> 6] & (1 << UInt64(glyph & 63)) != 0 { return [] }
            glyphs.append(glyph)
        }
        var matrix = [Int32](repeating: 0, count: 95 * 95)
        for (slot1, first) in glyphs.enumerated() where first != 0 {
            for (slot2, second) in glyphs.enumerated() where second != 0 {
                var total: Int32 = 0
                for lookup in lookups {
                    subtables: for subtable in lookup.subtables {
                        switch subtable {
                        case .single, .contextual: break subtables
                        case .pairs(let coverage, let pairs, _):
                            guard coverage.value(first) != nil,
                                let value = pairs[UInt32(first) << 16 | UInt32(second)]
                            else { continue }
                            total &+= Int32(value.first)
                            break subtables
                        case .classes(let coverage, let firstClasses, let secondClasses, let count, let values, _):
                            guard coverage.value(first) != nil else { continue }
                            let index =
                                Int(firstClasses.classOf(first)) * count + Int(secondClasses.classOf(second))
                            guard index < values.count else { continue }
                            total &+= Int32(values[index].first)
                            break subtables
                        }
                    }
                }
                matrix[slot1 * 95 + slot2] = total
            }
        }
        return matrix
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

    /// The index of the lookups for an OpenType script tag (the parser resolved each tag's
    /// fallback to `DFLT`, `dflt` or `latn` as HarfBuzz does).
    func scriptIndex(for tag: UInt32) -> Int? {
        scripts.firstIndex { $0.tag == tag }
    }
}
