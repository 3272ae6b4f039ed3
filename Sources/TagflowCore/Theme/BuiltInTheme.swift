/// The default theme, built into the binary from the package's `Templates/` folder, so a copied
/// `tagflow` executable needs no other files.
package enum BuiltInTheme {
    /// Template source by name (`post`, `base`, …).
    package static var templates: [String: String] {
        var result: [String: String] = [:]
        for (path, text) in files where path.hasSuffix(".mustache") && !path.contains("/") {
            result[String(path.dropLast(".mustache".count))] = text
        }
        return result
    }

    /// Files written into every site as they are (`assets/tagflow.css`), by output path.
    package static var assets: [String: String] {
        files.filter { $0.key.hasPrefix("assets/") }
    }
}
