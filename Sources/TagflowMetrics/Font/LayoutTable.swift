/// Reads the common structure of `GSUB` and `GPOS`: scripts, features, lookups, coverage and
/// class definitions, and the lookup types that change advance widths.
struct LayoutTable {
    let reader: Reader
    let scriptList: Reader
    let featureList: Reader
    let lookupList: Reader
    let lookupCount: Int

    /// The deepest nesting of extension/context lookups followed, against hostile cycles.
    static let maxDepth = 8

    init(_ table: Reader) throws(FontError) {
        var header = table
        let major = try header.u16()
        guard major == 1 else { throw header.error("unsupported version \(major)", at: header.start) }
        try header.skip(2)
        let scripts = Int(try header.u16())
        let features = Int(try header.u16())
        let lookups = Int(try header.u16())
        reader = table
        scriptList = try table.subtable(at: scripts)
        featureList = try table.subtable(at: features)
        lookupList = try table.subtable(at: lookups)
        var list = lookupList
        lookupCount = Int(try list.u16())
    }

    /// The features (tag and lookup indices) of a script's default language system, in
    /// feature-list order; the script falls back to `DFLT`, `dflt` and `latn` as HarfBuzz does.
    func features(script: String) throws(FontError) -> [(String, [UInt16])] {
        var list = scriptList
        let count = Int(try list.u16())
        try list.require(count * 6)
        var found: [String: Int] = [:]
        for _ in 0..<count {
            let tag = try list.tag4()
            found[tag] = Int(try list.u16())
        }
        guard let offset = found[script] ?? found["DFLT"] ?? found["dflt"] ?? found["latn"] else { return [] }
        var scriptTable = try scriptList.subtable(at: offset)
        let langSysOffset = Int(try scriptTable.u16())
        guard langSysOffset != 0 else { return [] }
        var langSys = try scriptTable.at(langSysOffset)
        try langSys.skip(2)
        let required = Int(try langSys.u16())
        let featureCount = Int(try langSys.u16())
        var indices = try langSys.u16Array(featureCount).map(Int.init)
        if required != 0xFFFF { indices.insert(required, at: 0) }
        var features = featureList
        let total = Int(try features.u16())
        var out: [(String, [UInt16])] = []
        for index in indices {
            guard index < total else { throw features.error("feature index \(index) is out of range") }
            var record = try featureList.at(2 + index * 6)
            let tag = try record.tag4()
            let featureOffset = Int(try record.u16())
            var feature = try featureList.subtable(at: featureOffset)
            try feature.skip(2)
            let lookupCount = Int(try feature.u16())
            let lookups = try feature.u16Array(lookupCount).filter { Int($0) < self.lookupCount }
            out.append((tag, lookups))
        }
        return out
    }

    /// A lookup's type, flag and subtable readers, with extension subtables unwrapped.
    func lookup(_ index: Int, extensionType: UInt16) throws(FontError) -> (
        type: UInt16, flag: UInt16, subtables: [Reader]
    ) {
        var list = try lookupList.at(2 + index * 2)
        var lookup = try lookupList.subtable(at: Int(try list.u16()))
        var type = try lookup.u16()
        let flag = try lookup.u16()
        let count = Int(try lookup.u16())
        let offsets = try lookup.u16Array(count)
        var subtables: [Reader] = []
        for offset in offsets {
            var sub = try lookup.subtable(at: Int(offset))
            if type == extensionType {
                let format = try sub.u16()
                guard format == 1 else { throw sub.error("unknown extension format \(format)") }
                let innerType = try sub.u16()
                let innerOffset = Int(try sub.u32())
                guard innerType != extensionType else { throw sub.error("extension of an extension") }
                if subtables.isEmpty { type = innerType }
                guard innerType == type else { throw sub.error("extension subtables of different types") }
                subtables.append(try sub.subtable(at: innerOffset))
            } else {
                subtables.append(sub)
            }
        }
        if type == extensionType { type = 0 }
        return (type, flag, subtables)
    }

    // MARK: - GSUB

