/// Appends big-endian values to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }
    mutating func i16(_ value: Int16) { u16(UInt16(bitPattern: value)) }
    mutating func u32(_ value: UInt32) {
        u16(UInt16(value >> 16))
        u16(UInt16(truncatingIfNeeded: value))
    }
    mutating func count(_ value: Int) { u32(UInt32(clamping: value)) }
    mutating func u16Array(_ values: [UInt16]) {
        count(values.count)
        for value in values { u16(value) }
    }
    mutating func ranges(_ ranges: GlyphRanges) {
        u8(ranges.counting ? 1 : 0)
        count(ranges.starts.count)
        for index in ranges.starts.indices {
            u16(ranges.starts[index])
            u16(ranges.ends[index])
            u16(ranges.values[index])
        }
    }
}

extension Reader {
    /// Reads a 32-bit count and checks that `count × minimumSize` bytes remain.
    mutating func count(minimumSize: Int) throws(FontError) -> Int {
        let value = Int(try u32())
        try require(value * minimumSize)
        return value
    }

    mutating func u16List() throws(FontError) -> [UInt16] {
        try u16Array(try count(minimumSize: 2))
    }

    mutating func ranges() throws(FontError) -> GlyphRanges {
        var out = GlyphRanges()
        out.counting = try u8() != 0
        let count = try count(minimumSize: 6)
        out.starts.reserveCapacity(count)
        out.ends.reserveCapacity(count)
        out.values.reserveCapacity(count)
        var previousEnd = -1
        for _ in 0..<count {
            let start = try u16()
            let end = try u16()
            let value = try u16()
            guard Int(start) > previousEnd, start <= end else { throw error("glyph ranges out of order") }
            previousEnd = Int(end)
            out.append(start: start, end: end, value: value)
        }
        return out
    }
}

extension TableStorage {
    /// The magic bytes at the start of a metrics table: `TFMT`.
    static let magic: UInt32 = 0x5446_4D54
    /// The format version this code writes.
    ///
    /// Version 1 tables read the same: they predate the Arabic joining forms and contextual
    /// positioning, and kept `rlig` under the required bit.
    static let version: UInt16 = 2

    /// The compact binary form of the table (see the "Metrics table format" article).
    func encoded() -> [UInt8] {
        var out = ByteWriter()
        out.u32(TableStorage.magic)
        out.u16(TableStorage.version)
        out.u16(constantGlyphs ? 1 : 0)
        out.u16(UInt16(unitsPerEm))
        out.i16(Int16(clamping: ascender))
        out.i16(Int16(clamping: descender))
        out.i16(Int16(clamping: lineGap))
        out.u16(UInt16(clamping: bitmapPPEM))
        out.u16Array(advances)
        out.ranges(glyphClasses)
        out.count(cmapStarts.count)
        for index in cmapStarts.indices {
            out.u32(cmapStarts[index])
            out.u16(UInt16(clamping: cmapEnds[index] - cmapStarts[index]))
            out.u16(cmapGlyphs[index])
        }
        out.count(substitutions.count)
        for lookup in substitutions { TableStorage.write(lookup, to: &out) }
        out.count(positionings.count)
        for lookup in positionings { TableStorage.write(lookup, to: &out) }
        if let kernTable {
            out.u8(1)
            TableStorage.write(kernTable, to: &out)
        } else {
            out.u8(0)
        }
        out.count(scripts.count)
        for script in scripts {
            out.u32(script.tag)
            out.u16Array(script.substitutions)
            for bit in script.substitutionFeatures { out.u8(bit) }
            out.u16Array(script.positionings)
            out.u8(script.usesKernTable ? 1 : 0)
            out.u16Array(script.halfWidth)
        }
        return out.bytes
    }

