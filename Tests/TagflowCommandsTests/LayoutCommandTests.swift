import ArgumentParser
import Foundation
import Testing

@testable import TagflowCommands

@Suite struct LayoutCommandTests {
    /// Runs the JSON core and decodes the answer as plain JSON.
    private func layout(_ json: String) throws -> [String: Any] {
        let data = try LayoutJSON.run(Data(json.utf8), source: "case.json")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The error message for an input that must fail.
    private func failure(_ json: String) -> String {
        do {
            _ = try LayoutJSON.run(Data(json.utf8), source: "case.json")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func singleCase() throws {
        let output = try layout(
            """
            {"container_width": 100, "column_gap": 8, "row_gap": 4,
             "items": [{"width": 56.25, "height": 28}, {"width": 40, "height": 20}]}
            """
        )
        #expect(output["width"] as? Double == 100)
        #expect(output["height"] as? Double == 52)
        #expect(output["rows"] as? Int == 2)
        #expect(output["hidden"] as? Int == 0)
        let items = try #require(output["items"] as? [[String: Double]])
        #expect(
            items == [["x": 0, "y": 0, "width": 56.25, "height": 28], ["x": 0, "y": 32, "width": 40, "height": 20]])
    }

    @Test func lengthsAreTruncatedToTheUnit() throws {
        let output = try layout(#"{"container_width": 10.01, "items": [{"width": 3.999, "height": 1}]}"#)
        #expect(output["width"] as? Double == 10)
        let items = try #require(output["items"] as? [[String: Double]])
        #expect(items[0]["width"] == 3.984375)
    }

    @Test func everyOptionIsRead() throws {
        let output = try layout(
            """
            {"container_width": 10, "justify": "center", "align": "baseline", "direction": "rtl",
             "items": [{"width": 3, "height": 5, "baseline": 2}, {"width": 3, "height": 8, "baseline": 6}]}
            """
        )
        let items = try #require(output["items"] as? [[String: Double]])
        #expect(items.map { $0["x"] } == [5, 2])
        #expect(items.map { $0["y"] } == [4, 0])
    }

    @Test func noWidthMeansOneRow() throws {
        let output = try layout(
            #"{"column_gap": 1, "items": [{"width": 30, "height": 1}, {"width": 30, "height": 1}]}"#)
        #expect(output["width"] as? Double == 61)
        #expect(output["rows"] as? Int == 1)
    }

    @Test func lineLimitHidesItems() throws {
        let output = try layout(
            #"{"container_width": 50, "line_limit": 1, "items": [{"width": 30, "height": 1}, {"width": 30, "height": 1}]}"#
        )
        #expect(output["hidden"] as? Int == 1)
        #expect((output["items"] as? [Any])?.count == 1)
    }

    @Test func batchOfCases() throws {
        let output = try layout(
            #"{"cases": [{"container_width": 5, "items": []}, {"items": [{"width": 1, "height": 2}]}]}"#
        )
        let cases = try #require(output["cases"] as? [[String: Any]])
        #expect(cases.count == 2)
        #expect(cases[0]["height"] as? Double == 0)
        #expect(cases[1]["width"] as? Double == 1)
    }

    @Test(arguments: [
        (#"{"container_width": 10, "items": [{"width": -1, "height": 2}]}"#, "items[0].width: must be a finite number"),
        (#"{"justify": "flex-start", "items": []}"#, "justify: unknown value 'flex-start'"),
        (#"{"align": "middle", "items": []}"#, "align: unknown value 'middle'"),
        (#"{"direction": "up", "items": []}"#, "direction: unknown value 'up'"),
        (#"{"cases": [{"items": []}, {"column_gap": -2, "items": []}]}"#, "cases[1].column_gap: must be a finite"),
        (#"{"items": [{"width": 1, "height": 2, "baseline": 3}]}"#, "items[0].baseline: must not be below"),
        (#"{"line_limit": -1, "items": []}"#, "line_limit: must be 0 or more"),
        (#"{"items": [{"width": "wide", "height": 2}]}"#, "items[0].width: expected a number"),
        (#"{"items": [{"height": 2}]}"#, "items[0]: missing key 'width'"),
        (#"{"container_width": 10}"#, "missing key 'items'"),
        (#"{"justify_content": "center", "items": []}"#, "unknown key 'justify_content'"),
        (#"{"items": [}"#, "case.json: error:"),
        (#"[1, 2]"#, "expected an object"),
    ])
    func badInputsAreExplained(json: String, message: String) {
        let text = failure(json)
        #expect(text.contains(message), "\(text)")
        #expect(text.hasPrefix("case.json: error:"))
    }

    @Test func commandParsesItsArguments() throws {
        let command = try LayoutCommand.parse(["cases.json", "--pretty"])
        #expect(command.input == "cases.json")
        #expect(command.pretty)
        #expect(try LayoutCommand.parse([]).input == nil)
        #expect(LayoutCommand.configuration.commandName == "layout")
    }

    @Test func commandReadsAFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tagflow-layout-\(UUID().uuidString).json")
        try Data(#"{"items": [{"width": 1, "height": 2}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let command = try LayoutCommand.parse([url.path])
        try await command.run()
        await #expect(throws: ExitCode.failure) {
            try await LayoutCommand.parse([url.path + ".missing"]).run()
        }
    }

    @Test func layoutIsASubcommandOfTagflow() throws {
        let command = try Tagflow.parseAsRoot(["layout", "cases.json"])
        #expect((command as? LayoutCommand)?.input == "cases.json")
    }

    @Test func badInputExitsWithStatusOne() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tagflow-bad-\(UUID().uuidString).json")
        try Data(#"{"items": [{"width": -3, "height": 1}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(await TagflowCLI.run(["layout", url.path]) == 1)
    }
}