    /// Reads the substitution lookups in `used` and those they call; others are left empty.
    func substitutionLookups(used: Set<UInt16>) throws(FontError) -> [SubstitutionLookup] {
        var result = [SubstitutionLookup](repeating: SubstitutionLookup(flag: 0, subtables: []), count: lookupCount)
        var pending = Array(used)
        var done = Set<UInt16>()
        while let index = pending.popLast() {
            guard Int(index) < lookupCount, done.insert(index).inserted else { continue }
            let (type, flag, readers) = try lookup(Int(index), extensionType: 7)
            var subtables: [SubstitutionSubtable] = []
            for reader in readers {
                guard let sub = try readSubstitution(reader, type: type) else { continue }
                subtables.append(sub)
                for nested in LayoutTable.nestedLookups(sub) where !done.contains(nested) {
                    pending.append(nested)
                }
            }
            result[Int(index)] = SubstitutionLookup(flag: flag, subtables: subtables)
        }
        return result
    }

    /// The lookups a contextual subtable calls.
    static func nestedLookups(_ sub: SubstitutionSubtable) -> [UInt16] {
        func fromRecords(_ records: [UInt16]) -> [UInt16] {
            stride(from: 1, to: records.count, by: 2).map { records[$0] }
        }
        switch sub {
        case .single, .ligature: return []
        case .contextGlyphs(_, let sets), .contextClasses(_, _, _, _, let sets):
            return sets.flatMap { $0.flatMap { fromRecords($0.records) } }
        case .contextCoverages(_, _, _, let records): return fromRecords(records)
        }
    }

    private func readSubstitution(_ table: Reader, type: UInt16) throws(FontError) -> SubstitutionSubtable? {
        var sub = table
        let format = try sub.u16()
        switch type {
        case 1:
            let coverage = try LayoutTable.readCoverage(try table.subtable(at: Int(try sub.u16())))
            let glyphs = LayoutTable.glyphs(of: coverage)
            var map: [UInt16: UInt16] = [:]
            if format == 1 {
                let delta = try sub.u16()
                for glyph in glyphs { map[glyph] = glyph &+ delta }
            } else if format == 2 {
                let count = Int(try sub.u16())
                let substitutes = try sub.u16Array(count)
                for glyph in glyphs {
                    let index = Int(coverage.value(glyph) ?? 0)
                    guard index < substitutes.count else { throw sub.error("coverage index \(index) out of range") }
                    map[glyph] = substitutes[index]
                }
            } else {
                throw sub.error("unknown single substitution format \(format)")
            }
            return .single(map)
        case 4:
            guard format == 1 else { throw sub.error("unknown ligature substitution format \(format)") }
            let coverage = try LayoutTable.readCoverage(try table.subtable(at: Int(try sub.u16())))
            let setCount = Int(try sub.u16())
            let setOffsets = try sub.u16Array(setCount)
            var map: [UInt16: [Ligature]] = [:]
            for glyph in LayoutTable.glyphs(of: coverage) {
                let index = Int(coverage.value(glyph) ?? 0)
                guard index < setOffsets.count else { continue }
                var set = try table.subtable(at: Int(setOffsets[index]))
                let count = Int(try set.u16())
                var ligatures: [Ligature] = []
                for offset in try set.u16Array(count) {
                    var lig = try set.subtable(at: Int(offset))
                    let glyph = try lig.u16()
                    let components = Int(try lig.u16())
                    guard components >= 1 else { throw lig.error("ligature with no components") }
                    ligatures.append(Ligature(components: try lig.u16Array(components - 1), glyph: glyph))
                }
                map[glyph] = ligatures
            }
            return .ligature(map)
        case 5, 6:
            return try readContext(table, format: format, chained: type == 6)
        default:
            return nil
        }
    }

