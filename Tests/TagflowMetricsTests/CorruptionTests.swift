import Foundation
import Testing

@testable import TagflowMetrics

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Truncated and corrupted fonts and tables must throw or load, never crash or hang; what loads
/// must measure without crashing.
@Suite(.enabled(if: SystemFonts.enabled, "needs Debian's fonts"))
struct CorruptionTests {
    static let samples = ["AVAWAY office", "ffi 3x4", "Привет", "e\u{301}"]

    func exercise(_ bytes: [UInt8], faceIndex: Int = 0) {
        guard let table = try? MetricsTable(tableOrFont: bytes, faceIndex: faceIndex) else { return }
        let stack = FontStack([table])
        for sample in Self.samples { _ = stack.measure(sample, size: 13) }
    }

    @Test(arguments: ["liberation", "dejavu", "inter"])
    func truncatedFontsThrow(_ name: String) throws {
        let bytes = try SystemFonts.bytes(name)
        var generator = SeededGenerator(state: 1)
        var cuts = [0, 1, 4, 11, 12, 100, bytes.count / 2, bytes.count - 1]
        for _ in 0..<40 { cuts.append(Int.random(in: 0..<bytes.count, using: &generator)) }
        for cut in cuts {
            exercise(Array(bytes[0..<cut]))
        }
        #expect(throws: FontError.self) { try MetricsTable(fontFile: Array(bytes[0..<100])) }
    }

    @Test(arguments: ["liberation", "inter"])
    func flippedBytesNeverCrash(_ name: String) throws {
        let original = try SystemFonts.bytes(name)
        let parser = try FontParser(original, faceIndex: 0)
        // Aim the damage at the tables that are parsed.
        let targets = ["head", "hhea", "maxp", "hmtx", "cmap", "GSUB", "GPOS", "GDEF", "kern", "OS/2"]
            .compactMap { parser.tables[$0] }
            .filter { $0.length > 0 }
        var generator = SeededGenerator(state: 42)
        for _ in 0..<80 {
            var bytes = original
            let table = targets[Int.random(in: 0..<targets.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let at = table.offset + Int.random(in: 0..<min(table.length, 4096), using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            exercise(bytes)
        }
    }

    @Test func corruptedTablesThrow() throws {
        let original = try SystemFonts.table("liberation").encoded()
        var generator = SeededGenerator(state: 7)
        for cut in stride(from: 0, to: original.count, by: max(1, original.count / 97)) {
            #expect(throws: FontError.self) { try MetricsTable(contentsOf: Array(original[0..<cut])) }
        }
        for _ in 0..<120 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            exercise(bytes)
        }
    }

    @Test func hostileCountsDoNotHang() throws {
        // A cmap format 4 subtable whose segments all span the whole BMP.
        var font = ByteWriter()
        font.u32(0x0001_0000)
        font.u16(1)
        font.u16(0)
        font.u16(0)
        font.u16(0)
        font.u32(FontParser.tagValue("cmap"))
        font.u32(0)
        font.u32(28)
        font.u32(0)
        var cmap = ByteWriter()
        cmap.u16(0)
        cmap.u16(1)
        cmap.u16(3)
        cmap.u16(1)
        cmap.u32(12)
        let segments = 4000
        cmap.u16(4)
        cmap.u16(UInt16(16 + segments * 8))
        cmap.u16(0)
        cmap.u16(UInt16(segments * 2))
        cmap.u16(0)
        cmap.u16(0)
        cmap.u16(0)
        for _ in 0..<segments { cmap.u16(0xFFFE) }
        cmap.u16(0)
        for _ in 0..<segments { cmap.u16(0) }
        for _ in 0..<segments { cmap.u16(1) }
        for _ in 0..<segments { cmap.u16(0) }
        var bytes = font.bytes
        bytes[20...23] = [0, 0, 0, 28]
        let length = UInt32(cmap.bytes.count)
        bytes[24...27] = [
            UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
        ]
        bytes += cmap.bytes
        let start = ContinuousClock.now
        #expect(throws: FontError.self) { try MetricsTable(fontFile: bytes) }  // no `head`
        let parser = try FontParser(bytes, faceIndex: 0)
        let error = try #require(throws: FontError.self) { try parser.readCharacterMap(numGlyphs: 10) }
        #expect(error.tag == "cmap")
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
