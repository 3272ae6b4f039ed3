import Foundation
import TagflowCore
import TagflowMarkdown

/// Reads a Hugo site: its configuration, the posts of its main section, its other pages, page
/// bundles and static files.
struct HugoReader {
    let files: SourceFiles
    let options: ImportOptions

    /// The Markdown files Hugo renders; other content formats are listed, not converted.
    static let markdownExtensions: Set<String> = ["md", "markdown", "mdown"]
    static let otherContentExtensions: Set<String> = ["html", "htm", "adoc", "asciidoc", "org", "rst", "pdc", "ipynb"]

    func plan() throws(ImportError) -> ImportPlan {
        var plan = ImportPlan()
        let (config, configPath) = try readConfig(&plan)
        let params = config["params"].flatMap { if case .map(let map) = $0 { map } else { nil } } ?? YAMLMapping()
        let timeZone = FrontMatterConversion.timeZone(config["timeZone"]?.scalarText)
        let contentFolder = config["contentDir"]?.scalarText ?? "content"
        guard files.isFolder(contentFolder) else {
            throw ImportError("\(files.root.path) has no \(contentFolder)/ folder: is it a Hugo site?")
        }
        settings(config, params: params, configPath: configPath, into: &plan)

        // Leaf bundles: a folder with an index.md; everything under it is the bundle's.
        let contentFiles = files.files(under: contentFolder)
        let bundleFolders = Set(
            contentFiles.filter { ["index.md", "index.markdown"].contains(SitePaths.fileName(of: $0)) }
                .map(SitePaths.folder(of:)))
        func bundle(of path: String) -> String? {
            var folder = SitePaths.folder(of: path)
            while folder.count > contentFolder.count {
                if bundleFolders.contains(folder) { return folder }
                folder = SitePaths.folder(of: folder)
            }
            return nil
        }
        // Every post and page to read, with its bundle's folder.
        var markdownFiles: [(path: String, bundle: String?)] = []
        var bundleFiles: [String: [String]] = [:]
        for path in contentFiles {
            let relative = String(path.dropFirst(contentFolder.count + 1))
            let ext = SitePaths.fileExtension(of: path)
            let name = SitePaths.fileName(of: path)
            if let folder = bundle(of: path) {
                if ["index.md", "index.markdown"].contains(name), SitePaths.folder(of: path) == folder {
                    markdownFiles.append((path, folder))
                } else {
                    bundleFiles[folder, default: []].append(path)
                }
            } else if name.hasPrefix("_index.") {
                plan.note(
                    path, nil,
                    "a section's list page (_index) is not converted: Tagflow lists posts on its home and tag pages")
            } else if Self.markdownExtensions.contains(ext) {
                markdownFiles.append((path, nil))
            } else if Self.otherContentExtensions.contains(ext) {
                plan.note(path, nil, "not imported: Tagflow reads Markdown, not .\(ext)")
            } else {
                // A branch bundle's file: published at its place, as Hugo does.
                plan.copies.append((path, "static/" + relative))
            }
        }
        var languages = Set<String>()
        if case .map(let table)? = config["languages"] { languages = Set(table.entries.map(\.key)) }
        let mainSections = self.mainSections(
            params: params, pages: markdownFiles.map(\.path), contentFolder: contentFolder)
        var documents: [ImportedDocument] = []
        for (path, bundleFolder) in markdownFiles {
            guard let text = try? files.text(path) else {
                plan.note(path, nil, "not imported: not UTF-8 text")
                continue
            }
            if text.hasPrefix("{") {
                plan.note(path, 1, "not imported: JSON front matter is not read; write it as YAML or TOML")
                continue
            }
            guard let parsed = SourceFiles.document(text, path: path, notes: &plan.notes) else { continue }
            // `about.fr.md`: a translation, which a one-language Tagflow site publishes as a page of its own.
            let language = SitePaths.fileExtension(of: SitePaths.baseName(of: path))
            if languages.contains(language) {
                plan.note(
                    path, nil,
                    "a translation ('\(language)'): imported as a page of its own, as Tagflow builds one language")
            }
            let relative = String(path.dropFirst(contentFolder.count + 1))
            let sections = relative.split(separator: "/").dropLast(bundleFolder == nil ? 1 : 2).map(String.init)
            let isPost = sections.first.map(mainSections.contains) ?? false
            // Sections stay folders, so two sections' pages of one name stay two files.
            let inner = (isPost ? Array(sections.dropFirst()) : sections).joined(separator: "/")
            let leaf =
                bundleFolder.map { SitePaths.fileName(of: $0) + "/" + SitePaths.fileName(of: path) }
                ?? SitePaths.fileName(of: path)
            let destination = (isPost ? "posts/" : "pages/") + (inner.isEmpty ? "" : inner + "/") + leaf
            var document = ImportedDocument(
                sourcePath: path, kind: isPost ? .post : .page, destination: destination,
                frontMatter: parsed.mapping.entries.map { ($0.key, $0.value) }, body: parsed.body,
                bodyFirstLine: parsed.bodyFirstLine)
            if let bundleFolder {
                let destinationFolder = SitePaths.folder(of: destination)
                document.bundleFiles = (bundleFiles[bundleFolder] ?? []).map { file in
                    (file, destinationFolder + "/" + String(file.dropFirst(bundleFolder.count + 1)))
                }
            }
            convertFrontMatter(&document, sections: sections, config: config, timeZone: timeZone, notes: &plan.notes)
            documents.append(document)
        }
        if config["timeZone"] == nil { displayZone(of: documents, into: &plan) }
        // Links between documents by the paths Hugo's ref shortcode takes.
        let shortcodes = HugoShortcodes(documents: documents, contentFolder: contentFolder)
        for index in documents.indices {
            shortcodes.convert(&documents[index], notes: &plan.notes)
        }
        plan.documents = documents
        copyStatic(config, into: &plan)
        noteTheme(config, configPath: configPath, into: &plan)
        return plan
    }