    /// Reads a contextual (type 5) or chaining contextual (type 6) subtable of GSUB or GPOS.
    private func readContext(_ table: Reader, format: UInt16, chained: Bool) throws(FontError)
        -> SubstitutionSubtable
    {
        var sub = table
        try sub.skip(2)
        func readRule(_ rule: inout Reader) throws(FontError) -> ContextRule {
            var backtrack: [UInt16] = []
            var lookahead: [UInt16] = []
            if chained { backtrack = try rule.u16Array(Int(try rule.u16())) }
            let inputCount = Int(try rule.u16())
            guard inputCount >= 1 else { throw rule.error("context rule with no input") }
            var input: [UInt16] = []
            if chained {
                input = try rule.u16Array(inputCount - 1)
                lookahead = try rule.u16Array(Int(try rule.u16()))
                let recordCount = Int(try rule.u16())
                return ContextRule(
                    backtrack: backtrack, input: input, lookahead: lookahead,
                    records: try rule.u16Array(recordCount * 2))
            }
            let recordCount = Int(try rule.u16())
            input = try rule.u16Array(inputCount - 1)
            return ContextRule(backtrack: [], input: input, lookahead: [], records: try rule.u16Array(recordCount * 2))
        }
        func readRuleSets(_ offsets: [UInt16]) throws(FontError) -> [[ContextRule]] {
            var sets: [[ContextRule]] = []
            for offset in offsets {
                guard offset != 0 else {
                    sets.append([])
                    continue
                }
                var set = try table.subtable(at: Int(offset))
                let count = Int(try set.u16())
                var rules: [ContextRule] = []
                for ruleOffset in try set.u16Array(count) {
                    var rule = try set.subtable(at: Int(ruleOffset))
                    rules.append(try readRule(&rule))
                }
                sets.append(rules)
            }
            return sets
        }
        switch format {
        case 1:
            let coverage = try LayoutTable.readCoverage(try table.subtable(at: Int(try sub.u16())))
            let count = Int(try sub.u16())
            return .contextGlyphs(coverage: coverage, ruleSets: try readRuleSets(try sub.u16Array(count)))
        case 2:
            let coverage = try LayoutTable.readCoverage(try table.subtable(at: Int(try sub.u16())))
            var backtrack = GlyphRanges()
            var lookahead = GlyphRanges()
            if chained {
                backtrack = try LayoutTable.readClassDef(try table.subtable(at: Int(try sub.u16())))
            }
            let input = try LayoutTable.readClassDef(try table.subtable(at: Int(try sub.u16())))
            if chained {
                lookahead = try LayoutTable.readClassDef(try table.subtable(at: Int(try sub.u16())))
            }
            let count = Int(try sub.u16())
            return .contextClasses(
                coverage: coverage, backtrack: backtrack, input: input, lookahead: lookahead,
                ruleSets: try readRuleSets(try sub.u16Array(count)))
        case 3:
            func coverages(_ count: Int, _ sub: inout Reader) throws(FontError) -> [GlyphRanges] {
                var out: [GlyphRanges] = []
                for offset in try sub.u16Array(count) {
                    out.append(try LayoutTable.readCoverage(try table.subtable(at: Int(offset))))
                }
                return out
            }
            if chained {
                let backtrack = try coverages(Int(try sub.u16()), &sub)
                let input = try coverages(Int(try sub.u16()), &sub)
                let lookahead = try coverages(Int(try sub.u16()), &sub)
                let records = try sub.u16Array(Int(try sub.u16()) * 2)
                guard !input.isEmpty else { throw sub.error("context rule with no input") }
                return .contextCoverages(backtrack: backtrack, input: input, lookahead: lookahead, records: records)
            }
            let inputCount = Int(try sub.u16())
            let recordCount = Int(try sub.u16())
            let input = try coverages(inputCount, &sub)
            guard !input.isEmpty else { throw sub.error("context rule with no input") }
            return .contextCoverages(
                backtrack: [], input: input, lookahead: [], records: try sub.u16Array(recordCount * 2))
        default:
            throw sub.error("unknown context format \(format)")
        }
    }

    // MARK: - GPOS