    /// Reads a table written by ``encoded()``.
    convenience init(decoding bytes: [UInt8]) throws(FontError) {
        var reader = try Reader(bytes, tag: "TFMT")
        guard try reader.u32() == TableStorage.magic else {
            throw FontError(tag: "TFMT", offset: 0, reason: "not a Tagflow metrics table (no TFMT magic)")
        }
        let version = try reader.u16()
        guard version == 1 || version == TableStorage.version else {
            throw reader.error("unsupported metrics table version \(version)", at: 4)
        }
        let flags = try reader.u16()
        let unitsPerEm = Int(try reader.u16())
        guard (16...16384).contains(unitsPerEm) else { throw reader.error("unitsPerEm \(unitsPerEm) out of range") }
        let ascender = Int(try reader.i16())
        let descender = Int(try reader.i16())
        let lineGap = Int(try reader.i16())
        let bitmapPPEM = Int(try reader.u16())
        let advances = try reader.u16List()
        guard !advances.isEmpty, advances.count <= 0x10000 else { throw reader.error("bad glyph count") }
        let glyphClasses = try reader.ranges()
        let cmapCount = try reader.count(minimumSize: 8)
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        var glyphs: [UInt16] = []
        starts.reserveCapacity(cmapCount)
        ends.reserveCapacity(cmapCount)
        glyphs.reserveCapacity(cmapCount)
        var previousEnd: Int64 = -1
        for _ in 0..<cmapCount {
            let start = try reader.u32()
            let length = try reader.u16()
            let glyph = try reader.u16()
            guard Int64(start) > previousEnd, start <= 0x10FFFF else { throw reader.error("cmap out of order") }
            previousEnd = Int64(start) + Int64(length)
            starts.append(start)
            ends.append(start + UInt32(length))
            glyphs.append(glyph)
        }
        let substitutionCount = try reader.count(minimumSize: 6)
        var substitutions: [SubstitutionLookup] = []
        for _ in 0..<substitutionCount { substitutions.append(try TableStorage.readSubstitution(&reader)) }
        let positioningCount = try reader.count(minimumSize: 6)
        var positionings: [PositionLookup] = []
        for _ in 0..<positioningCount { positionings.append(try TableStorage.readPosition(&reader)) }
        let kernTable = try reader.u8() != 0 ? try TableStorage.readPosition(&reader) : nil
        let scriptCount = try reader.count(minimumSize: 13)
        var scripts: [ScriptLookups] = []
        for _ in 0..<scriptCount {
            let tag = try reader.u32()
            let lookups = try reader.u16List()
            var bits: [UInt8] = []
            try reader.require(lookups.count)
            for _ in lookups { bits.append(try reader.u8()) }
            let positions = try reader.u16List()
            let usesKern = try reader.u8() != 0
            let halfWidth = version >= 2 ? try reader.u16List() : []
            scripts.append(
                ScriptLookups(
                    tag: tag, substitutions: lookups, substitutionFeatures: bits, positionings: positions,
                    usesKernTable: usesKern, halfWidth: halfWidth))
        }
        self.init(
            unitsPerEm: unitsPerEm, ascender: ascender, descender: descender, lineGap: lineGap,
            bitmapPPEM: bitmapPPEM, advances: advances, glyphClasses: glyphClasses, cmapStarts: starts,
            cmapEnds: ends, cmapGlyphs: glyphs, substitutions: substitutions, positionings: positionings,
            kernTable: kernTable, scripts: scripts, constantGlyphs: flags & 1 != 0)
    }

    // MARK: Lookups

    private static func write(_ rule: ContextRule, to out: inout ByteWriter) {
        out.u16Array(rule.backtrack)
        out.u16Array(rule.input)
        out.u16Array(rule.lookahead)
        out.u16Array(rule.records)
    }

    private static func readRule(_ reader: inout Reader) throws(FontError) -> ContextRule {
        ContextRule(
            backtrack: try reader.u16List(), input: try reader.u16List(), lookahead: try reader.u16List(),
            records: try reader.u16List())
    }

    private static func write(_ sets: [[ContextRule]], to out: inout ByteWriter) {
        out.count(sets.count)
        for set in sets {
            out.count(set.count)
            for rule in set { write(rule, to: &out) }
        }
    }

