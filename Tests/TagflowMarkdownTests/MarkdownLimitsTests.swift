import Testing

@testable import TagflowMarkdown

/// cmark-gfm's quadratic inputs are refused before they are parsed, at their line; ordinary
/// documents far below the bounds are not.
@Suite struct MarkdownLimitsTests {
    @Test func unclosedBracketsOverTheBoundAreRefused() throws {
        let text = "# Title\n\nfine\n" + String(repeating: "![[]()", count: 80_000)
        let problem = try #require(MarkdownLimits.problem(in: text, firstLine: 5))
        #expect(problem.line == 8)
        #expect(problem.message == "more than 20000 '[' in one document")
    }

    @Test func aRowOfThousandsOfPipesIsRefused() throws {
        let text = "a|b\n-|-\n" + String(repeating: "|", count: 100_000) + "\n"
        let problem = try #require(MarkdownLimits.problem(in: text))
        #expect(problem.line == 3 && problem.column == 1_001)
    }

    @Test func aTableOfTooManyCellsIsRefusedAtItsDelimiterRow() throws {
        let columns = 500
        let header = (0..<columns).map { "h\($0)" }.joined(separator: "|")
        let delimiter = Array(repeating: "-", count: columns).joined(separator: "|")
        let text = "Intro\n\n" + header + "\n" + delimiter + "\n" + String(repeating: "x\n", count: 500)
        let problem = try #require(MarkdownLimits.problem(in: text, firstLine: 10))
        #expect(problem.line == 13)
        #expect(problem.message.hasPrefix("this table has more than 200000 cells (500 columns)"))
    }

    @Test func ordinaryDocumentsPass() {
        let table = "| a | b |\n| :-- | --: |\n" + String(repeating: "| [x](/x/) | y |\n", count: 5_000)
        let links = String(repeating: "See [this](https://example.org/) and [that][1].\n\n", count: 4_000)
        #expect(MarkdownLimits.problem(in: table + "\n" + links + "[1]: /that/\n") == nil)
        #expect(MarkdownLimits.delimiterRowColumns(Array("| --- | :-: | --: |".utf8)) == 3)
        #expect(MarkdownLimits.delimiterRowColumns(Array("a | b".utf8)) == nil)
        #expect(MarkdownLimits.delimiterRowColumns(Array("---".utf8)) == 1)
    }
}
