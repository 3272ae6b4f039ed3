// libFuzzer entry point: `tagflow enhance` on one page (scripts/fuzz.sh). Any bytes must not
// crash the scanner or the list reader, and enhancing a page twice must change nothing the
// second time (a run recognises its own blocks).
// Built with -parse-as-library; SwiftPM links `main` to `<Target>_main`, which hands over to libFuzzer.
import TagflowChips
import TagflowEnhance

let enhancer = PageEnhancer(renderer: ChipRenderer(), rules: ListPresets.names.flatMap { ListPresets.all[$0] ?? [] })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnhance(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard String(validating: bytes, as: UTF8.self) != nil else { return 0 }
    let first = enhancer.enhance(bytes, stylesheetURL: "assets/tagflow-chips.css")
    for warning in first.warnings { precondition(warning.line >= 1, "a warning outside the page") }
    if let enhanced = first.bytes {
        precondition(first.replaced > 0, "bytes changed without a list replaced")
        let second = enhancer.enhance(enhanced, stylesheetURL: "assets/tagflow-chips.css")
        precondition(second.bytes == nil, "a second run changed the page")
    }
    return 0
}

@_cdecl("FuzzEnhance_main")
public func fuzzEnhanceMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzEnhance)
}

/// libFuzzer's driver (`compiler-rt/lib/fuzzer/FuzzerInterface.h`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
