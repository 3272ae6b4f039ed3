/// A glyph buffer being shaped with one font and one script: the substitutions and pair
/// adjustments a browser applies by default, reduced to what changes advance widths.
struct Shaper {
    let font: TableStorage
    let script: ScriptLookups
    let scriptIndex: Int
    /// Glyph ids.
    var glyphs: [UInt16] = []
    /// Per glyph: 1 when the glyph came from a nonspacing mark; only used, and only filled, when
    /// the font has no GDEF glyph classes.
    var unicodeMarks: [UInt8] = []
    /// Per glyph: the feature bit of its Arabic joining form, or 0; empty outside Arabic text.
    var forms: [UInt8] = []
    /// Glyphs set half width by trimmed CJK punctuation (the script's `halt` lookups apply there).
    var halfWidthGlyphs: [Int] = []
    /// Advance adjustments in font units, per glyph (after positioning).
    var adjustments: [Int32] = []
    /// Lookup applications left before shaping gives up (HarfBuzz's `max_ops`), against hostile fonts.
    var budget = 0

    init(font: TableStorage, scriptIndex: Int) {
        self.font = font
        self.script = font.scripts[scriptIndex]
        self.scriptIndex = scriptIndex
    }

    // MARK: Glyph properties

    /// The GDEF class of a glyph (synthesised from Unicode when the font has no GDEF).
    @inline(__always)
    func glyphClass(at index: Int) -> UInt16 {
        if font.glyphClasses.starts.isEmpty { return index < unicodeMarks.count && unicodeMarks[index] != 0 ? 3 : 1 }
        return font.glyphClasses.classOf(glyphs[index])
    }

    /// Whether the glyph at `index` is a mark (zero advance after positioning).
    @inline(__always)
    func isMark(at index: Int) -> Bool {
        if font.glyphClasses.starts.isEmpty { return index < unicodeMarks.count && unicodeMarks[index] != 0 }
        return font.isMark(glyphs[index])
    }

    /// Whether a lookup with `flag` skips the glyph at `index`.
    @inline(__always)
    func ignores(_ index: Int, flag: UInt16) -> Bool {
        if flag & 0xFF0E == 0 { return false }
        if flag & 0xFF06 == 0 { return isMark(at: index) }
        switch glyphClass(at: index) {
        case 1: return flag & 0x2 != 0
        case 2: return flag & 0x4 != 0
        case 3: return flag & 0x8 != 0 || flag & 0xFF00 != 0
        default: return false
        }
    }

    /// The next glyph after `index` that the lookup does not skip.
    @inline(__always)
    func next(after index: Int, flag: UInt16) -> Int? {
        var position = index + 1
        while position < glyphs.count {
            if !ignores(position, flag: flag) { return position }
            position += 1
        }
        return nil
    }

    /// The previous glyph before `index` that the lookup does not skip.
    @inline(__always)
    func previous(before index: Int, flag: UInt16) -> Int? {
        var position = index - 1
        while position >= 0 {
            if !ignores(position, flag: flag) { return position }
            position -= 1
        }
        return nil
    }

    // MARK: Substitution

    /// The substitution stages of Arabic text in order, each the features it runs: HarfBuzz's
    /// Arabic shaper finishes one stage over the whole run before the next starts.
    static let arabicStages: [UInt8] = [
        FeatureBit.required, FeatureBit.isolated, FeatureBit.final, FeatureBit.medial, FeatureBit.initial,
        FeatureBit.requiredLigatures | FeatureBit.contextual, FeatureBit.ligatures,
    ]
    /// Other scripts run every feature in one stage, lookups in lookup-list order.
    static let singleStage: [UInt8] = [0xFF]

    /// Applies the script's substitution lookups whose features are in `features`; a joining
    /// form's lookups apply only to the glyphs that take that form.
    mutating func substitute(features: UInt8) {
        budget = max(glyphs.count * 64, 16384)
        let stages = script.tag == Script.arabic.tag ? Shaper.arabicStages : Shaper.singleStage
        for stage in stages {
            for (index, lookupIndex) in script.substitutions.enumerated() {
                let mask = script.substitutionFeatures[index] & stage & (features | FeatureBit.forms)
                guard mask != 0 else { continue }
                let lookupIndex = Int(lookupIndex)
                guard lookupIndex < font.substitutions.count else { continue }
                let lookup = font.substitutions[lookupIndex]
                if lookup.subtables.isEmpty { continue }
                var position = 0
                while position < glyphs.count {
                    if !font.mayTrigger(lookupIndex, glyphs[position]) || ignores(position, flag: lookup.flag)
                        || mask & (features | form(at: position)) == 0
                    {
                        position += 1
                        continue
                    }
                    if let end = apply(lookup, at: position, depth: 0) {
                        position = max(end, position + 1)
                    } else {
                        position += 1
                    }
                }
            }
        }
    }