    /// Reads the positioning lookups in `used` and those their contexts call (single, pair and
    /// contextual adjustments); others are left empty.
    func positionLookups(used: Set<UInt16>) throws(FontError) -> [PositionLookup] {
        var result = [PositionLookup](repeating: PositionLookup(flag: 0, subtables: []), count: lookupCount)
        var pending = Array(used)
        var done = Set<UInt16>()
        while let index = pending.popLast() {
            guard Int(index) < lookupCount, done.insert(index).inserted else { continue }
            let (type, flag, readers) = try lookup(Int(index), extensionType: 9)
            var subtables: [PairSubtable] = []
            for reader in readers {
                switch type {
                case 1: subtables.append(try readSingle(reader))
                case 2: subtables.append(try readPair(reader))
                case 7, 8:
                    var header = reader
                    let context = try readContext(reader, format: try header.u16(), chained: type == 8)
                    subtables.append(.contextual(context))
                    for nested in LayoutTable.nestedLookups(context) where !done.contains(nested) {
                        pending.append(nested)
                    }
                default: break
                }
            }
            result[Int(index)] = PositionLookup(flag: flag, subtables: subtables)
        }
        return result
    }

    /// The size of a value record and the byte offset of its XAdvance field, if any.
    private static func valueLayout(_ format: UInt16) -> (size: Int, xAdvance: Int?) {
        var size = 0
        var xAdvance: Int? = nil
        for bit in 0..<8 where format & (1 << UInt16(bit)) != 0 {
            if bit == 2 { xAdvance = size }
            size += 2
        }
        return (size, xAdvance)
    }

    private static func readValue(_ reader: inout Reader, _ layout: (size: Int, xAdvance: Int?)) throws(FontError)
        -> Int16
    {
        var value: Int16 = 0
        if let at = layout.xAdvance {
            var field = reader
            try field.skip(at)
            value = try field.i16()
        }
        try reader.skip(layout.size)
        return value
    }

    private func readSingle(_ table: Reader) throws(FontError) -> PairSubtable {
        var sub = table
        let format = try sub.u16()
        let coverage = try LayoutTable.readCoverage(try table.subtable(at: Int(try sub.u16())))
        let layout = LayoutTable.valueLayout(try sub.u16())
        switch format {
        case 1:
            return .single(coverage: coverage, values: [try LayoutTable.readValue(&sub, layout)])
        case 2:
            let count = Int(try sub.u16())
            try sub.require(count * layout.size)
            var values: [Int16] = []
            for _ in 0..<count { values.append(try LayoutTable.readValue(&sub, layout)) }
            return .single(coverage: coverage, values: values)
        default:
            throw sub.error("unknown single adjustment format \(format)")
        }
    }

    private func readPair(_ table: Reader) throws(FontError) -> PairSubtable {
        var sub = table
        let format = try sub.u16()
        let coverage = try LayoutTable.readCoverage(try table.subtable(at: Int(try sub.u16())))
        let format1 = try sub.u16()
        let format2 = try sub.u16()
        let layout1 = LayoutTable.valueLayout(format1)
        let layout2 = LayoutTable.valueLayout(format2)
        let hasSecond = format2 != 0
        switch format {
        case 1:
            let setCount = Int(try sub.u16())
            let offsets = try sub.u16Array(setCount)
            var pairs: [UInt32: PairValue] = [:]
            for glyph in LayoutTable.glyphs(of: coverage) {
                let index = Int(coverage.value(glyph) ?? 0)
                guard index < offsets.count else { continue }
                var set = try table.subtable(at: Int(offsets[index]))
                let count = Int(try set.u16())
                try set.require(count * (2 + layout1.size + layout2.size))
                for _ in 0..<count {
                    let second = try set.u16()
                    let first = try LayoutTable.readValue(&set, layout1)
                    let other = try LayoutTable.readValue(&set, layout2)
                    let key = UInt32(glyph) << 16 | UInt32(second)
                    if pairs[key] == nil { pairs[key] = PairValue(first: first, second: other) }
                }
            }
            return .pairs(coverage: coverage, pairs: pairs, hasSecond: hasSecond)
        case 2:
            let classDef1 = try LayoutTable.readClassDef(try table.subtable(at: Int(try sub.u16())))
            let classDef2 = try LayoutTable.readClassDef(try table.subtable(at: Int(try sub.u16())))
            let count1 = Int(try sub.u16())
            let count2 = Int(try sub.u16())
            guard count1 * count2 <= 1 << 22 else { throw sub.error("class matrix of \(count1)×\(count2) is too big") }
            try sub.require(count1 * count2 * (layout1.size + layout2.size))
            var values: [PairValue] = []
            values.reserveCapacity(count1 * count2)
            for _ in 0..<(count1 * count2) {
                let first = try LayoutTable.readValue(&sub, layout1)
                let second = try LayoutTable.readValue(&sub, layout2)
                values.append(PairValue(first: first, second: second))
            }
            // Classes beyond the matrix are treated as class 0.
            var first = classDef1
            for index in first.values.indices where Int(first.values[index]) >= count1 { first.values[index] = 0 }
            var second = classDef2
            for index in second.values.indices where Int(second.values[index]) >= count2 { second.values[index] = 0 }
            return .classes(
                coverage: coverage, first: first, second: second, secondCount: count2, values: values,
                hasSecond: hasSecond)
        default:
            throw sub.error("unknown pair adjustment format \(format)")
        }
    }

