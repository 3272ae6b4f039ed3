internal import TagflowHighlight
internal import TagflowMarkdown

/// Code blocks highlighted at build time (`markdown.highlight`), numbered when `site.yml` or the
/// block's info string asks.
struct HighlightedCodeBlocks: CodeBlockRenderer {
    /// Whether lines are numbered in blocks whose info string does not say (`markdown.line_numbers`).
    let lineNumbers: Bool

    func html(code: String, info: String) -> String {
        CodeHighlighter.shared.html(code: code, info: FenceInfo(info), lineNumbers: lineNumbers)
    }
}