    /// The joining form bit of the glyph at `index` (0 outside Arabic text).
    @inline(__always)
    func form(at index: Int) -> UInt8 {
        index < forms.count ? forms[index] : 0
    }

    /// Applies the first subtable of `lookup` that matches at `position`; returns where the next
    /// match may start, or `nil` when nothing matched.
    mutating func apply(_ lookup: SubstitutionLookup, at position: Int, depth: Int) -> Int? {
        guard budget > 0, position < glyphs.count else { return nil }
        budget -= 1
        let glyph = glyphs[position]
        for subtable in lookup.subtables {
            switch subtable {
            case .single(let map):
                if let replacement = map[glyph] {
                    glyphs[position] = replacement
                    return position + 1
                }
            case .ligature(let map):
                guard let ligatures = map[glyph] else { continue }
                for ligature in ligatures {
                    var matched: [Int] = []
                    var cursor = position
                    var ok = true
                    for component in ligature.components {
                        guard let nextIndex = next(after: cursor, flag: lookup.flag), glyphs[nextIndex] == component
                        else {
                            ok = false
                            break
                        }
                        matched.append(nextIndex)
                        cursor = nextIndex
                    }
                    guard ok else { continue }
                    glyphs[position] = ligature.glyph
                    for index in matched.reversed() {
                        glyphs.remove(at: index)
                        if index < unicodeMarks.count { unicodeMarks.remove(at: index) }
                        if index < forms.count { forms.remove(at: index) }
                        if !halfWidthGlyphs.isEmpty {
                            halfWidthGlyphs = halfWidthGlyphs.compactMap {
                                $0 == index ? nil : $0 > index ? $0 - 1 : $0
                            }
                        }
                    }
                    return position + 1
                }
            case .contextGlyphs, .contextClasses, .contextCoverages:
                if let match = matchContext(subtable, at: position, flag: lookup.flag) {
                    return applyRecords(match.records, inputPositions: match.positions, depth: depth)
                }
            }
        }
        return nil
    }

    // MARK: Context matching (GSUB types 5 and 6, GPOS types 7 and 8)

    /// The first rule of a contextual subtable that matches at `position`: its lookup records and
    /// the positions of its input glyphs; `nil` when none matches (or the subtable is not contextual).
    func matchContext(_ subtable: SubstitutionSubtable, at position: Int, flag: UInt16) -> (
        records: [UInt16], positions: [Int]
    )? {
        let glyph = glyphs[position]
        switch subtable {
        case .single, .ligature:
            return nil
        case .contextGlyphs(let coverage, let ruleSets):
            guard let coverageIndex = coverage.value(glyph), Int(coverageIndex) < ruleSets.count else { return nil }
            for rule in ruleSets[Int(coverageIndex)] {
                if let positions = matchRule(
                    rule, at: position, flag: flag,
                    matchBacktrack: { $0 == $1 }, matchInput: { $0 == $1 }, matchLookahead: { $0 == $1 })
                {
                    return (rule.records, positions)
                }
            }
            return nil
        case .contextClasses(let coverage, let backtrack, let input, let lookahead, let ruleSets):
            guard coverage.value(glyph) != nil else { return nil }
            let inputClass = Int(input.classOf(glyph))
            guard inputClass < ruleSets.count else { return nil }
            for rule in ruleSets[inputClass] {
                if let positions = matchRule(
                    rule, at: position, flag: flag,
                    matchBacktrack: { backtrack.classOf($0) == $1 }, matchInput: { input.classOf($0) == $1 },
                    matchLookahead: { lookahead.classOf($0) == $1 })
                {
                    return (rule.records, positions)
                }
            }
            return nil
        case .contextCoverages(let backtrack, let input, let lookahead, let records):
            guard let first = input.first, first.value(glyph) != nil else { return nil }
            var inputPositions = [position]
            var cursor = position
            for coverage in input.dropFirst() {
                guard let nextIndex = next(after: cursor, flag: flag), coverage.value(glyphs[nextIndex]) != nil
                else { return nil }
                inputPositions.append(nextIndex)
                cursor = nextIndex
            }
            var back = position
            for coverage in backtrack {
                guard let previousIndex = previous(before: back, flag: flag),
                    coverage.value(glyphs[previousIndex]) != nil
                else { return nil }
                back = previousIndex
            }
            var ahead = cursor
            for coverage in lookahead {
                guard let nextIndex = next(after: ahead, flag: flag), coverage.value(glyphs[nextIndex]) != nil
                else { return nil }
                ahead = nextIndex
            }
            return (records, inputPositions)
        }
    }