    // MARK: Configuration

    /// Hugo's configuration file (`hugo.toml`, `hugo.yaml`, `config.toml`…, or in `config/_default/`).
    private func readConfig(_ plan: inout ImportPlan) throws(ImportError) -> (YAMLMapping, String) {
        let names = [
            "hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml",
            "config.json",
        ]
        let candidates = names + names.map { "config/_default/" + $0 }
        guard let path = candidates.first(where: files.exists) else {
            throw ImportError(
                "\(files.root.path) has no hugo.toml, hugo.yaml or config.toml (nor config/_default/): is it a Hugo site?"
            )
        }
        var config = try Self.mapping(path, files: files)
        // config/_default/params.toml holds the params table.
        if path.hasPrefix("config/_default/") {
            for name in ["params.toml", "params.yaml", "params.yml", "params.json"]
            where files.exists("config/_default/" + name) {
                let params = try Self.mapping("config/_default/" + name, files: files)
                config.entries.removeAll { $0.key == "params" }
                config.entries.append(YAMLMapping.Entry(key: "params", value: .map(params), line: 1, column: 1))
            }
        }
        return (config, path)
    }

    static func mapping(_ path: String, files: SourceFiles) throws(ImportError) -> YAMLMapping {
        let text = try files.text(path)
        do {
            switch SitePaths.fileExtension(of: path) {
            case "toml": return try TOMLReader.mapping(from: text)
            case "json": return try JSONValues.mapping(from: text)
            default: return try YAMLReader.mapping(from: text)
            }
        } catch let error as FrontMatterError {
            throw ImportError("\(path):\(error.line):\(error.column): \(error.message)")
        } catch {
            throw ImportError("\(path): \(error)")
        }
    }

    private func settings(_ config: YAMLMapping, params: YAMLMapping, configPath: String, into plan: inout ImportPlan) {
        func add(_ key: String, _ value: YAMLValue?, _ comment: String? = nil) {
            guard let value, value != .null else { return }
            plan.settings.append((key, value, comment))
        }
        add("title", config["title"])
        add("description", params["description"] ?? config["description"])
        if let base = config["baseURL"]?.scalarText ?? config["baseurl"]?.scalarText, !base.isEmpty {
            add("base_url", .string(base.hasSuffix("/") ? base : base + "/"))
        }
        add("language", config["languageCode"] ?? config["locale"] ?? config["defaultContentLanguage"])
        let author = params["author"] ?? config["author"]
        if case .map(let map)? = author { add("author", map["name"]) } else { add("author", author) }
        add("timezone", config["timeZone"])
        var perPage: YAMLValue?
        if case .map(let pagination)? = config["pagination"] { perPage = pagination["pagerSize"] }
        add("posts_per_page", perPage ?? config["paginate"])
        if config["relativeURLs"] == .bool(true) { add("relative_links", .bool(true)) }
        var unsafe = false
        if case .map(let markup)? = config["markup"], case .map(let goldmark)? = markup["goldmark"],
            case .map(let renderer)? = goldmark["renderer"], renderer["unsafe"] == .bool(true)
        {
            unsafe = true
        }
        add(
            "markdown.smart_punctuation", .bool(true),
            "Hugo's Markdown (Goldmark) writes typographic quotes and dashes.")
        add("markdown.unsafe", .bool(unsafe))
    }

