import Testing

@testable import TagflowMetrics

@Suite(.enabled(if: SystemFonts.enabled, "needs Debian's DejaVu, Liberation, Inter and Noto fonts"))
struct FontParserTests {
    @Test func readsTrueTypeHeaders() throws {
        let table = try SystemFonts.table("liberation")
        #expect(table.unitsPerEm == 2048)
        #expect(table.ascender == 1854)
        #expect(table.descender == -434)
        #expect(table.lineGap == 67)
        #expect(table.glyphCount == 2620)
        #expect(table.covers("A"))
        #expect(table.covers("Ж"))
        #expect(!table.covers("漢"))
        #expect(table.storage.kernTable != nil)
    }

    @Test func readsOpenTypeCFFAndCollections() throws {
        let inter = try SystemFonts.table("inter")
        #expect(inter.unitsPerEm == 2816)
        #expect(inter.ascender == 2728)
        let cjkBytes = try SystemFonts.bytes("cjk")
        #expect(try MetricsTable.faceCount(ofFontFile: cjkBytes) == 10)
        let korean = try MetricsTable(fontFile: cjkBytes, faceIndex: 1)
        #expect(korean.unitsPerEm == 1000)
        #expect(korean.covers("한"))
        #expect(throws: FontError.self) { try MetricsTable(fontFile: cjkBytes, faceIndex: 10) }
    }

    @Test func readsBitmapEmojiFonts() throws {
        let emoji = try SystemFonts.table("emoji")
        #expect(emoji.isBitmapFont)
        #expect(emoji.storage.bitmapPPEM == 109)
        #expect(emoji.covers("👍"))
    }

    @Test func findsDefaultLookupsPerScript() throws {
        let dejavu = try SystemFonts.table("dejavu").storage
        let latin = dejavu.scripts[try #require(dejavu.scriptIndex(for: Script.latin.tag))]
        #expect(latin.substitutions.contains(18))  // liga
        #expect(latin.positionings == [14, 15])  // kern
        #expect(!latin.usesKernTable)
        let liberation = try SystemFonts.table("liberation").storage
        let common = liberation.scripts[try #require(liberation.scriptIndex(for: Script.common.tag))]
        #expect(common.positionings.isEmpty)
        #expect(common.usesKernTable)  // DFLT has no GPOS kern: HarfBuzz falls back to `kern`
    }

    @Test func compactTablesRoundTrip() throws {
        for name in ["dejavu", "liberation", "inter", "emoji", "arabic"] {
            let table = try SystemFonts.table(name)
            let bytes = table.encoded()
            let loaded = try MetricsTable(contentsOf: bytes)
            #expect(loaded.encoded() == bytes, "\(name)")
            let stack = FontStack([loaded])
            let original = FontStack([table])
            for text in ["AVAWAY office", "Привет", "3x4 12:30", "naïve café", "مرحبا بالعالم", "سلام"] {
                #expect(stack.measure(text, size: 15) == original.measure(text, size: 15), "\(name): \(text)")
            }
        }
    }

    @Test func rejectsNonFonts() {
        #expect(throws: FontError.self) { try MetricsTable(fontFile: []) }
        #expect(throws: FontError.self) { try MetricsTable(fontFile: Array("hello world, not a font".utf8)) }
        #expect(throws: FontError.self) { try MetricsTable(contentsOf: Array("TFMT".utf8)) }
        let woff = Array("wOFF".utf8) + [UInt8](repeating: 0, count: 40)
        let error = try? #require(throws: FontError.self) { try MetricsTable(fontFile: woff) }
        #expect(error?.reason.contains("WOFF") == true)
    }
}
