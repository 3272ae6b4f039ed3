import Foundation
import Testing

@testable import TagflowCommands
@testable import TagflowCore

/// What `tagflow serve` prints after a build.
@Suite struct ServeOutputTests {
    static func report(rewritten: Int?) -> BuildReport {
        var report = BuildReport(
            output: URL(fileURLWithPath: "/tmp/site"), pageCount: 86, fileCount: 94, byteCount: 1000, postCount: 40,
            tagCount: 12, warnings: [], timings: [("content", 0.0012), ("render", 0.0094)], seconds: 0.0123)
        report.rewrittenFileCount = rewritten
        return report
    }

    @Test func aRebuildAfterAnEditSaysHowManyFilesItRewrote() {
        #expect(
            ServeCommand.builtLine(Self.report(rewritten: 3), first: false)
                == "Rebuilt in 12 ms (3 of 94 files rewritten)")
        #expect(ServeCommand.builtLine(Self.report(rewritten: nil), first: true) == "Built 86 pages in 0.01 s")
        #expect(ServeCommand.builtLine(Self.report(rewritten: nil), first: false) == "Rebuilt 86 pages in 0.01 s")
    }

    @Test func timingsListEveryStep() {
        #expect(ServeCommand.timingsLine(Self.report(rewritten: 3)) == "  content 1.2 ms · render 9.4 ms")
    }
}