    /// Without a `timeZone`, the zone of the offset most posts are written with (`Etc/GMT+5` for
    /// -05:00).
    ///
    /// Hugo shows each date at the offset it is written with; Tagflow shows every date in the
    /// site's zone. This zone makes most posts show the day they showed before.
    private func displayZone(of documents: [ImportedDocument], into plan: inout ImportPlan) {
        var counts: [Int: Int] = [:]
        for document in documents where document.kind == .post {
            if let offset = document["date"]?.scalarText.flatMap(FrontMatterConversion.writtenOffset) {
                counts[offset, default: 0] += 1
            }
        }
        guard let (offset, _) = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }), offset != 0,
            offset % 3600 == 0
        else { return }
        // The tz database's Etc zones count the other way: Etc/GMT+5 is five hours behind UTC.
        let hours = -offset / 3600
        let name = "Etc/GMT" + (hours > 0 ? "+\(hours)" : "\(hours)")
        let index = plan.settings.firstIndex { $0.key.hasPrefix("markdown.") } ?? plan.settings.endIndex
        plan.settings.insert(
            (
                "timezone", .string(name),
                "Most posts' dates are written at UTC\(offset > 0 ? "+" : "-")\(abs(offset / 3600)): dates show in that zone."
            ),
            at: index)
    }

    /// The sections that hold posts: `params.mainSections`, or as Hugo chooses, the section with
    /// the most pages.
    private func mainSections(params: YAMLMapping, pages: [String], contentFolder: String) -> Set<String> {
        let given = FrontMatterConversion.names(params["mainSections"] ?? params["mainsections"], splitOnSpaces: false)
        if !given.isEmpty { return Set(given) }
        var counts: [String: Int] = [:]
        for path in pages {
            let parts = path.dropFirst(contentFolder.count + 1).split(separator: "/")
            if parts.count >= 2 { counts[String(parts[0]), default: 0] += 1 }
        }
        let best = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
        return best.map { [$0.key] } ?? ["posts"]
    }

    // MARK: Front matter

    private func convertFrontMatter(
        _ document: inout ImportedDocument, sections: [String], config: YAMLMapping, timeZone: TimeZone,
        notes: inout [ImportNote]
    ) {
        let path = document.sourcePath
        // Hugo's default order for a page's date: date, then publishDate, then lastmod.
        let dateKeys = ["date", "publishDate", "publishdate", "pubdate", "published", "lastmod", "modified"]
        let written = document
        let date = dateKeys.lazy.compactMap { FrontMatterConversion.date(written[$0], timeZone: timeZone) }.first
        for key in ["publishDate", "publishdate", "pubdate", "published"] { document[key] = nil }
        if let updated = FrontMatterConversion.date(document["lastmod"] ?? document["modified"], timeZone: timeZone) {
            document["lastmod"] = nil
            document["modified"] = nil
            if document.kind == .post { document["updated"] = .string(updated.text) }
        }
        if document.kind == .post {
            if let date {
                document["date"] = .string(date.text)
            } else if ContentDate.fromFileName(document.addressName, timeZone: timeZone) == nil {
                let fallback = FrontMatterConversion.text(of: files.modificationDate(path), timeZone: timeZone)
                document["date"] = .string(fallback)
                document["draft"] = .bool(true)
                notes.append(
                    ImportNote(
                        path: path,
                        message:
                            "no date Tagflow reads: imported as a draft dated \(fallback) (the file's time); set `date:` and remove `draft:`"
                    ))
            }
        } else {
            document["date"] = nil
        }
        if document["expiryDate"] != nil || document["expirydate"] != nil {
            notes.append(ImportNote(path: path, message: "expiryDate is not converted: the page stays published"))
        }
        if case .map(let build)? = document["_build"] ?? document["build"], build["render"]?.scalarText == "never" {
            notes.append(
                ImportNote(path: path, message: "build.render 'never' is not converted: the page is published"))
        }
        for key in ["layout", "type"] where document[key] != nil {
            notes.append(
                ImportNote(
                    path: path,
                    message:
                        "'\(key)' is not converted: Tagflow renders it with its \(document.kind == .post ? "post" : "page") template"
                ))
        }
        // Tags, and categories when asked.
        let tags = FrontMatterConversion.names(document["tags"], splitOnSpaces: false)
        if options.categoriesAsTags, document["categories"] != nil {
            let merged = FrontMatterConversion.merged(
                tags, FrontMatterConversion.names(document["categories"], splitOnSpaces: false))
            document["categories"] = nil
            document["tags"] = merged.isEmpty ? nil : .list(merged.map(YAMLValue.string))
        } else if document["tags"] != nil {
            document["tags"] = tags.isEmpty ? nil : .list(tags.map(YAMLValue.string))
        }
        // Where Hugo published it.
        let sectionPath = "/" + sections.map { Self.urlized($0, config: config) }.map { $0 + "/" }.joined()
        if let url = document["url"]?.scalarText {
            document.oldPath = url.hasPrefix("/") ? url : "/" + url
            document["url"] = nil
        } else {
            document.oldPath = oldPath(document, sections: sections, config: config, timeZone: timeZone, notes: &notes)
        }
        // Aliases are from the root, or from the folder the page was published in (as Hugo reads them).
        var folder = document.oldPath ?? sectionPath
        if folder.hasSuffix("/") { folder.removeLast() }
        folder = String(folder[...(folder.lastIndex(of: "/") ?? folder.startIndex)])
        let aliases = FrontMatterConversion.names(document["aliases"], splitOnSpaces: false).map {
            $0.hasPrefix("/") ? $0 : folder + $0
        }
        document["aliases"] = aliases.isEmpty ? nil : .list(aliases.map(YAMLValue.string))
        if document.kind == .page { document["draft"] = nil }
        FrontMatterConversion.checkTypes(&document, notes: &notes)
    }

    /// The address Hugo gave a page: its section's `permalinks` pattern, or the section's path and
    /// the slug or file name.
    private func oldPath(
        _ document: ImportedDocument, sections: [String], config: YAMLMapping, timeZone: TimeZone,
        notes: inout [ImportNote]
    ) -> String? {
        let name = SitePaths.baseName(
            of: document.isBundleIndex ? SitePaths.folder(of: document.sourcePath) : document.sourcePath)
        let slug = document["slug"]?.scalarText
        let title = document["title"]?.scalarText ?? ""
        let ugly = config["uglyURLs"] == .bool(true) || config["uglyurls"] == .bool(true)
        if let section = sections.first, let pattern = permalinkPattern(for: section, config: config) {
            // Hugo takes the year, month and day in the offset the date is written with.
            let text = document["date"]?.scalarText
            let date = text.flatMap { ContentDate.parse($0, timeZone: timeZone) }
            let zone =
                text.flatMap(FrontMatterConversion.writtenOffset).flatMap(TimeZone.init(secondsFromGMT:)) ?? timeZone
            let fields = date?.components(in: zone)
            var unknown: [String] = []
            let path = HugoPermalink.expand(pattern) { token in
                switch token {
                case "year": return fields.map { String($0.year) }
                case "month": return fields.map { Self.twoDigits($0.month) }
                case "monthname": return fields.map { Self.monthNames[$0.month - 1] }
                case "day": return fields.map { Self.twoDigits($0.day) }
                case "section": return Self.urlized(section, config: config)
                case "sections": return sections.map { Self.urlized($0, config: config) }.joined(separator: "/")
                case "title": return Self.urlized(title, config: config)
                case "slug": return Self.urlized(slug ?? title, config: config)
                case "filename", "contentbasename": return Self.urlized(name, config: config)
                case "slugorfilename", "slugorcontentbasename": return Self.urlized(slug ?? name, config: config)
                default:
                    unknown.append(token)
                    return nil
                }
            }
            if !unknown.isEmpty || path == nil {
                notes.append(
                    ImportNote(
                        path: document.sourcePath,
                        message:
                            "the permalink pattern '\(pattern)' has parts the import does not follow (\(unknown.map { ":" + $0 }.joined(separator: ", "))); the old address is not redirected"
                    ))
                return nil
            }
            return path.map { ugly && $0.hasSuffix("/") ? String($0.dropLast()) + ".html" : $0 }
        }
        let last = Self.urlized(slug ?? name, config: config)
        let folder = sections.map { Self.urlized($0, config: config) + "/" }.joined()
        return ugly ? "/" + folder + last + ".html" : "/" + folder + last + "/"
    }

    private func permalinkPattern(for section: String, config: YAMLMapping) -> String? {
        guard case .map(let permalinks)? = config["permalinks"] else { return nil }
        if case .map(let byKind)? = permalinks["page"], let pattern = byKind[section]?.scalarText { return pattern }
        return permalinks[section]?.scalarText
    }

    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// A path segment as Hugo makes one from a name (its `UnicodeSanitize`): letters, digits and
    /// `._-~+#@` are kept, a run of white space (with whatever is dropped inside it) becomes one
    /// `-` before the next kept character, the rest is dropped; lowercased unless
    /// `disablePathToLower` is set.
    static func urlized(_ text: String, config: YAMLMapping) -> String {
        let lower = config["disablePathToLower"] != .bool(true)
        var result = ""
        var afterSpace = false
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let properties = scalar.properties
            var kept =
                "._-~+#@/\\".unicodeScalars.contains(scalar) || properties.isAlphabetic
                || properties.numericType == .decimal || properties.generalCategory == .nonspacingMark
                || properties.generalCategory == .spacingMark
            // A percent escape (`%2F`) stays as it is.
            if scalar == "%", index + 2 < scalars.count, scalars[index + 1].properties.isASCIIHexDigit,
                scalars[index + 2].properties.isASCIIHexDigit
            {
                kept = true
            }
            if kept {
                if afterSpace { result += "-" }
                afterSpace = false
                result.unicodeScalars.append(scalar)
            } else if properties.isWhitespace {
                afterSpace = true
            }
        }
        return lower ? result.lowercased() : result
    }

    // MARK: Static files and what is not converted

    private func copyStatic(_ config: YAMLMapping, into plan: inout ImportPlan) {
        var folders = FrontMatterConversion.names(config["staticDir"], splitOnSpaces: false)
        if folders.isEmpty { folders = ["static"] }
        for folder in folders where files.isFolder(folder) {
            for path in files.files(under: folder) {
                plan.copies.append((path, "static/" + String(path.dropFirst(folder.count + 1))))
            }
        }
    }

    private func noteTheme(_ config: YAMLMapping, configPath: String, into plan: inout ImportPlan) {
        if let theme = config["theme"] {
            let names = FrontMatterConversion.names(theme, splitOnSpaces: false).joined(separator: ", ")
            plan.note(
                configPath, config.entry("theme")?.line,
                "the theme (\(names)) is not converted: Tagflow uses its built-in theme; templates/ can replace any of its templates"
            )
        }
        for key in ["menu", "menus", "languages", "outputs", "module"] where config[key] != nil {
            plan.note(configPath, config.entry(key)?.line, "'\(key)' is not converted")
        }
        if case .map(let taxonomies)? = config["taxonomies"] {
            for entry in taxonomies.entries where !["tag", "category"].contains(entry.key) {
                plan.note(
                    configPath, entry.line,
                    "the taxonomy '\(entry.key)' is not converted: it stays in the front matter, for templates")
            }
        }
        for folder in ["layouts", "assets", "data", "i18n"] where files.isFolderWithFiles(folder) {
            plan.note(
                folder + "/", nil,
                "not converted: Tagflow uses its built-in theme; templates/ can replace any of its templates")
        }
    }
}

