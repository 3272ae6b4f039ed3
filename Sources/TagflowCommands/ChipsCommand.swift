import ArgumentParser
import Foundation
import TagflowChipPlugin
import TagflowChips
import TagflowCore

/// `tagflow chips`: a chip block's HTML and CSS for any other site generator.
struct ChipsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chips",
        abstract: "Print a chip block (HTML and the CSS it needs) for other site generators.",
        discussion: """
            Labels come from the arguments, or as JSON on standard input: an array of strings or of \
            objects {"label", "url", "count"}. A label argument may be written `Label -> /url/`. \
            --config reads chip settings from a YAML file: the `chips:` keys of site.yml, at the \
            top level or under `chips:`. The CSS is the same for every block; include it once per page.
            """
    )

    @Option(help: "A YAML file with chip settings (font, font_size, breakpoints, ...).", completion: .file())
    var config: String?

    @Option(help: "What to print: html, css, both (a <style> element, then the block) or json.")
    var format: OutputFormat = .both

    @Option(help: "The list's accessible name.")
    var label = "Tags"

    @Argument(help: "The chips' labels; read JSON from standard input when there are none.")
    var labels: [String] = []

    @Flag(
        help:
            "Serve requests as JSON lines on standard input and output until it ends (for plugins of other generators)."
    )
    var serve = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case html, css, both, json
    }

    struct Item: Decodable {
        var label: String
        var url: String?
        var count: Int?
    }

    func run() async throws {
        let settings = try Self.readConfig(config)
        let setup = try ChipSetup(
            config: settings,
            siteRoot: config.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? URL(fileURLWithPath: "."),
            basePath: "")
        if serve {
            ChipServer(setup: setup).serve()
            return
        }
        // The stylesheet alone needs no chips: don't wait for (or insist on) standard input.
        if format == .css {
            print(setup.stylesheet, terminator: "")
            return
        }
        let chips = try labels.isEmpty ? readStandardInput() : labels.map(Self.chip)
        let html = setup.renderer.html(for: chips, label: label)
        switch format {
        case .html: print(html)
        case .css: print(setup.stylesheet, terminator: "")
        case .both: print("<style>\n\(setup.stylesheet)</style>\n\(html)")
        case .json:
            let data = try JSONSerialization.data(
                withJSONObject: ["html": html, "css": setup.stylesheet], options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    static func chip(_ argument: String) -> Chip {
        guard let arrow = argument.range(of: "->") else { return Chip(label: argument) }
        return Chip(
            label: argument[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces),
            url: argument[arrow.upperBound...].trimmingCharacters(in: .whitespaces))
    }

    func readStandardInput() throws -> [Chip] {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        if let strings = try? JSONDecoder().decode([String].self, from: data) { return strings.map(Self.chip) }
        do {
            return try JSONDecoder().decode([Item].self, from: data).map {
                Chip(label: $0.label, url: $0.url, count: $0.count)
            }
        } catch {
            throw ValidationError(
                "standard input must be a JSON array of labels or of {\"label\", \"url\", \"count\"} objects")
        }
    }

    static func readConfig(_ config: String?) throws -> ChipsConfig {
        guard let config else { return ChipsConfig() }
        guard let data = FileManager.default.contents(atPath: config), var text = String(data: data, encoding: .utf8)
        else {
            throw TagflowError(
                location: SourceLocation(path: config), step: "config", message: "cannot read the chip settings")
        }
        let topLevel = text.split(separator: "\n").contains { $0.hasPrefix("chips:") }
        if !topLevel {
            text =
                "chips:\n"
                + text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
                    separator: "\n")
        }
        do {
            let (site, warnings) = try SiteConfig.parse(text, path: config)
            Console.printDiagnostics(warnings)
            return site.chips
        } catch {
            // Line numbers of a wrapped file are one more than the user's.
            throw topLevel
                ? error
                : BuildFailure(
                    diagnostics: error.diagnostics.map { diagnostic in
                        var shifted = diagnostic
                        shifted.error.location?.line = diagnostic.error.location?.line.map { $0 - 1 }
                        shifted.error.location?.column = diagnostic.error.location?.column.map { max(1, $0 - 2) }
                        shifted.error.sourceLine = diagnostic.error.sourceLine.map { String($0.dropFirst(2)) }
                        return shifted
                    })
        }
    }
}