    /// The input positions of `rule` matched at `position`, or `nil`.
    private func matchRule(
        _ rule: ContextRule, at position: Int, flag: UInt16,
        matchBacktrack: (UInt16, UInt16) -> Bool, matchInput: (UInt16, UInt16) -> Bool,
        matchLookahead: (UInt16, UInt16) -> Bool
    ) -> [Int]? {
        var inputPositions = [position]
        var cursor = position
        for value in rule.input {
            guard let nextIndex = next(after: cursor, flag: flag), matchInput(glyphs[nextIndex], value) else {
                return nil
            }
            inputPositions.append(nextIndex)
            cursor = nextIndex
        }
        var back = position
        for value in rule.backtrack {
            guard let previousIndex = previous(before: back, flag: flag), matchBacktrack(glyphs[previousIndex], value)
            else { return nil }
            back = previousIndex
        }
        var ahead = cursor
        for value in rule.lookahead {
            guard let nextIndex = next(after: ahead, flag: flag), matchLookahead(glyphs[nextIndex], value) else {
                return nil
            }
            ahead = nextIndex
        }
        return inputPositions
    }

    /// Applies nested lookups at input positions; returns the position after the input.
    private mutating func applyRecords(_ records: [UInt16], inputPositions: [Int], depth: Int) -> Int {
        var positions = inputPositions
        let countBefore = glyphs.count
        if depth < LayoutTable.maxDepth {
            var index = 0
            while index + 1 < records.count {
                let sequenceIndex = Int(records[index])
                let lookupIndex = Int(records[index + 1])
                index += 2
                guard sequenceIndex < positions.count, lookupIndex < font.substitutions.count else { continue }
                let target = positions[sequenceIndex]
                guard target < glyphs.count else { continue }
                let before = glyphs.count
                _ = apply(font.substitutions[lookupIndex], at: target, depth: depth + 1)
                let removed = before - glyphs.count
                if removed != 0 {
                    // A nested ligature removed glyphs: later input positions move back.
                    for later in positions.indices where later > sequenceIndex {
                        positions[later] = max(target + 1, positions[later] - removed)
                    }
                }
            }
        }
        let last = (inputPositions.last ?? 0) - (countBefore - glyphs.count)
        return max(last + 1, 1)
    }

    // MARK: Positioning

    /// Applies the script's pair and single adjustments (GPOS `kern`, or the `kern` table).
    mutating func position() {
        adjustments = [Int32](repeating: 0, count: glyphs.count)
        budget = max(glyphs.count * 64, 16384)
        let matrix = font.pairMatrices[scriptIndex]
        if !matrix.isEmpty {
            positionWithMatrix(matrix)
            return
        }
        for lookupIndex in script.positionings {
            guard Int(lookupIndex) < font.positionings.count else { continue }
            apply(font.positionings[Int(lookupIndex)])
        }
        if script.usesKernTable, let kern = font.kernTable { apply(kern) }
    }

    /// Applies the script's `halt` lookups to the glyphs of trimmed punctuation.
    private mutating func setHalfWidths() {
        for index in halfWidthGlyphs where index < glyphs.count {
            for lookupIndex in script.halfWidth where Int(lookupIndex) < font.positionings.count {
                _ = applyPosition(font.positionings[Int(lookupIndex)], at: index, depth: 0)
            }
        }
    }