/// Hugo's permalink patterns (`/:year/:month/:slug/`).
enum HugoPermalink {
    /// The pattern with each `:token` replaced; `nil` when a token has no value.
    static func expand(_ pattern: String, value: (String) -> String?) -> String? {
        var result = ""
        var index = pattern.startIndex
        while index < pattern.endIndex {
            let character = pattern[index]
            guard character == ":" else {
                result.append(character)
                index = pattern.index(after: index)
                continue
            }
            var end = pattern.index(after: index)
            while end < pattern.endIndex, pattern[end].isLetter { end = pattern.index(after: end) }
            let token = String(pattern[pattern.index(after: index)..<end])
            guard let replacement = value(token) else { return nil }
            result += replacement
            index = end
        }
        if !result.hasPrefix("/") { result = "/" + result }
        return result
    }
}

/// JSON configuration, read into the same values as YAML.
enum JSONValues {
    static func mapping(from text: String) throws -> YAMLMapping {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard case .map(let mapping) = value(object) else { throw ImportError("the JSON is not an object") }
        return mapping
    }

    static func value(_ object: Any) -> YAMLValue {
        switch object {
        case let dictionary as [String: Any]:
            return .map(
                YAMLMapping(
                    entries: dictionary.keys.sorted().map {
                        YAMLMapping.Entry(key: $0, value: value(dictionary[$0] as Any), line: 1, column: 1)
                    }))
        case let array as [Any]: return .list(array.map(value))
        case let number as NSNumber:
            // JSON's true and false arrive as numbers whose type is C's char.
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            if number.doubleValue == number.doubleValue.rounded() { return .int(number.intValue) }
            return .double(number.doubleValue)
        case let text as String: return .string(text)
        default: return .null
        }
    }
}

extension SitePaths {
    static func fileName(of path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
