import ArgumentParser
import Foundation

/// `tagflow layout`: the flow layout engine from the command line.
///
/// Reads a JSON case (or `{"cases": [...]}`) from a file or standard input, lays it out as
/// Chromium lays out `display:flex; flex-wrap:wrap`, and prints the container size and every
/// box's frame as JSON, in CSS px that are exact multiples of 1/64. Bad JSON or a bad value is
/// reported with its place (`cases[2].items[0].width`) and exits with status 1.
struct LayoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Flow boxes as CSS flex-wrap would and print where they go, as JSON.",
        discussion: """
            Input, one case or {"cases": [...]}:
              {"container_width": 300, "column_gap": 8, "row_gap": 8,
               "justify": "start|center|end|space-between|space-around|space-evenly",
               "align": "start|center|end|baseline|stretch", "direction": "ltr|rtl",
               "line_limit": 2, "items": [{"width": 56.25, "height": 28, "baseline": 19.5}]}
            Only "items" is required; without "container_width" every item goes on one row.
            Output: {"width", "height", "rows", "hidden", "items": [{"x", "y", "width", "height"}]}
            in px, relative to the container's top-left corner.
            """
    )

    @Argument(help: "A JSON file to read; standard input when omitted or '-'.")
    var input: String?

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    func run() async throws {
        let source: String
        let data: Data
        if let input, input != "-" {
            source = input
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: input))
            } catch {
                let failure = LayoutInputError(
                    source: input, path: "", message: "cannot read the file (\(error.localizedDescription))")
                Console.standardError("\(failure)")
                throw ExitCode.failure
            }
        } else {
            source = "<stdin>"
            data = FileHandle.standardInput.readDataToEndOfFile()
        }
        var output: Data
        do {
            output = try LayoutJSON.run(data, source: source, pretty: pretty)
        } catch let error as LayoutInputError {
            // Compiler-style, without ArgumentParser's "Error: " in front of our own "error:".
            Console.standardError("\(error)")
            throw ExitCode.failure
        }
        output.append(0x0A)
        FileHandle.standardOutput.write(output)
    }
}