    // MARK: - Coverage and class definitions

    /// Every glyph a coverage table lists.
    static func glyphs(of coverage: GlyphRanges) -> [UInt16] {
        var out: [UInt16] = []
        for index in coverage.starts.indices {
            var glyph = coverage.starts[index]
            while true {
                out.append(glyph)
                if glyph >= coverage.ends[index] { break }
                glyph += 1
            }
        }
        return out
    }

    static func readCoverage(_ table: Reader) throws(FontError) -> GlyphRanges {
        var sub = table
        let format = try sub.u16()
        var pairs: [(UInt16, UInt16)] = []
        switch format {
        case 1:
            let count = Int(try sub.u16())
            let glyphs = try sub.u16Array(count)
            for (index, glyph) in glyphs.enumerated() { pairs.append((glyph, UInt16(truncatingIfNeeded: index))) }
            return GlyphRanges.make(pairs, counting: true)
        case 2:
            let count = Int(try sub.u16())
            try sub.require(count * 6)
            var out = GlyphRanges()
            out.counting = true
            var ranges: [(UInt16, UInt16, UInt16)] = []
            for _ in 0..<count {
                let start = try sub.u16()
                let end = try sub.u16()
                let index = try sub.u16()
                guard start <= end else { throw sub.error("coverage range \(start)>\(end)", at: sub.position - 6) }
                ranges.append((start, end, index))
            }
            ranges.sort { $0.0 < $1.0 }
            for (start, end, index) in ranges {
                if let last = out.ends.last, start <= last { continue }
                out.append(start: start, end: end, value: index)
            }
            return out
        default:
            throw sub.error("unknown coverage format \(format)", at: sub.position - 2)
        }
    }

    static func readClassDef(_ table: Reader) throws(FontError) -> GlyphRanges {
        var sub = table
        let format = try sub.u16()
        var pairs: [(UInt16, UInt16)] = []
        switch format {
        case 1:
            let first = try sub.u16()
            let count = Int(try sub.u16())
            let classes = try sub.u16Array(count)
            for (index, value) in classes.enumerated() where value != 0 {
                let glyph = Int(first) + index
                guard glyph <= 0xFFFF else { break }
                pairs.append((UInt16(glyph), value))
            }
            return GlyphRanges.make(pairs, counting: false)
        case 2:
            let count = Int(try sub.u16())
            try sub.require(count * 6)
            var ranges: [(UInt16, UInt16, UInt16)] = []
            for _ in 0..<count {
                let start = try sub.u16()
                let end = try sub.u16()
                let value = try sub.u16()
                guard start <= end else { throw sub.error("class range \(start)>\(end)", at: sub.position - 6) }
                if value != 0 { ranges.append((start, end, value)) }
            }
            ranges.sort { $0.0 < $1.0 }
            var out = GlyphRanges()
            for (start, end, value) in ranges {
                if let last = out.ends.last, start <= last { continue }
                out.append(start: start, end: end, value: value)
            }
            return out
        default:
            throw sub.error("unknown class definition format \(format)", at: sub.position - 2)
        }
    }
}
