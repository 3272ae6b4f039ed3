import Testing

@testable import TagflowMetrics

@Suite struct PunctuationTrimTests {
    /// Which characters of `text` are set half width: `^` under each trimmed one.
    func trims(_ text: String) -> String {
        let kinds = text.unicodeScalars.map { PunctuationTrim.kind(of: $0.value) }
        return String(PunctuationTrim.trimmed(kinds).map { $0 ? "^" : "." })
    }

    @Test func adjacentPunctuationIsTrimmedOnTheFacingSide() {
        // A closing mark before a closing or middle mark.
        #expect(trims("、。") == "^.")
        #expect(trims("「はい。」") == "...^.")
        #expect(trims("（注）：") == "..^.")
        // An opening mark after a closing, opening or middle mark or an ideographic space.
        #expect(trims("（上）（下）") == "...^..")
        #expect(trims("」、「") == "^.^")
        #expect(trims("「「") == ".^")
        #expect(trims("：《") == ".^")
        #expect(trims("\u{3000}「") == ".^")
        // Never the first character, never the last, never next to letters or other punctuation.
        #expect(trims("「こんにちは」") == ".......")
        #expect(trims("、。，！？") == "^^...")
        #expect(trims("日本語、中文。") == ".......")
        #expect(trims("a (b) c") == ".......")
        // Proportional brackets and curly quotes count on the outer side; `«` and `»` do not.
        #expect(trims("(「注」)") == ".^.^.")
        #expect(trims("“「") == ".^")
        #expect(trims("」”") == "^.")
        #expect(trims(")（") == "..")
        #expect(trims("«「") == "..")
        #expect(trims("」\u{3000}") == "^.")
        // `·` and `‧` are middle dots; small and halfwidth brackets are proportional ones.
        #expect(trims("」·「") == "^.^")
        #expect(trims("「〝") == ".^")
        #expect(trims("」﹚") == "^.")
        #expect(trims("｢「") == ".^")
    }

    @Test func classesAreTheFullWidthPunctuation() {
        for value: UInt32 in [0x300C, 0x300E, 0x3010, 0x300A, 0x3008, 0xFF08, 0xFF3B, 0xFF5B] {
            #expect(PunctuationTrim.kind(of: value) == .open, "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0x300D, 0x300F, 0x3011, 0x300B, 0x3009, 0xFF09] {
            #expect(PunctuationTrim.kind(of: value) == .close, "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x30FB, 0xFF1A, 0xFF1B] { #expect(PunctuationTrim.kind(of: value) == .middle) }
        for value: UInt32 in [0x28, 0x5B, 0x7B, 0x2018, 0x201C, 0x27E8] {
            #expect(PunctuationTrim.kind(of: value) == .openNarrow, "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x29, 0x5D, 0x7D, 0x2019, 0x201D, 0x27E9] {
            #expect(PunctuationTrim.kind(of: value) == .closeNarrow, "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0x2C, 0xAB, 0xBB, 0x3042, 0x4E2D, 0xFF01, 0xFF1F, 0x2026] {
            #expect(PunctuationTrim.kind(of: value) == .other, "U+\(String(value, radix: 16))")
        }
    }

    @Test(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
    func trimmedPunctuationMeasuresAsChromiumDrawsIt() throws {
        // Chromium 156 at 16 px, DejaVu Sans with Noto Sans CJK (JP) for the CJK characters.
        let stack = FontStack([try SystemFonts.table("dejavu"), try SystemFonts.table("cjk")])
        let widths: [(String, Int)] = [
            ("、。", 1537), ("「はい。」", 4609), ("（上）（下）", 5633), ("读书笔记：《三体》", 8705),
            ("「春」、「夏」、「秋」、「冬」", 12289), ("、。，！？", 4097), ("「こんにちは」", 7169),
        ]
        for (text, width) in widths {
            #expect(stack.measure(text, size: 16).width == width, "\(text)")
        }
    }
}

@Suite struct HalfWidthShapingTests {
    /// A font of five glyphs: f, i, their ligature, a closing bracket with a `halt` adjustment
    /// of half its advance, and an ideographic comma without one.
    func font() -> TableStorage {
        TableStorage(
            unitsPerEm: 1000, ascender: 800, descender: -200, lineGap: 0, bitmapPPEM: 0,
            advances: [500, 300, 300, 550, 1000, 1000], glyphClasses: GlyphRanges(), cmapStarts: [],
            cmapEnds: [], cmapGlyphs: [],
            substitutions: [
                SubstitutionLookup(flag: 0, subtables: [.ligature([1: [Ligature(components: [2], glyph: 3)]])])
            ],
            positionings: [
                PositionLookup(
                    flag: 0, subtables: [.single(coverage: GlyphRanges.make([(4, 0)], counting: true), values: [-500])])
            ],
            kernTable: nil,
            scripts: [
                ScriptLookups(
                    tag: Script.common.tag, substitutions: [0], substitutionFeatures: [FeatureBit.required],
                    positionings: [], usesKernTable: false, halfWidth: [0])
            ])
    }

    @Test func aLigatureBeforeTrimmedPunctuationKeepsItsPlace() {
        let scale = FontScale(font(), size: 1000)
        var shaper = Shaper(font: font(), scriptIndex: 0)
        // f i 」 、 with the bracket (third glyph) trimmed: the ligature makes it the second.
        shaper.glyphs = [1, 2, 4, 5]
        shaper.halfWidthGlyphs = [2]
        let width = shaper.width(features: FeatureBit.alwaysOn, scale: scale)
        #expect(width == 550 + 500 + 1000)
    }
}
