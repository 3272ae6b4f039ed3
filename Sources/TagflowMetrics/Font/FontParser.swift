/// Reads the tables of one face of a TrueType/OpenType file (or collection) into a ``TableStorage``.
///
/// Every read goes through ``Reader``, so a truncated or hostile file throws ``FontError``.
/// Loops are bounded by counts read from the file and checked against the table size; offsets
/// that point outside a table throw; recursion through contextual lookups is bounded.
struct FontParser {
    let bytes: [UInt8]
    /// Table tag → (offset, length) in the file.
    var tables: [String: (offset: Int, length: Int)] = [:]

    /// The OpenType script tags a table keeps lookups for (everything else uses `DFLT`).
    static let scriptTags: [String] = ["DFLT", "latn", "cyrl", "grek", "hani", "kana", "hang", "hebr", "arab"]

    /// How many faces a file holds (1 for a plain font, N for a collection).
    static func faceCount(_ bytes: [UInt8]) throws(FontError) -> Int {
        var reader = try Reader(bytes, tag: "file")
        let magic = try reader.u32()
        if magic == 0x7474_6366 {  // 'ttcf'
            try reader.skip(4)
            return Int(try reader.u32())
        }
        return 1
    }

    init(_ bytes: [UInt8], faceIndex: Int) throws(FontError) {
        self.bytes = bytes
        var reader = try Reader(bytes, tag: "file")
        var magic = try reader.u32()
        if magic == 0x7474_6366 {  // 'ttcf'
            try reader.skip(4)
            let count = Int(try reader.u32())
            guard faceIndex >= 0, faceIndex < count else {
                throw reader.error("face index \(faceIndex) is out of range: the collection has \(count) faces")
            }
            try reader.skip(faceIndex * 4)
            let offset = Int(try reader.u32())
            reader = try Reader(bytes, tag: "file", offset: offset)
            magic = try reader.u32()
        } else if faceIndex != 0 {
            throw reader.error("face index \(faceIndex) is out of range: the file has one face")
        }
        guard magic == 0x0001_0000 || magic == 0x4F54_544F || magic == 0x7472_7565 else {
            if magic == 0x774F_4646 || magic == 0x774F_4632 {
                throw reader.error("WOFF files are not supported; decompress to .ttf/.otf first", at: 0)
            }
            throw reader.error("not a TrueType or OpenType font (magic \(Reader.tagString(magic)))", at: 0)
        }
        let numTables = Int(try reader.u16())
        try reader.skip(6)
        try reader.require(numTables * 16)
        for _ in 0..<numTables {
            let tag = try reader.tag4()
            try reader.skip(4)
            let offset = Int(try reader.u32())
            let length = Int(try reader.u32())
            guard offset <= bytes.count, length <= bytes.count - offset else {
                throw FontError(tag: tag, offset: offset, reason: "table of \(length) bytes does not fit in the file")
            }
            tables[tag] = (offset, length)
        }
    }

    /// A reader over a table, or `nil` when the font has none.
    func table(_ tag: String) throws(FontError) -> Reader? {
        guard let entry = tables[tag] else { return nil }
        return try Reader(bytes, tag: tag, offset: entry.offset, length: entry.length)
    }

    /// A reader over a table the font must have.
    func required(_ tag: String) throws(FontError) -> Reader {
        guard let reader = try table(tag) else {
            throw FontError(tag: tag, offset: 0, reason: "required table is missing")
        }
        return reader
    }

