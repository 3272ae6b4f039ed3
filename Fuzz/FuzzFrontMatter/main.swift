// libFuzzer entry point: front matter split + YAML or TOML reading, on any bytes (scripts/fuzz.sh);
// the fast reader for simple front matter must agree with Yams whenever it accepts.
// Built with -parse-as-library; SwiftPM links `main` to `<Target>_main`, which hands over to libFuzzer.
@_spi(Fuzzing) import TagflowMarkdown

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrontMatter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let text = SourceText.decode(bytes) else { return 0 }
    let split: FrontMatterSplit
    do {
        split = try FrontMatterSplit(splitting: text)
    } catch {
        precondition(error.line >= 1 && error.column >= 1, "error outside the file: \(error)")
        return 0
    }
    precondition(split.bodyFirstLine >= 1 && split.frontMatterFirstLine >= 1)
    precondition(text.hasSuffix(split.body), "the body is the end of the file")
    if let frontMatter = split.frontMatter {
        precondition(
            text.utf8.count >= frontMatter.utf8.count + split.body.utf8.count + 6, "the fences are kept out")
        if split.format == .yaml,
            let simple = SimpleYAML.mapping(from: frontMatter, firstLine: split.frontMatterFirstLine)
        {
            let yams = try? YAMLReader.yamsMapping(from: frontMatter, firstLine: split.frontMatterFirstLine)
            precondition(simple == yams, "SimpleYAML and Yams disagree")
        }
        do {
            let mapping = try split.mapping()
            let lines = text.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            for entry in mapping.entries {
                precondition(
                    entry.line >= split.frontMatterFirstLine && entry.line <= lines, "key line outside the file")
            }
        } catch {
            precondition(error.line >= 1 && error.column >= 1, "error outside the file: \(error)")
        }
    }
    return 0
}

@_cdecl("FuzzFrontMatter_main")
public func fuzzFrontMatterMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzFrontMatter)
}

/// libFuzzer's driver (`compiler-rt/lib/fuzzer/FuzzerInterface.h`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
