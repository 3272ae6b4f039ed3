import Foundation
import TagflowMetrics
import Testing

@testable import TagflowCommands

@Suite struct MetricsCommandTests {
    static let liberation = "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"
    static let fontsInstalled =
        ProcessInfo.processInfo.environment["CI"] != nil || FileManager.default.fileExists(atPath: liberation)

    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-metrics-\(UUID().uuidString)-\(name)")
    }

    @Test(.enabled(if: fontsInstalled, "needs fonts-liberation2"))
    func metricsWritesATableThatMeasuresLikeTheFont() async throws {
        let output = temporaryFile("liberation.tfm")
        defer { try? FileManager.default.removeItem(at: output) }
        #expect(await TagflowCLI.run(["metrics", Self.liberation, "--output", output.path, "--quiet"]) == 0)
        let table = try MetricsTable(contentsOf: [UInt8](try Data(contentsOf: output)))
        #expect(FontStack([table]).measure("AVAWAY", size: 13).width == 3313)
        #expect(table.encoded() == MetricsTable.liberationSans.encoded())
    }

    @Test func metricsFailsWithOneOnBadFonts() async throws {
        let bad = temporaryFile("bad.ttf")
        defer { try? FileManager.default.removeItem(at: bad) }
        try Data("not a font at all".utf8).write(to: bad)
        #expect(await TagflowCLI.run(["metrics", bad.path, "--output", temporaryFile("x.tfm").path]) == 1)
        #expect(await TagflowCLI.run(["metrics", "/no/such/font.ttf", "--output", temporaryFile("x.tfm").path]) == 1)
        #expect(await TagflowCLI.run(["metrics", bad.path]) == 2)  // --output is required
    }

    @Test func measureParsesJSONOrLines() throws {
        #expect(try MeasureCommand.parseStrings(" [\"a\", \"b c\"]", source: "-") == ["a", "b c"])
        #expect(try MeasureCommand.parseStrings("a\nb c\r\n", source: "-") == ["a", "b c"])
        #expect(try MeasureCommand.parseStrings("", source: "-") == [])
        #expect(throws: (any Error).self) { try MeasureCommand.parseStrings("[1, 2", source: "-") }
    }

    @Test func measureReportsPixels() {
        let report = MeasureCommand.report(["AVAWAY", "say \"hi\""], stack: .default, size: 13, letterSpacing: 0)
        #expect(report.hasPrefix("[{\"text\": \"AVAWAY\", \"width\": 51.765625, \"height\": 15.0},"))
        #expect(report.contains("\"say \\\"hi\\\"\""))
        let decoded = try? JSONSerialization.jsonObject(with: Data(report.utf8)) as? [[String: Any]]
        #expect(decoded?.count == 2)
    }

    @Test func measureRejectsBadSizes() async {
        #expect(await TagflowCLI.run(["measure", "--size", "0"]) == 2)
        #expect(await TagflowCLI.run(["measure", "--size", "abc"]) == 2)
        #expect(await TagflowCLI.run(["measure", "--size", "12", "--font", "/no/such/table.tfm"]) == 1)
    }
}
