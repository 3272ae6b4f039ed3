import ArgumentParser
import Foundation
import TagflowCore
import TagflowMetrics

/// `tagflow measure`: measures strings as Chromium draws them.
struct MeasureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure text widths and line heights with a font's metrics.",
        discussion: """
            Reads a JSON array of strings, or one string per line, from INPUT or standard input, \
            and prints a JSON array of {"text", "width", "height"} in px: the width Chromium \
            gives the text in one line (rounded up to 1/64 px) and the `line-height: normal` \
            height. Without --font, the built-in Liberation Sans table with CJK and emoji \
            fallbacks is used. A font may be a metrics table (from `tagflow metrics`) or a font \
            file; PATH#N picks face N of a .ttc collection.
            """
    )

    @Option(help: "The primary font: a metrics table or a font file (default: built-in Liberation Sans).")
    var font: String?

    @Option(help: "A fallback font, as named after the primary font in CSS (repeatable).")
    var fallback: [String] = []

    @Option(help: "The font size in px.")
    var size: Double

    @Option(
        name: .customLong("letter-spacing"), parsing: .unconditional,
        help: "CSS letter-spacing in px (may be negative).")
    var letterSpacing: Double = 0

    @Argument(help: "A file with the strings (default: standard input).", completion: .file())
    var input: String?

    func validate() throws {
        guard size.isFinite, size > 0, size <= 10_000 else {
            throw ValidationError("--size must be a number of px above 0, not \(size)")
        }
        guard letterSpacing.isFinite else { throw ValidationError("--letter-spacing must be a number of px") }
    }

    func run() async throws {
        let stack = try makeStack()
        let text: String
        if let input {
            text = String(decoding: try MetricsFiles.read(input), as: UTF8.self)
        } else {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        let strings = try MeasureCommand.parseStrings(text, source: input ?? "<stdin>")
        print(MeasureCommand.report(strings, stack: stack, size: size, letterSpacing: letterSpacing))
    }

    func makeStack() throws -> FontStack {
        var tables: [MetricsTable] = []
        if let font {
            tables.append(try MetricsFiles.loadTableOrFont(font))
        } else {
            tables = FontStack.default.tables
        }
        for name in fallback { tables.append(try MetricsFiles.loadTableOrFont(name)) }
        return FontStack(tables)
    }

    /// The strings of a JSON array, or the lines of plain text (without a final empty line).
    static func parseStrings(_ text: String, source: String) throws -> [String] {
        if text.first(where: { !$0.isWhitespace }) == "[" {
            do {
                return try JSONDecoder().decode([String].self, from: Data(text.utf8))
            } catch {
                throw TagflowError(
                    location: SourceLocation(path: source), step: "measure",
                    message: "input starts with '[' but is not a JSON array of strings", underlying: error)
            }
        }
        // "\r\n" is one Character, and a newline.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The JSON report: one `{"text", "width", "height"}` object per string, widths and heights in px.
    static func report(_ strings: [String], stack: FontStack, size: Double, letterSpacing: Double) -> String {
        var out = "["
        for (index, string) in strings.enumerated() {
            let measured = stack.measure(string, size: size, letterSpacing: letterSpacing)
            if index > 0 { out += ",\n " }
            out += "{\"text\": \(jsonString(string)), \"width\": \(measured.widthInPixels), "
            out += "\"height\": \(measured.heightInPixels)}"
        }
        return out + "]"
    }

    static func jsonString(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
