import Foundation
import TagflowMarkdown

/// Reads a site's `site.yml`: the settings and their warnings, or an error that says what is wrong
/// with the folder or the file.
///
/// A folder without `site.yml` builds with the default settings (and a warning), unless it looks
/// like another generator's site: built as a Tagflow site it would give an empty blog and exit 0.
enum ConfigFile {
    static let name = "site.yml"

    static func read(siteRoot: URL) throws(BuildFailure) -> (config: SiteConfig, diagnostics: [Diagnostic]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: siteRoot.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw failure(
                "site folder not found", at: SourceLocation(path: siteRoot.path),
                hint: "create one with `tagflow new site DIR`")
        }
        let url = siteRoot.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            if let other = OtherGenerator.site(in: siteRoot) {
                throw failure(
                    "no site.yml, and this folder looks like a \(other.name) site "
                        + "(\(other.evidence.joined(separator: ", "))), not a Tagflow site",
                    hint: "to add chip blocks to it, run `\(other.enhance)` (docs/integrations.md); "
                        + (other.importCommand.map { "to move it to Tagflow, run `\($0)` (docs/import.md)" }
                            ?? "to build it with Tagflow, add a site.yml"))
            }
            let warning = TagflowError(
                location: SourceLocation(path: name), step: "config",
                message: "no site.yml; using the default settings",
                hint: "`tagflow new site DIR` writes a commented one")
            return (SiteConfig(), [Diagnostic(.warning, warning)])
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            // Out of descriptors, the file is fine: say what is really wrong.
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            let message =
                code == Int(EMFILE) || code == Int(ENFILE)
                ? "cannot open site.yml: this process has too many files open (the file itself is fine)"
                : "cannot read site.yml: \(ContentLoader.reason(error))"
            throw failure(message, underlying: error)
        }
        guard let text = SourceText.decode(data) else {
            let offset = ContentLoader.firstInvalidUTF8Offset(in: Array(data)) ?? 0
            let position = ContentLoader.position(of: offset, in: data)
            throw failure(
                "not valid UTF-8 text (byte \(offset))",
                at: SourceLocation(path: name, line: position.line, column: position.column),
                hint: "save the file as UTF-8")
        }
        return try SiteConfig.parse(text, path: name)
    }

    private static func failure(
        _ message: String, at location: SourceLocation = SourceLocation(path: name), hint: String? = nil,
        underlying: (any Error)? = nil
    ) -> BuildFailure {
        BuildFailure(diagnostics: [
            Diagnostic(
                .error,
                TagflowError(location: location, step: "config", message: message, hint: hint, underlying: underlying))
        ])
    }
}
