/// A sorted list of glyph ranges with a value each: an OpenType coverage table (value = coverage
/// index) or class definition (value = class).
struct GlyphRanges: Sendable, Hashable {
    /// Range starts, sorted.
    var starts: [UInt16] = []
    /// Range ends (inclusive), parallel to `starts`.
    var ends: [UInt16] = []
    /// The value of each range's first glyph; a coverage range counts up from it.
    var values: [UInt16] = []
    /// Whether values count up within a range (coverage) or are constant (class definition).
    var counting: Bool = false

    /// The value for `glyph`, or `nil` when no range holds it.
    @inline(__always)
    func value(_ glyph: UInt16) -> UInt16? {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) >> 1
            if ends[mid] < glyph {
                low = mid + 1
            } else {
                high = mid
            }
        }
        guard low < starts.count, starts[low] <= glyph else { return nil }
        return counting ? values[low] &+ (glyph &- starts[low]) : values[low]
    }

    /// The class of `glyph`: its value, or 0 when absent.
    @inline(__always)
    func classOf(_ glyph: UInt16) -> UInt16 { value(glyph) ?? 0 }

    /// Adds one range; ranges must be added in increasing order.
    mutating func append(start: UInt16, end: UInt16, value: UInt16) {
        starts.append(start)
        ends.append(end)
        values.append(value)
    }

    /// Makes ranges from (glyph, value) pairs, merging runs.
    static func make(_ pairs: [(UInt16, UInt16)], counting: Bool) -> GlyphRanges {
        var out = GlyphRanges()
        out.counting = counting
        for (glyph, value) in pairs.sorted(by: { $0.0 < $1.0 }) {
            if let last = out.ends.last, let lastValue = out.values.last, let lastStart = out.starts.last,
                last &+ 1 == glyph, last != UInt16.max
            {
                let expected = counting ? lastValue &+ (glyph &- lastStart) : lastValue
                if expected == value {
                    out.ends[out.ends.count - 1] = glyph
                    continue
                }
            }
            if let last = out.ends.last, glyph <= last { continue }
            out.append(start: glyph, end: glyph, value: value)
        }
        return out
    }
}

/// Horizontal advance adjustments of a glyph pair, in font units.
struct PairValue: Sendable, Hashable {
    /// Added to the first glyph's advance.
    var first: Int16
    /// Added to the second glyph's advance.
    var second: Int16
}

/// One subtable of a positioning lookup (GPOS types 1, 2, 7 and 8, or the `kern` table).
enum PairSubtable: Sendable, Hashable {
    /// Format 1: explicit pairs, keyed by `first << 16 | second`; `coverage` lists the first glyphs.
    case pairs(coverage: GlyphRanges, pairs: [UInt32: PairValue], hasSecond: Bool)
    /// Format 2: a class matrix.
    case classes(
        coverage: GlyphRanges, first: GlyphRanges, second: GlyphRanges, secondCount: Int, values: [PairValue],
        hasSecond: Bool)
    /// GPOS type 1: one adjustment per covered glyph (`values` indexed by coverage index, or one for all).
    case single(coverage: GlyphRanges, values: [Int16])
    /// GPOS types 7 and 8: a context (one of the substitution context cases, which share its shape)
    /// whose records name positioning lookups.
    case contextual(SubstitutionSubtable)
}

/// A positioning lookup (pair or single adjustments) with its lookup flag.
struct PositionLookup: Sendable, Hashable {
    var flag: UInt16
    var subtables: [PairSubtable]
}

/// One rule of a contextual or chaining substitution (formats 1 and 2).
struct ContextRule: Sendable, Hashable {
    /// Glyphs or classes before the input, nearest first.
    var backtrack: [UInt16]
    /// Glyphs or classes of the input after the first one.
    var input: [UInt16]
    /// Glyphs or classes after the input.
    var lookahead: [UInt16]
    /// (sequence index, lookup index) pairs.
    var records: [UInt16]
}

/// A ligature: the components after the first glyph and the glyph that replaces them all.
struct Ligature: Sendable, Hashable {
    var components: [UInt16]
    var glyph: UInt16
}

/// One subtable of a substitution lookup.
enum SubstitutionSubtable: Sendable, Hashable {
    /// Type 1: one glyph for another.
    case single([UInt16: UInt16])
    /// Type 4: ligatures by first glyph, in order of preference.
    case ligature([UInt16: [Ligature]])
    /// Types 5 and 6, format 1: rules over glyph ids, chosen by the coverage index of the first glyph.
    case contextGlyphs(coverage: GlyphRanges, ruleSets: [[ContextRule]])
    /// Types 5 and 6, format 2: rules over classes, chosen by the input class of the first glyph.
    case contextClasses(
        coverage: GlyphRanges, backtrack: GlyphRanges, input: GlyphRanges, lookahead: GlyphRanges,
        ruleSets: [[ContextRule]])
    /// Types 5 and 6, format 3: one rule over coverage tables.
    case contextCoverages(
        backtrack: [GlyphRanges], input: [GlyphRanges], lookahead: [GlyphRanges], records: [UInt16])
}

/// A substitution lookup with its flag.
struct SubstitutionLookup: Sendable, Hashable {
    var flag: UInt16
    var subtables: [SubstitutionSubtable]
}

/// Feature bits a substitution lookup can be switched on by.
enum FeatureBit {
    /// `ccmp`, `locl`: always on.
    static let required: UInt8 = 1
    /// `liga`, `clig`: off with letter-spacing.
    static let ligatures: UInt8 = 2
    /// `calt`: off with letter-spacing.
    static let contextual: UInt8 = 4
    /// `isol`: Arabic letters that join neither side.
    static let isolated: UInt8 = 8
    /// `fina`: Arabic letters joined to the letter before only.
    static let final: UInt8 = 16
    /// `medi`: Arabic letters joined on both sides.
    static let medial: UInt8 = 32
    /// `init`: Arabic letters joined to the letter after only.
    static let initial: UInt8 = 64
    /// `rlig`: always on; a stage of its own in Arabic text, after the joining forms.
    static let requiredLigatures: UInt8 = 128

    /// The four joining forms: each applies only to the glyphs that take that form.
    static let forms: UInt8 = isolated | final | medial | initial
    /// What is on whatever the letter-spacing.
    static let alwaysOn: UInt8 = required | requiredLigatures
}

/// The lookups that apply to one script.
struct ScriptLookups: Sendable, Hashable {
    /// The OpenType script tag this entry answers for (`DFLT`, `latn`, ...).
    var tag: UInt32
    /// Substitution lookup indices, in order, with their feature bits.
    var substitutions: [UInt16]
    /// Feature bits for each entry of `substitutions`.
    var substitutionFeatures: [UInt8]
    /// Positioning lookup indices, in order.
    var positionings: [UInt16]
    /// Whether the `kern` table applies (no GPOS `kern` feature for this script).
    var usesKernTable: Bool
    /// The GPOS `halt` lookups (half-width CJK punctuation), which Chromium applies only to the
    /// punctuation it trims (`text-spacing-trim`).
    var halfWidth: [UInt16] = []
}
