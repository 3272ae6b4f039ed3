#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bounds on the Markdown one document may hand to cmark-gfm, checked before it is parsed.
///
/// cmark-gfm 0.29.0.gfm.6 has inputs whose parse time or memory grows with the square (or more)
/// of their size (CVE-2023-22486 and its relatives): brackets that never close (`![[]()` over and
/// over), a table row of thousands of `|`, a table of thousands of columns and rows. A parse
/// cannot be interrupted, so a build could hang on one post; these bounds refuse such a document
/// at the line where it goes over, and stay far from what a real post holds.
public enum MarkdownLimits {
    /// Most `[` in one document: the bracket parsing's work grows with the square of unclosed ones.
    public static let maximumBrackets = 20_000
    /// Most `|` on one line: a table row's cells.
    public static let maximumPipesPerLine = 1_000
    /// Most cells in one table (columns of its delimiter row × its rows).
    public static let maximumTableCells = 200_000

    /// A document that goes over a bound: where, and why.
    public struct Problem: Sendable, Hashable {
        /// The file line (1-based) and byte column.
        public var line: Int
        public var column: Int
        public var message: String
        public var hint: String
    }

    /// The first bound `markdown` goes over, or `nil`.
    ///
    /// - Parameters:
    ///   - markdown: The document's Markdown.
    ///   - firstLine: The file line on which it starts.
    /// - Returns: The problem, at its file line.
    /// - Complexity: O(*n*) in the length of the text.
    public static func problem(in markdown: String, firstLine: Int = 1) -> Problem? {
        var text = markdown
        return text.withUTF8 { problem(in: $0, firstLine: firstLine) }
    }

    private static func problem(in bytes: UnsafeBufferPointer<UInt8>, firstLine: Int) -> Problem? {
        // With memchr (vector instructions) a post without tables costs one quick pass for `[`
        // and one for `|`: a byte-by-byte scan of every post showed in a build's CPU time.
        if let offset = offset(ofOccurrence: maximumBrackets + 1, of: UInt8(ascii: "["), in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            return Problem(
                line: firstLine + line - 1, column: column,
                message: "more than \(maximumBrackets) '[' in one document",
                hint: "split the post; cmark-gfm's link parsing slows down with the square of unclosed brackets")
        }
        guard next(UInt8(ascii: "|"), in: bytes, from: 0) != nil else { return nil }
        var line = firstLine
        var lineStart = 0
        // The table being counted: its line, its columns, and its rows so far.
        var table: (line: Int, columns: Int, rows: Int)?
        while lineStart <= bytes.count {
            let lineEnd = next(0x0A, in: bytes, from: lineStart) ?? bytes.count
            let text = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
            if let pipe = offset(ofOccurrence: maximumPipesPerLine + 1, of: UInt8(ascii: "|"), in: text) {
                return Problem(
                    line: line, column: pipe + 1, message: "more than \(maximumPipesPerLine) '|' on one line",
                    hint: "a table row of that many cells makes cmark-gfm's table extension slow down; split it")
            }
            if var current = table {
                if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    table = nil
                } else {
                    current.rows += 1
                    table = current
                    if current.rows * current.columns > maximumTableCells {
                        return Problem(
                            line: current.line, column: 1,
                            message: "this table has more than \(maximumTableCells) cells (\(current.columns) columns)",
                            hint: "split the table; cmark-gfm's table extension slows down with the square of its size")
                    }
                }
            } else if next(UInt8(ascii: "|"), in: text, from: 0) != nil, let columns = delimiterRowColumns(text) {
                table = (line, columns, 0)
            }
            line += 1
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// The offset of the next `byte` at or after `start`.
    private static func next(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The offset of the `occurrence`-th `byte` (1-based), or `nil` when there are fewer.
    private static func offset(ofOccurrence occurrence: Int, of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        var found = 0
        var position = 0
        while let offset = next(byte, in: bytes, from: position) {
            found += 1
            if found == occurrence { return offset }
            position = offset + 1
        }
        return nil
    }

    /// The 1-based line and byte column of an offset.
    private static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        while let newline = next(0x0A, in: bytes, from: lineStart), newline < offset {
            line += 1
            lineStart = newline + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The columns of a table's delimiter row (`| --- | :-: |`), or `nil` for another line.
    static func delimiterRowColumns(_ line: some Sequence<UInt8>) -> Int? {
        var columns = 0
        var cellHasDash = false
        var cellHasText = false
        for byte in line {
            switch byte {
            case UInt8(ascii: "|"):
                if cellHasDash { columns += 1 } else if cellHasText { return nil }
                cellHasDash = false
                cellHasText = false
            case UInt8(ascii: "-"): cellHasDash = true
            case UInt8(ascii: ":"), 0x20, 0x09, 0x0D: continue
            default: cellHasText = true
            }
        }
        if cellHasText { return nil }
        if cellHasDash { columns += 1 }
        return columns > 0 ? columns : nil
    }
}
