import Foundation

/// Another generator's site, recognised by the files it keeps, so that pointing `tagflow build` at
/// a Hugo or Jekyll blog is an error that says what to do rather than an empty site.
struct OtherGenerator: Sendable, Hashable {
    /// The generator's name.
    var name: String
    /// The files and folders that gave it away.
    var evidence: [String]
    /// The command that adds chip blocks to what it builds.
    var enhance: String
    /// The command that brings the site over (`tagflow import hugo`), for the generators it reads.
    var importCommand: String?

    /// The generator whose site `folder` looks like, or `nil`.
    ///
    /// Only called when there is no `site.yml`: a Tagflow site may well have a `content/` folder.
    static func site(in folder: URL) -> OtherGenerator? {
        func present(_ names: [String]) -> [String] {
            names.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        }
        let hugoConfig = present(["hugo.toml", "hugo.yaml", "hugo.json", "config.toml"])
        let hugoFolders = present(["content", "archetypes", "layouts", "themes"]).map { $0 + "/" }
        if !hugoConfig.isEmpty, !hugoFolders.isEmpty || hugoConfig.contains(where: { $0.hasPrefix("hugo.") }) {
            return OtherGenerator(
                name: "Hugo", evidence: hugoConfig + hugoFolders,
                enhance: "hugo && tagflow enhance public --preset hugo",
                importCommand: "tagflow import hugo THIS-FOLDER NEW-FOLDER")
        }
        let jekyll = present(["_config.yml", "_config.yaml"]) + present(["_posts", "_layouts"]).map { $0 + "/" }
        if jekyll.contains(where: { $0.hasPrefix("_config") }), jekyll.count >= 2 {
            return OtherGenerator(
                name: "Jekyll", evidence: jekyll, enhance: "jekyll build && tagflow enhance _site --preset jekyll",
                importCommand: "tagflow import jekyll THIS-FOLDER NEW-FOLDER")
        }
        let mkdocs = present(["mkdocs.yml", "mkdocs.yaml"])
        if !mkdocs.isEmpty {
            return OtherGenerator(
                name: "MkDocs", evidence: mkdocs,
                enhance: "mkdocs build && tagflow enhance site --preset mkdocs-material")
        }
        let pelican = present(["pelicanconf.py"])
        if !pelican.isEmpty {
            return OtherGenerator(
                name: "Pelican", evidence: pelican,
                enhance: "pelican content && tagflow enhance output --preset pelican")
        }
        return nil
    }
}
