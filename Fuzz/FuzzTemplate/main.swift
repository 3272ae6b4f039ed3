// libFuzzer entry point: a site's template (scripts/fuzz.sh). Compiling any text must not crash
// (deep nesting once overflowed the parser's stack), and every error must name a line of it.
// Built with -parse-as-library; SwiftPM links `main` to `<Target>_main`, which hands over to libFuzzer.
@_spi(Fuzzing) import TagflowCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let lines = text.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
    do {
        _ = try Theme.compile(template: text, named: "post")
    } catch {
        for diagnostic in error.diagnostics where diagnostic.error.location?.path == "templates/post.mustache" {
            if let line = diagnostic.error.location?.line {
                precondition(line >= 1 && line <= lines + 1, "error outside the template: \(diagnostic)")
            }
        }
    }
    return 0
}

@_cdecl("FuzzTemplate_main")
public func fuzzTemplateMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzTemplate)
}

/// libFuzzer's driver (`compiler-rt/lib/fuzzer/FuzzerInterface.h`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
