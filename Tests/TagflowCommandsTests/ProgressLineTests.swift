import TagflowTesting
import Testing

@testable import TagflowCommands
@testable import TagflowCore

@Suite struct ProgressLineTests {
    @Test func describesTheStepAndItsCounts() {
        #expect(ProgressLine.text(step: "render", done: 12, total: 40) == "render 12/40 pages")
        #expect(ProgressLine.text(step: "content", done: 3, total: 9) == "content 3/9 files")
        #expect(ProgressLine.text(step: "taxonomy", done: 0, total: 0) == "taxonomy")
    }

    @Test func aBuildReportsItsSteps() async throws {
        let fixture = try SiteFixture("-- posts/2024-01-01-a.md --\n---\ntitle: A\n---\n")
        defer { fixture.remove() }
        let progress = BuildProgress()
        try await SiteBuilder(siteRoot: fixture.site, progress: progress).build(to: fixture.output)
        #expect(progress.snapshot.step == "write")
    }

    @Test func countsItemsFromAnyTask() async throws {
        let progress = BuildProgress()
        progress.begin("content", total: 0)
        progress.setTotal(3)
        for _ in 0..<3 { progress.advance() }
        #expect(progress.snapshot == ("content", 3, 3))
        progress.begin("render")
        #expect(progress.snapshot == ("render", 0, 0))
    }

    @Test func logsWaitLongerThanTerminals() {
        #expect(ProgressLine(progress: BuildProgress(), isTerminal: true).delay == .milliseconds(500))
        #expect(ProgressLine(progress: BuildProgress(), isTerminal: false).delay == .seconds(2))
    }
}
