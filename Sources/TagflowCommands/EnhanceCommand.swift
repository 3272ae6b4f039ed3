import ArgumentParser
import Foundation
import TagflowChipPlugin
import TagflowChips
import TagflowCore
import TagflowEnhance

/// `tagflow enhance DIR`: chip blocks in the HTML another generator built.
struct EnhanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enhance",
        abstract: "Replace the tag lists in a folder of built HTML (Hugo, Jekyll, MkDocs, Pelican…) with chip blocks.",
        discussion: """
            Run it after your generator: `hugo && tagflow enhance public`. Lists marked with a \
            `data-tagflow` attribute are always replaced; --preset and --selector find the markup \
            of a theme. Only the bytes of each replaced list change; pages without a list are not \
            written, and a second run changes nothing. The stylesheet is written to \
            assets/tagflow-chips.css and linked once from each page that has a block. \
            Presets: \(ListPresets.names.joined(separator: ", ")).
            """
    )

    @Argument(help: "The folder of built HTML (public/, _site/, site/, output/).", completion: .directory)
    var folder: String

    @Option(name: .customLong("preset"), help: "Markup of a generator's popular themes (repeatable).")
    var presets: [String] = []

    @Option(name: .customLong("selector"), help: "A CSS selector of tag lists, e.g. 'ul.post-tags' (repeatable).")
    var selectors: [String] = []

    @Flag(help: "Lay the lists found by --selector out as a weighted cloud, sized by their counts.")
    var weighted = false

    @Option(help: "A YAML file with chip settings (the `chips:` keys of site.yml).", completion: .file())
    var config: String?

    @Option(help: "The site's path prefix (e.g. /blog/) to link the stylesheet from; default: relative links.")
    var basePath: String?

    @Flag(help: "Treat warnings (a selector that finds nothing, a list left as it was) as errors.")
    var strict = false

    func validate() throws {
        for preset in presets where ListPresets.all[preset] == nil {
            throw ValidationError(
                "unknown preset '\(preset)'; the presets are \(ListPresets.names.joined(separator: ", "))")
        }
        if let basePath, !basePath.hasPrefix("/") {
            throw ValidationError("--base-path must start with /, not '\(basePath)'")
        }
    }

    func run() async throws {
        let start = ContinuousClock.now
        var rules = presets.flatMap { ListPresets.all[$0] ?? [] }
        for text in selectors {
            do {
                rules.append(
                    ListRule(selector: try Selector(text), isWeighted: weighted, origin: "--selector '\(text)'"))
            } catch {
                throw ValidationError(error.description)
            }
        }
        let settings = try ChipsCommand.readConfig(config)
        let setup = try ChipSetup(
            config: settings,
            siteRoot: config.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? URL(fileURLWithPath: "."),
            basePath: "")
        let enhancer = SiteEnhancer(
            folder: URL(fileURLWithPath: folder), page: PageEnhancer(renderer: setup.renderer, rules: rules),
            stylesheet: setup.stylesheet, basePath: basePath)
        let report = await enhancer.run()
        var warnings = report.warnings
        warnings += report.unmatched.map { "warning: \($0) found no tag list in \(folder)" }
        for warning in warnings { Console.standardError(warning) }
        for error in report.errors { Console.error(error) }
        let seconds = (ContinuousClock.now - start).components
        let time = Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18
        Console.output(
            "Enhanced \(report.lists) tag list\(report.lists == 1 ? "" : "s") in \(report.rewritten) of \(report.pages) pages"
                + String(format: " (%.2f s)", time)
                + (warnings.isEmpty ? "" : ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")"))
        if !report.errors.isEmpty { throw ExitCode.failure }
        if strict, !warnings.isEmpty {
            Console.error("enhance failed: \(warnings.count) warning\(warnings.count == 1 ? "" : "s") (--strict)")
            throw ExitCode.failure
        }
    }
}
