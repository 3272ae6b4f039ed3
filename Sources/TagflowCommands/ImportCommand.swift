import ArgumentParser
import Foundation
import TagflowImport

/// `tagflow import hugo|jekyll SOURCE DESTINATION`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring a Hugo or Jekyll site over into a new Tagflow site.",
        discussion: """
            Copies posts, pages, page bundles and static files into a new site folder, converting \
            front matter (YAML and TOML), dates, drafts, tags, Hugo's ref and relref and Jekyll's \
            post_url and link into links by file name, and the settings into site.yml. Every old \
            address that changes gets a redirect (`aliases:`), so published links keep working. \
            What cannot be converted (shortcodes, Liquid logic, themes) is left as written and \
            listed with its file and line, here and in import-notes.txt. SOURCE is only read.
            """)

    /// The generators, as the command line names them.
    enum Generator: String, ExpressibleByArgument, CaseIterable {
        case hugo, jekyll

        var source: SourceGenerator { self == .hugo ? .hugo : .jekyll }
    }

    @Argument(help: "What wrote the site: hugo or jekyll.")
    var generator: Generator

    @Argument(help: "The Hugo or Jekyll site's folder.", completion: .directory)
    var source: String

    @Argument(help: "The new Tagflow site's folder (it must not exist, or be empty).", completion: .directory)
    var destination: String

    @Flag(help: "Make each post's categories tags too (otherwise they stay in its front matter).")
    var categoriesAsTags = false

    func run() async throws {
        let importer = SiteImporter(
            generator: generator.source, source: URL(fileURLWithPath: source),
            destination: URL(fileURLWithPath: destination), options: ImportOptions(categoriesAsTags: categoriesAsTags))
        let report: ImportReport
        do {
            report = try importer.run()
        } catch {
            Console.error(error.message)
            throw ExitCode.failure
        }
        for note in report.notes {
            Console.standardError("\(note.path)\(note.line.map { ":\($0)" } ?? ""): note: \(note.message)")
        }
        var counts = "\(report.postCount) post\(report.postCount == 1 ? "" : "s")"
        if report.draftCount > 0 { counts += " (\(report.draftCount) draft\(report.draftCount == 1 ? "" : "s"))" }
        counts +=
            ", \(report.pageCount) page\(report.pageCount == 1 ? "" : "s"), \(report.copiedFileCount) other file\(report.copiedFileCount == 1 ? "" : "s")"
        Console.output("Imported \(counts) into \(importer.destination.path).")
        if report.aliasCount > 0 {
            Console.output(
                "\(report.aliasCount) old address\(report.aliasCount == 1 ? "" : "es") now redirect to the new ones (aliases: in front matter)."
            )
        }
        if !report.notes.isEmpty {
            Console.output(
                "\(report.notes.count) thing\(report.notes.count == 1 ? "" : "s") could not be converted: listed above and in import-notes.txt."
            )
        }
        Console.output("Preview it with: tagflow serve \(destination)")
    }
}