    /// Reads everything a metrics table needs.
    func parse() throws(FontError) -> TableStorage {
        var head = try required("head")
        try head.skip(18)
        let unitsPerEm = Int(try head.u16())
        guard (16...16384).contains(unitsPerEm) else {
            throw head.error("unitsPerEm \(unitsPerEm) is out of range", at: head.position - 2)
        }
        var maxp = try required("maxp")
        try maxp.skip(4)
        let numGlyphs = Int(try maxp.u16())
        guard numGlyphs > 0 else { throw maxp.error("the font has no glyphs", at: maxp.position - 2) }

        var hhea = try required("hhea")
        try hhea.skip(4)
        var ascender = Int(try hhea.i16())
        var descender = Int(try hhea.i16())
        var lineGap = Int(try hhea.i16())
        try hhea.skip(24)
        let numberOfHMetrics = Int(try hhea.u16())
        // FreeType uses hhea; when its ascender and descender are both zero, OS/2 instead.
        if ascender == 0 && descender == 0, var os2 = try table("OS/2") {
            try os2.skip(68)
            let typoAscender = Int(try os2.i16())
            let typoDescender = Int(try os2.i16())
            let typoLineGap = Int(try os2.i16())
            let winAscent = Int(try os2.u16())
            let winDescent = Int(try os2.u16())
            if typoAscender != 0 || typoDescender != 0 {
                (ascender, descender, lineGap) = (typoAscender, typoDescender, typoLineGap)
            } else {
                (ascender, descender, lineGap) = (winAscent, -winDescent, 0)
            }
        }
        let advances = try readAdvances(numGlyphs: numGlyphs, numberOfHMetrics: numberOfHMetrics)
        var bitmapPPEM = 0
        if tables["glyf"] == nil && tables["CFF "] == nil && tables["CFF2"] == nil, var cblc = try table("CBLC") {
            try cblc.skip(4)
            let sizes = Int(try cblc.u32())
            guard sizes > 0 else { throw cblc.error("bitmap font has no strikes") }
            try cblc.skip(44)
            bitmapPPEM = Int(try cblc.u8())
            guard bitmapPPEM > 0 else { throw cblc.error("bitmap strike of 0 ppem", at: cblc.position - 1) }
        }
        let cmap = try readCharacterMap(numGlyphs: numGlyphs)
        let glyphClasses = try readGlyphClasses()
        var substitutions: [SubstitutionLookup] = []
        var positionings: [PositionLookup] = []
        var gsubFeatures: [String: [(UInt16, UInt8)]] = [:]
        var gposFeatures: [String: [UInt16]] = [:]
        if let gsub = try table("GSUB") {
            let layout = try LayoutTable(gsub)
            for script in FontParser.scriptTags {
                var list: [(UInt16, UInt8)] = []
                for (feature, lookups) in try layout.features(script: script) {
                    let bit: UInt8
                    switch feature {
                    case "ccmp", "locl": bit = FeatureBit.required
                    case "rlig": bit = FeatureBit.requiredLigatures
                    case "liga", "clig": bit = FeatureBit.ligatures
                    case "calt": bit = FeatureBit.contextual
                    case "isol" where script == "arab": bit = FeatureBit.isolated
                    case "fina" where script == "arab": bit = FeatureBit.final
                    case "medi" where script == "arab": bit = FeatureBit.medial
                    case "init" where script == "arab": bit = FeatureBit.initial
                    default: continue
                    }
                    for lookup in lookups { list.append((lookup, bit)) }
                }
                gsubFeatures[script] = list
            }
            let used = Set(gsubFeatures.values.flatMap { $0.map(\.0) })
            substitutions = try layout.substitutionLookups(used: used)
        }
        var hasGPOSKern: [String: Bool] = [:]
        var halfWidth: [String: [UInt16]] = [:]
        if let gpos = try table("GPOS") {
            let layout = try LayoutTable(gpos)
            for script in FontParser.scriptTags {
                var list: [UInt16] = []
                var kern = false
                for (feature, lookups) in try layout.features(script: script) {
                    switch feature {
                    case "kern", "dist":
                        kern = kern || feature == "kern"
                        list.append(contentsOf: lookups)
                    case "halt":
                        halfWidth[script, default: []].append(contentsOf: lookups)
                    default:
                        break
                    }
                }
                gposFeatures[script] = list
                hasGPOSKern[script] = kern
            }
            positionings = try layout.positionLookups(
                used: Set(gposFeatures.values.flatMap { $0 } + halfWidth.values.flatMap { $0 }))
        }
        let kernTable = try readKernTable()
        var scripts: [ScriptLookups] = []
        for script in FontParser.scriptTags {
            let gsub = (gsubFeatures[script] ?? []).sorted { $0.0 < $1.0 }
            var mergedLookups: [UInt16] = []
            var mergedBits: [UInt8] = []
            for (lookup, bit) in gsub {
                if mergedLookups.last == lookup {
                    mergedBits[mergedBits.count - 1] |= bit
                } else {
                    mergedLookups.append(lookup)
                    mergedBits.append(bit)
                }
            }
            let gpos = Array(Set(gposFeatures[script] ?? [])).sorted()
            scripts.append(
                ScriptLookups(
                    tag: FontParser.tagValue(script), substitutions: mergedLookups, substitutionFeatures: mergedBits,
                    positionings: gpos, usesKernTable: kernTable != nil && !(hasGPOSKern[script] ?? false),
                    halfWidth: Array(Set(halfWidth[script] ?? [])).sorted()))
        }
        return TableStorage(
            unitsPerEm: unitsPerEm, ascender: ascender, descender: descender, lineGap: lineGap,
            bitmapPPEM: bitmapPPEM, advances: advances, glyphClasses: glyphClasses, cmapStarts: cmap.starts,
            cmapEnds: cmap.ends, cmapGlyphs: cmap.glyphs, substitutions: substitutions, positionings: positionings,
            kernTable: kernTable, scripts: scripts)
    }

