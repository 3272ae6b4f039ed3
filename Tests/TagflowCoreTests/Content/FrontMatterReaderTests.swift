import Testing

@testable import TagflowCore

@Suite struct FrontMatterReaderTests {
    /// A file's name is found from the end of its path as splitting the path on `/` finds it, on
    /// every path of up to four pieces from an edge alphabet.
    @Test func fileNameIsTheLastNonEmptySegment() {
        let pieces = ["", "/", "//", "a", "é", "2024-01-02-x.md", ".", "b.c"]
        var paths = [""]
        for _ in 0..<4 { paths = Array(Set(paths + paths.flatMap { prefix in pieces.map { prefix + $0 } })) }
        for path in paths {
            let split = path.split(separator: "/").last.map(String.init) ?? path
            #expect(FrontMatterReader.fileName(of: path) == split, "\(path.debugDescription)")
        }
    }
}