    private static func readRuleSets(_ reader: inout Reader) throws(FontError) -> [[ContextRule]] {
        let count = try reader.count(minimumSize: 4)
        var sets: [[ContextRule]] = []
        for _ in 0..<count {
            let rules = try reader.count(minimumSize: 16)
            var set: [ContextRule] = []
            for _ in 0..<rules { set.append(try readRule(&reader)) }
            sets.append(set)
        }
        return sets
    }

    private static func write(_ lookup: SubstitutionLookup, to out: inout ByteWriter) {
        out.u16(lookup.flag)
        out.count(lookup.subtables.count)
        for subtable in lookup.subtables { write(subtable, to: &out) }
    }

    private static func write(_ subtable: SubstitutionSubtable, to out: inout ByteWriter) {
        switch subtable {
        case .single(let map):
            out.u8(1)
            out.count(map.count)
            for key in map.keys.sorted() {
                out.u16(key)
                out.u16(map[key] ?? 0)
            }
        case .ligature(let map):
            out.u8(4)
            out.count(map.count)
            for key in map.keys.sorted() {
                out.u16(key)
                let ligatures = map[key] ?? []
                out.count(ligatures.count)
                for ligature in ligatures {
                    out.u16(ligature.glyph)
                    out.u16Array(ligature.components)
                }
            }
        case .contextGlyphs(let coverage, let sets):
            out.u8(5)
            out.ranges(coverage)
            write(sets, to: &out)
        case .contextClasses(let coverage, let backtrack, let input, let lookahead, let sets):
            out.u8(6)
            out.ranges(coverage)
            out.ranges(backtrack)
            out.ranges(input)
            out.ranges(lookahead)
            write(sets, to: &out)
        case .contextCoverages(let backtrack, let input, let lookahead, let records):
            out.u8(7)
            for list in [backtrack, input, lookahead] {
                out.count(list.count)
                for ranges in list { out.ranges(ranges) }
            }
            out.u16Array(records)
        }
    }

    private static func readSubstitution(_ reader: inout Reader) throws(FontError) -> SubstitutionLookup {
        let flag = try reader.u16()
        let count = try reader.count(minimumSize: 1)
        var subtables: [SubstitutionSubtable] = []
        for _ in 0..<count { subtables.append(try readSubtable(&reader)) }
        return SubstitutionLookup(flag: flag, subtables: subtables)
    }

    /// Reads one substitution subtable (or the context of a contextual positioning subtable).
    private static func readSubtable(_ reader: inout Reader) throws(FontError) -> SubstitutionSubtable {
        let kind = try reader.u8()
        switch kind {
        case 1:
            let entries = try reader.count(minimumSize: 4)
            var map: [UInt16: UInt16] = [:]
            map.reserveCapacity(entries)
            for _ in 0..<entries {
                let key = try reader.u16()
                map[key] = try reader.u16()
            }
            return .single(map)
        case 4:
            let entries = try reader.count(minimumSize: 6)
            var map: [UInt16: [Ligature]] = [:]
            for _ in 0..<entries {
                let key = try reader.u16()
                let ligatureCount = try reader.count(minimumSize: 6)
                var ligatures: [Ligature] = []
                for _ in 0..<ligatureCount {
                    let glyph = try reader.u16()
                    ligatures.append(Ligature(components: try reader.u16List(), glyph: glyph))
                }
                map[key] = ligatures
            }
            return .ligature(map)
        case 5:
            let coverage = try reader.ranges()
            return .contextGlyphs(coverage: coverage, ruleSets: try readRuleSets(&reader))
        case 6:
            let coverage = try reader.ranges()
            let backtrack = try reader.ranges()
            let input = try reader.ranges()
            let lookahead = try reader.ranges()
            return .contextClasses(
                coverage: coverage, backtrack: backtrack, input: input, lookahead: lookahead,
                ruleSets: try readRuleSets(&reader))
        case 7:
            var lists: [[GlyphRanges]] = []
            for _ in 0..<3 {
                let listCount = try reader.count(minimumSize: 5)
                var list: [GlyphRanges] = []
                for _ in 0..<listCount { list.append(try reader.ranges()) }
                lists.append(list)
            }
            let records = try reader.u16List()
            guard !lists[1].isEmpty else { throw reader.error("context rule with no input") }
            return .contextCoverages(backtrack: lists[0], input: lists[1], lookahead: lists[2], records: records)
        default:
            throw reader.error("unknown substitution kind \(kind)", at: reader.position - 1)
        }
    }