    /// The 32-bit value of a four-character tag.
    static func tagValue(_ tag: String) -> UInt32 {
        var value: UInt32 = 0
        for byte in tag.utf8.prefix(4) { value = value << 8 | UInt32(byte) }
        return value
    }

    private func readAdvances(numGlyphs: Int, numberOfHMetrics: Int) throws(FontError) -> [UInt16] {
        var hmtx = try required("hmtx")
        guard numberOfHMetrics > 0 else { throw hmtx.error("hhea.numberOfHMetrics is 0", at: hmtx.start) }
        let count = min(numberOfHMetrics, numGlyphs)
        try hmtx.require(count * 4)
        var advances = [UInt16]()
        advances.reserveCapacity(numGlyphs)
        for _ in 0..<count {
            advances.append(try hmtx.u16())
            try hmtx.skip(2)
        }
        let last = advances.last ?? 0
        while advances.count < numGlyphs { advances.append(last) }
        return advances
    }

    private func readGlyphClasses() throws(FontError) -> GlyphRanges {
        guard var gdef = try table("GDEF") else { return GlyphRanges() }
        try gdef.skip(4)
        let offset = Int(try gdef.u16())
        guard offset != 0 else { return GlyphRanges() }
        return try LayoutTable.readClassDef(try gdef.subtable(at: offset))
    }