    /// Pair adjustments when every subtable adjusts only the first glyph: pairs of printable ASCII
    /// glyphs take their precomputed sum; other glyphs go through each lookup.
    private mutating func positionWithMatrix(_ matrix: [Int32]) {
        let count = glyphs.count
        let slots = font.glyphSlots
        // The lookups, gathered only when a pair is not in the matrix.
        var gathered: [PositionLookup]? = nil
        for position in 0..<count {
            if position + 1 < count {
                let first = Int(glyphs[position])
                let second = Int(glyphs[position + 1])
                if first < slots.count && second < slots.count {
                    let slot1 = Int(slots[first])
                    let slot2 = Int(slots[second])
                    if slot1 != 255 && slot2 != 255 {
                        adjustments[position] &+= matrix[slot1 * 95 + slot2]
                        continue
                    }
                }
            }
            let lookups: [PositionLookup]
            if let gathered {
                lookups = gathered
            } else {
                var list: [PositionLookup] = []
                for index in script.positionings where Int(index) < font.positionings.count {
                    list.append(font.positionings[Int(index)])
                }
                if script.usesKernTable, let kern = font.kernTable { list.append(kern) }
                gathered = list
                lookups = list
            }
            for lookup in lookups where !ignores(position, flag: lookup.flag) {
                guard let secondIndex = next(after: position, flag: lookup.flag) else { continue }
                let first = glyphs[position]
                let second = glyphs[secondIndex]
                subtables: for subtable in lookup.subtables {
                    switch subtable {
                    case .single, .contextual: break subtables
                    case .pairs(let coverage, let pairs, _):
                        guard coverage.value(first) != nil, let value = pairs[UInt32(first) << 16 | UInt32(second)]
                        else { continue }
                        adjustments[position] &+= Int32(value.first)
                        break subtables
                    case .classes(let coverage, let firstClasses, let secondClasses, let classCount, let values, _):
                        guard coverage.value(first) != nil else { continue }
                        let index = Int(firstClasses.classOf(first)) * classCount + Int(secondClasses.classOf(second))
                        guard index < values.count else { continue }
                        adjustments[position] &+= Int32(values[index].first)
                        break subtables
                    }
                }
            }
        }
    }

    private mutating func apply(_ lookup: PositionLookup) {
        if lookup.subtables.isEmpty { return }
        var position = 0
        while position < glyphs.count {
            if !ignores(position, flag: lookup.flag), let next = applyPosition(lookup, at: position, depth: 0) {
                position = max(next, position + 1)
            } else {
                position += 1
            }
        }
    }

    /// Applies the first subtable of `lookup` that matches at `position`; returns where the next
    /// match may start, or `nil` when nothing matched.
    private mutating func applyPosition(_ lookup: PositionLookup, at position: Int, depth: Int) -> Int? {
        guard budget > 0, position < glyphs.count else { return nil }
        budget -= 1
        let first = glyphs[position]
        let second = next(after: position, flag: lookup.flag)
        for subtable in lookup.subtables {
            switch subtable {
            case .single(let coverage, let values):
                guard let index = coverage.value(first) else { continue }
                let value = values.count == 1 ? values[0] : (Int(index) < values.count ? values[Int(index)] : 0)
                adjustments[position] &+= Int32(value)
                return position + 1
            case .pairs(let coverage, let pairs, let hasSecond):
                guard let secondIndex = second, coverage.value(first) != nil else { continue }
                guard let value = pairs[UInt32(first) << 16 | UInt32(glyphs[secondIndex])] else { continue }
                adjustments[position] &+= Int32(value.first)
                adjustments[secondIndex] &+= Int32(value.second)
                return hasSecond ? secondIndex + 1 : secondIndex
            case .classes(let coverage, let firstClasses, let secondClasses, let count, let values, let hasSecond):
                guard let secondIndex = second, coverage.value(first) != nil else { continue }
                let index = Int(firstClasses.classOf(first)) * count + Int(secondClasses.classOf(glyphs[secondIndex]))
                guard index < values.count else { continue }
                let value = values[index]
                adjustments[position] &+= Int32(value.first)
                adjustments[secondIndex] &+= Int32(value.second)
                return hasSecond ? secondIndex + 1 : secondIndex
            case .contextual(let context):
                guard let match = matchContext(context, at: position, flag: lookup.flag) else { continue }
                if depth < LayoutTable.maxDepth {
                    var index = 0
                    while index + 1 < match.records.count {
                        let sequenceIndex = Int(match.records[index])
                        let lookupIndex = Int(match.records[index + 1])
                        index += 2
                        guard sequenceIndex < match.positions.count, lookupIndex < font.positionings.count else {
                            continue
                        }
                        _ = applyPosition(
                            font.positionings[lookupIndex], at: match.positions[sequenceIndex], depth: depth + 1)
                    }
                }
                return (match.positions.last ?? position) + 1
            }
        }
        return nil
    }

    /// Shapes the buffer and returns its width in px: advances plus adjustments, marks zeroed,
    /// summed in single precision glyph by glyph as Chromium sums a run.
    mutating func width(features: UInt8, scale: FontScale) -> Float {
        substitute(features: features)
        position()
        if !halfWidthGlyphs.isEmpty { setHalfWidths() }
        var total: Float = 0
        for index in glyphs.indices where !isMark(at: index) {
            let units = scale.advance(font.advance(glyphs[index])) + scale.adjustment(adjustments[index])
            total += Float(units) / 65536
        }
        return total
    }
}