    private static func write(_ lookup: PositionLookup, to out: inout ByteWriter) {
        out.u16(lookup.flag)
        out.count(lookup.subtables.count)
        for subtable in lookup.subtables {
            switch subtable {
            case .single(let coverage, let values):
                out.u8(1)
                out.ranges(coverage)
                out.count(values.count)
                for value in values { out.i16(value) }
            case .pairs(let coverage, let pairs, let hasSecond):
                out.u8(2)
                out.ranges(coverage)
                out.u8(hasSecond ? 1 : 0)
                out.count(pairs.count)
                for key in pairs.keys.sorted() {
                    let value = pairs[key] ?? PairValue(first: 0, second: 0)
                    out.u32(key)
                    out.i16(value.first)
                    if hasSecond { out.i16(value.second) }
                }
            case .classes(let coverage, let first, let second, let secondCount, let values, let hasSecond):
                out.u8(3)
                out.ranges(coverage)
                out.ranges(first)
                out.ranges(second)
                out.u8(hasSecond ? 1 : 0)
                out.count(secondCount)
                out.count(values.count)
                for value in values {
                    out.i16(value.first)
                    if hasSecond { out.i16(value.second) }
                }
            case .contextual(let context):
                out.u8(4)
                write(context, to: &out)
            }
        }
    }

    private static func readPosition(_ reader: inout Reader) throws(FontError) -> PositionLookup {
        let flag = try reader.u16()
        let count = try reader.count(minimumSize: 1)
        var subtables: [PairSubtable] = []
        for _ in 0..<count {
            let kind = try reader.u8()
            switch kind {
            case 1:
                let coverage = try reader.ranges()
                let values = try reader.count(minimumSize: 2)
                var list: [Int16] = []
                for _ in 0..<values { list.append(try reader.i16()) }
                subtables.append(.single(coverage: coverage, values: list))
            case 2:
                let coverage = try reader.ranges()
                let hasSecond = try reader.u8() != 0
                let entries = try reader.count(minimumSize: hasSecond ? 8 : 6)
                var pairs: [UInt32: PairValue] = [:]
                pairs.reserveCapacity(entries)
                for _ in 0..<entries {
                    let key = try reader.u32()
                    let first = try reader.i16()
                    let second = hasSecond ? try reader.i16() : 0
                    pairs[key] = PairValue(first: first, second: second)
                }
                subtables.append(.pairs(coverage: coverage, pairs: pairs, hasSecond: hasSecond))
            case 3:
                let coverage = try reader.ranges()
                let first = try reader.ranges()
                let second = try reader.ranges()
                let hasSecond = try reader.u8() != 0
                let secondCount = Int(try reader.u32())
                let valueCount = try reader.count(minimumSize: hasSecond ? 4 : 2)
                guard secondCount > 0, valueCount % secondCount == 0 else { throw reader.error("bad class matrix") }
                var values: [PairValue] = []
                values.reserveCapacity(valueCount)
                for _ in 0..<valueCount {
                    let firstValue = try reader.i16()
                    let secondValue = hasSecond ? try reader.i16() : 0
                    values.append(PairValue(first: firstValue, second: secondValue))
                }
                subtables.append(
                    .classes(
                        coverage: coverage, first: first, second: second, secondCount: secondCount, values: values,
                        hasSecond: hasSecond))
            case 4:
                let context = try readSubtable(&reader)
                switch context {
                case .contextGlyphs, .contextClasses, .contextCoverages: subtables.append(.contextual(context))
                case .single, .ligature: throw reader.error("a positioning context that is not one")
                }
            default:
                throw reader.error("unknown positioning kind \(kind)", at: reader.position - 1)
            }
        }
        return PositionLookup(flag: flag, subtables: subtables)
    }
}
