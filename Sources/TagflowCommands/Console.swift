import Foundation
import TagflowCore

/// Writes messages for people: diagnostics to standard error like a compiler, in colour on a
/// terminal unless `NO_COLOR` is set.
enum Console {
    /// `Left out: 2 drafts (--drafts shows them), 1 scheduled post (--future shows it).`, or `nil`
    /// when the build left nothing out.
    static func heldBackLine(_ heldBack: HeldBackPosts) -> String? {
        var parts: [String] = []
        if heldBack.drafts > 0 {
            parts.append(
                heldBack.drafts == 1
                    ? "1 draft (--drafts shows it)" : "\(heldBack.drafts) drafts (--drafts shows them)")
        }
        if heldBack.scheduled > 0 {
            parts.append(
                heldBack.scheduled == 1
                    ? "1 scheduled post (--future shows it)"
                    : "\(heldBack.scheduled) scheduled posts (--future shows them)")
        }
        return parts.isEmpty ? nil : "Left out: " + parts.joined(separator: ", ") + "."
    }

    static let useColor: Bool = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes text to standard error as it is (no newline), for a line redrawn in place.
    static func standardErrorRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes a line to standard output at once (not buffered), so that a script or test reading it sees it.
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ message: String) {
        standardError(paint("error:", "1;31") + " " + message)
    }

    static func printDiagnostics(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            var text = diagnostic.description
            if useColor {
                let word = diagnostic.severity.rawValue + ":"
                text = text.replacingOccurrences(
                    of: word, with: paint(word, diagnostic.severity == .error ? "1;31" : "1;33"), options: [],
                    range: text.range(of: word))
            }
            standardError(text)
        }
    }

    private static func paint(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
