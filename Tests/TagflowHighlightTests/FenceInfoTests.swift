import Testing

@testable import TagflowHighlight

@Suite struct FenceInfoTests {
    @Test func languageAlone() {
        let info = FenceInfo("swift")
        #expect(info.language == "swift")
        #expect(info.lineNumbers == nil)
        #expect(info.markedLines.isEmpty)
        #expect(info.firstLineNumber == 1)
    }

    @Test func linesAndRangesInBraces() {
        let info = FenceInfo("swift {3,5-7}")
        #expect(info.language == "swift")
        #expect(info.markedLines == [3...3, 5...7])
        #expect([1, 2, 3, 4, 5, 7, 8].map(info.isMarked) == [false, false, true, false, true, true, false])
    }

    @Test func bracesRightAfterTheLanguage() {
        #expect(FenceInfo("py{2}").language == "py")
        #expect(FenceInfo("py{2}").markedLines == [2...2])
    }

    @Test func hugoSpelling() {
        let info = FenceInfo(#"go {linenos=table,hl_lines=[8,"15-17"],linenostart=199}"#)
        #expect(info.lineNumbers == true)
        #expect(info.markedLines == [8...8, 15...17])
        #expect(info.firstLineNumber == 199)
    }

    @Test func lineNumbersOnAndOff() {
        #expect(FenceInfo("c {linenos}").lineNumbers == true)
        #expect(FenceInfo("c {linenos=false}").lineNumbers == false)
        #expect(FenceInfo("c {start=5}").firstLineNumber == 5)
    }

    @Test func nonsenseIsIgnored() {
        let info = FenceInfo("swift {7-3, -2, 0, x=1, title=\"a b\", 99999999999999999999999}")
        #expect(info.markedLines.isEmpty)
        #expect(info.lineNumbers == nil)
        #expect(FenceInfo("swift {").language == "swift")
        #expect(FenceInfo("").language == "")
        #expect(FenceInfo("  ruby   extra words").language == "ruby")
    }
}
