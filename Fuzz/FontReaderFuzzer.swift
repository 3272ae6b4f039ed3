// libFuzzer target for the TagflowMetrics font reader and table loader.
// Built by scripts/fuzz.sh together with the library sources (swiftc -sanitize=fuzzer,address).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFontReader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    // The first byte picks the face of a collection; the rest is a font file or a table.
    let face = Int(bytes[0] & 3)
    let data = Array(bytes.dropFirst())
    for table in [try? MetricsTable(tableOrFont: data, faceIndex: face), try? MetricsTable(fontFile: data)] {
        guard let table else { continue }
        let stack = FontStack([table, .cjkFallback, .emojiFallback])
        for text in ["AVAWAY office", "ffi 3x4 12:30", "Привет Αθήνα", "e\u{301} 漢字 👍🏽", "fi fl ff"] {
            _ = stack.measure(text, size: 13)
            _ = stack.measure(text, size: 16, letterSpacing: 1)
        }
        _ = try? MetricsTable(contentsOf: table.encoded())
    }
    return 0
}
