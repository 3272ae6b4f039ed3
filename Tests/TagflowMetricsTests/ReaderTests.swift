import Testing

@testable import TagflowMetrics

@Suite struct ReaderTests {
    @Test func readsBigEndianValues() throws {
        var reader = try Reader([0x12, 0x34, 0xFF, 0xFE, 0x00, 0x01, 0x02, 0x03, 0x41], tag: "test")
        #expect(try reader.u16() == 0x1234)
        #expect(try reader.i16() == -2)
        #expect(try reader.u32() == 0x0001_0203)
        #expect(try reader.u8() == 0x41)
        #expect(throws: FontError.self) { try reader.u8() }
    }

    @Test func errorsNameTheTableAndOffset() throws {
        var reader = try Reader([UInt8](repeating: 0, count: 10), tag: "cmap", offset: 4, length: 4)
        try reader.skip(3)
        let error = try #require(throws: FontError.self) { try reader.u16() }
        #expect(error.tag == "cmap")
        #expect(error.offset == 7)
        #expect(error.description == "font table 'cmap' at byte 7: truncated: 2 bytes needed")
    }

    @Test func rejectsTablesOutsideTheFile() {
        #expect(throws: FontError.self) { try Reader([1, 2, 3], tag: "head", offset: 2, length: 5) }
        #expect(throws: FontError.self) { try Reader([1, 2, 3], tag: "head", offset: -1, length: 1) }
    }

    @Test func subtablesCountFromTheirOwnStart() throws {
        var reader = try Reader([0, 0, 0, 0, 0xAB, 0xCD], tag: "GSUB")
        var sub = try reader.subtable(at: 4)
        #expect(try sub.u16() == 0xABCD)
        #expect(throws: FontError.self) { try reader.subtable(at: 7) }
        try reader.skip(6)
        #expect(throws: FontError.self) { try reader.skip(1) }
    }

    @Test func base64RoundTrip() {
        #expect(BuiltInTables.decodeBase64("VEZNVA==") == [0x54, 0x46, 0x4D, 0x54])
        #expect(BuiltInTables.decodeBase64("AAEC\n/w==") == [0, 1, 2, 0xFF])
    }
}