    /// Reads the best Unicode subtable of `cmap` into sorted (code, glyph) segments.
    func readCharacterMap(numGlyphs: Int) throws(FontError) -> (
        starts: [UInt32], ends: [UInt32], glyphs: [UInt16]
    ) {
        var cmap = try required("cmap")
        try cmap.skip(2)
        let count = Int(try cmap.u16())
        try cmap.require(count * 8)
        var best: (rank: Int, offset: Int)? = nil
        for _ in 0..<count {
            let platform = try cmap.u16()
            let encoding = try cmap.u16()
            let offset = Int(try cmap.u32())
            var sub = try cmap.at(offset)
            let format = try sub.u16()
            let rank: Int
            switch (platform, encoding, format) {
            case (3, 10, 12), (0, 4, 12), (0, 6, 12): rank = 4
            case (0, _, 12): rank = 3
            case (3, 1, 4), (0, 3, 4): rank = 2
            case (0, _, 4), (3, 0, 4): rank = 1
            default: continue
            }
            if best == nil || rank > (best?.rank ?? 0) { best = (rank, offset) }
        }
        guard let chosen = best else { throw cmap.error("no Unicode subtable of format 4 or 12", at: cmap.start) }
        var sub = try cmap.at(chosen.offset)
        let format = try sub.u16()
        var pairs: [(UInt32, UInt16)] = []
        let limit = UInt32(numGlyphs)
        if format == 4 {
            try sub.skip(4)
            let segCountX2 = Int(try sub.u16())
            guard segCountX2 % 2 == 0 else { throw sub.error("odd segCountX2 \(segCountX2)", at: sub.position - 2) }
            let segments = segCountX2 / 2
            var total = 0
            try sub.skip(6)
            let endsAt = sub.position
            let startsAt = endsAt + segCountX2 + 2
            let deltasAt = startsAt + segCountX2
            let rangesAt = deltasAt + segCountX2
            try sub.require(segCountX2 * 4 + 2)
            for index in 0..<segments {
                var reader = sub
                reader.position = endsAt + index * 2
                let end = try reader.u16()
                reader.position = startsAt + index * 2
                let start = try reader.u16()
                reader.position = deltasAt + index * 2
                let delta = try reader.u16()
                reader.position = rangesAt + index * 2
                let rangeOffset = Int(try reader.u16())
                guard start <= end else { continue }
                total += Int(end - start) + 1
                guard total <= 0x20000 else { throw sub.error("overlapping segments map too many characters") }
                for code in UInt32(start)...UInt32(end) {
                    if code == 0xFFFF { break }
                    var glyph: UInt16
                    if rangeOffset == 0 {
                        glyph = UInt16(truncatingIfNeeded: code) &+ delta
                    } else {
                        reader.position = rangesAt + index * 2 + rangeOffset + Int(code - UInt32(start)) * 2
                        glyph = try reader.u16()
                        if glyph != 0 { glyph = glyph &+ delta }
                    }
                    if glyph != 0 && UInt32(glyph) < limit { pairs.append((code, glyph)) }
                }
            }
        } else {
            try sub.skip(10)
            let groups = Int(try sub.u32())
            try sub.require(groups * 12)
            var total = 0
            for _ in 0..<groups {
                let start = try sub.u32()
                let end = try sub.u32()
                let glyph = try sub.u32()
                guard start <= end, end <= 0x10FFFF else { continue }
                total += Int(end - start) + 1
                guard total <= 0x110000 else { throw sub.error("too many mapped characters") }
                for code in start...end {
                    let value = glyph &+ (code - start)
                    if value != 0 && value < limit { pairs.append((code, UInt16(truncatingIfNeeded: value))) }
                }
            }
        }
        pairs.sort { $0.0 < $1.0 }
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        var glyphs: [UInt16] = []
        for (code, glyph) in pairs {
            if let end = ends.last, let first = glyphs.last, let start = starts.last {
                if code == end { continue }
                if code == end + 1 && UInt32(glyph) == UInt32(first) + (code - start) {
                    ends[ends.count - 1] = code
                    continue
                }
            }
            starts.append(code)
            ends.append(code)
            glyphs.append(glyph)
        }
        return (starts, ends, glyphs)
    }

    /// Reads the first horizontal format 0 subtable of the `kern` table as a pair lookup.
    private func readKernTable() throws(FontError) -> PositionLookup? {
        guard var kern = try table("kern") else { return nil }
        let version = try kern.u16()
        guard version == 0 else { return nil }  // Apple's version 1 kern tables are not used by browsers.
        let count = Int(try kern.u16())
        var pairs: [UInt32: PairValue] = [:]
        var firsts = Set<UInt16>()
        for _ in 0..<min(count, 64) {
            var sub = kern.here
            try sub.skip(2)
            let length = Int(try sub.u16())
            let coverage = try sub.u16()
            if coverage & 0x00FF == 0x0001 {  // horizontal, format 0, not minimum or cross-stream
                let nPairs = Int(try sub.u16())
                try sub.skip(6)
                try sub.require(nPairs * 6)
                for _ in 0..<nPairs {
                    let left = try sub.u16()
                    let right = try sub.u16()
                    let value = try sub.i16()
                    let key = UInt32(left) << 16 | UInt32(right)
                    if pairs[key] == nil {
                        pairs[key] = PairValue(first: value, second: 0)
                        firsts.insert(left)
                    }
                }
            }
            guard length >= 6 else { break }
            try kern.skip(length)
        }
        guard !pairs.isEmpty else { return nil }
        let coverage = GlyphRanges.make(firsts.map { ($0, 0) }, counting: false)
        return PositionLookup(flag: 8, subtables: [.pairs(coverage: coverage, pairs: pairs, hasSecond: false)])
    }
}
