// libFuzzer entry point: the cmark-gfm Markdown layer, on any bytes (scripts/fuzz.sh).
// Built with -parse-as-library; SwiftPM links `main` to `<Target>_main`, which hands over to libFuzzer. The first byte picks the options.
import TagflowMarkdown

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let flags = bytes.first ?? 0
    let options = MarkdownOptions(
        allowsRawHTML: flags & 1 != 0, smartPunctuation: flags & 2 != 0, hardBreaks: flags & 4 != 0,
        embedLanguages: flags & 8 != 0 ? ["chips"] : [], rootPathPrefix: flags & 16 != 0 ? "/blog" : "")
    let text = SourceText.normalizingLineEndings(String(decoding: bytes.dropFirst(), as: UTF8.self))
    let page = MarkdownRenderer(options: options).render(text, firstLine: 3)
    precondition(Set(page.headings.map(\.id)).count == page.headings.count, "heading ids are unique")
    for embed in page.embeds {
        precondition(page.html.contains(embed.placeholder), "every embed has its placeholder")
        precondition(embed.line >= 3, "embed lines are file lines")
    }
    if !options.allowsRawHTML {
        precondition(!page.html.contains("<script"), "raw HTML is dropped in safe mode")
    }
    return 0
}

@_cdecl("FuzzMarkdown_main")
public func fuzzMarkdownMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzMarkdown)
}

/// libFuzzer's driver (`compiler-rt/lib/fuzzer/FuzzerInterface.h`).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
