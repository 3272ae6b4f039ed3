import Foundation
import TagflowCore
import TagflowMarkdown

/// Reads a Jekyll site: `_config.yml`, `_posts` (folder categories too), `_drafts`, pages, and
/// the files Jekyll copies as they are.
struct JekyllReader {
    let files: SourceFiles
    let options: ImportOptions

    /// Kramdown's Markdown extensions, as Jekyll's `markdown_ext` lists them by default.
    static let markdownExtensions: Set<String> = ["markdown", "mkdown", "mkdn", "mkd", "md"]
    /// What Jekyll leaves out of every site, besides `_` and `.` entries.
    static let defaultExcludes: Set<String> = [
        "Gemfile", "Gemfile.lock", "node_modules", "vendor", "_site", ".jekyll-cache", ".sass-cache",
        "gemfiles", "package.json", "package-lock.json", "yarn.lock",
    ]
    /// Plugins whose work Tagflow does itself.
    static let pluginsTagflowCovers: Set<String> = [
        "jekyll-feed", "jekyll-seo-tag", "jekyll-sitemap", "jekyll-paginate", "jekyll-paginate-v2",
        "jekyll-archives", "jekyll-redirect-from", "jekyll-tagging", "jekyll-relative-links",
    ]

    func plan() throws(ImportError) -> ImportPlan {
        var plan = ImportPlan()
        let configPath = ["_config.yml", "_config.yaml", "_config.toml"].first(where: files.exists)
        let config =
            try configPath.map { path throws(ImportError) in try HugoReader.mapping(path, files: files) }
            ?? YAMLMapping()
        let sourceFolder = config["source"]?.scalarText.flatMap(SitePaths.normalized) ?? ""
        guard configPath != nil || files.isFolder(sourceFolder.isEmpty ? "_posts" : sourceFolder + "/_posts") else {
            throw ImportError("\(files.root.path) has no _config.yml and no _posts/ folder: is it a Jekyll site?")
        }
        let timeZone = FrontMatterConversion.timeZone(config["timezone"]?.scalarText)
        // `exclude: [vendor/, docs]`: entries are paths from the site's folder, with or without a slash.
        let excludes = Self.defaultExcludes.union(
            FrontMatterConversion.names(config["exclude"], splitOnSpaces: false).map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            })
        let includes = Set(FrontMatterConversion.names(config["include"], splitOnSpaces: false))
        let extensions =
            FrontMatterConversion.names(config["markdown_ext"], splitOnSpaces: false).isEmpty
            ? Self.markdownExtensions
            : Set(
                (config["markdown_ext"]?.scalarText ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
        let style = config["permalink"]?.scalarText ?? "date"
        settings(config, into: &plan)
        noteConfig(config, configPath: configPath ?? "_config.yml", into: &plan)

        let prefix = sourceFolder.isEmpty ? "" : sourceFolder + "/"
        let all = files.files(under: sourceFolder.isEmpty ? "." : sourceFolder) { path in
            let relative = String(path.dropFirst(prefix.count))
            let name = SitePaths.fileName(of: relative)
            if includes.contains(name) || includes.contains(relative) { return false }
            return excludes.contains(relative) || excludes.contains(name)
        }
        var documents: [ImportedDocument] = []
        var notedFolders = Set<String>()
        for path in all {
            let relative = String(path.dropFirst(prefix.count))
            let parts = relative.split(separator: "/").map(String.init)
            let ext = SitePaths.fileExtension(of: relative)
            let isMarkdown = extensions.contains(ext)
            if let postsIndex = parts.firstIndex(of: "_posts") ?? parts.firstIndex(of: "_drafts") {
                let isDraft = parts[postsIndex] == "_drafts"
                guard isMarkdown else {
                    plan.note(path, nil, "not imported: Tagflow reads Markdown posts, not .\(ext)")
                    continue
                }
                let folderCategories = Array(parts[..<postsIndex])
                let inner = parts[(postsIndex + 1)...].joined(separator: "/")
                if let document = post(
                    path, inner: inner, draft: isDraft, folderCategories: folderCategories, style: style,
                    timeZone: timeZone, notes: &plan.notes)
                {
                    documents.append(document)
                }
                continue
            }
            // Jekyll skips files whose names start with `_` (_config.yml); folders are listed.
            if parts.last?.hasPrefix("_") == true, !parts.dropLast().contains(where: { $0.hasPrefix("_") }) { continue }
            if let underscored = parts.dropLast().first(where: { $0.hasPrefix("_") }) {
                let folder = parts.prefix { !$0.hasPrefix("_") } + [underscored]
                let name = folder.joined(separator: "/")
                if notedFolders.insert(name).inserted {
                    let what =
                        ["_layouts", "_includes", "_sass"].contains(underscored)
                        ? "Tagflow uses its built-in theme; templates/ can replace any of its templates"
                        : underscored == "_data"
                            ? "Tagflow's templates do not read data files"
                            : "Jekyll's collections and plugins are not converted"
                    plan.note(prefix + name + "/", nil, "not converted: \(what)")
                }
                continue
            }
            guard SourceFiles.hasFrontMatter(files.url(path)) else {
                plan.copies.append((path, "static/" + relative))
                continue
            }
            if isMarkdown && !(parts.count == 1 && SitePaths.baseName(of: relative) == "index") {
                if let document = page(path, relative: relative, style: style, timeZone: timeZone, notes: &plan.notes) {
                    documents.append(document)
                }
            } else if parts.count == 1 && SitePaths.baseName(of: relative) == "index" {
                plan.note(path, nil, "not converted: Tagflow writes its own home page, listing the posts")
            } else if relative == "404.html" || relative == "404.md" {
                plan.note(
                    path, nil, "not converted: Tagflow writes its own 404 page (templates/404.mustache replaces it)")
            } else if ["feed.xml", "atom.xml", "sitemap.xml"].contains(relative) {
                plan.note(path, nil, "not converted: Tagflow writes the feed and the sitemap itself")
            } else {
                plan.note(
                    path, nil, "not converted: a file with front matter that Jekyll renders with Liquid (.\(ext))")
            }
        }
        let liquid = LiquidTags(documents: documents, sourcePrefix: prefix)
        for index in documents.indices {
            liquid.convert(&documents[index], notes: &plan.notes)
        }
        plan.documents = documents
        return plan
    }

    // MARK: Posts and pages

    private func post(
        _ path: String, inner: String, draft: Bool, folderCategories: [String], style: String, timeZone: TimeZone,
        notes: inout [ImportNote]
    ) -> ImportedDocument? {
        guard let text = try? files.text(path) else {
            notes.append(ImportNote(path: path, message: "not imported: not UTF-8 text"))
            return nil
        }
        guard let parsed = SourceFiles.document(text, path: path, notes: &notes) else { return nil }
        let name = SitePaths.baseName(of: path)
        let fileDate = ContentDate.fromFileName(SitePaths.fileName(of: path), timeZone: timeZone)
        guard draft || fileDate != nil else {
            notes.append(
                ImportNote(path: path, message: "not imported: Jekyll publishes only posts named YYYY-MM-DD-title"))
            return nil
        }
        // A folder's posts (`news/_posts/…`) keep their folder: two folders may hold one name.
        let folder = folderCategories.isEmpty ? "" : folderCategories.joined(separator: "/") + "/"
        var document = ImportedDocument(
            sourcePath: path, kind: .post, destination: "posts/" + folder + inner,
            frontMatter: parsed.mapping.entries.map { ($0.key, $0.value) }, body: parsed.body,
            bodyFirstLine: parsed.bodyFirstLine)
        let titlePart = fileDate == nil ? name : String(name.dropFirst(11))
        if document["title"] == nil || document["title"] == .null {
            // Jekyll's title for a post without one: its file name's words, capitalised.
            let words = titlePart.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
            document["title"] = .string(words.joined(separator: " "))
        }
        // The date: front matter, the file name, or for a draft the file's time (as Jekyll's).
        var date = FrontMatterConversion.date(document["date"], timeZone: timeZone)?.date
        if let written = document["date"], date == nil, written != .null {
            notes.append(
                ImportNote(
                    path: path,
                    message:
                        "date '\(written.scalarText ?? written.kindName)' is not one Tagflow reads; the file name's date is used"
                ))
            document["date"] = nil
        }
        if date == nil, let fileDate {
            date = fileDate
        } else if date == nil {
            let modified = files.modificationDate(path)
            document["date"] = .string(FrontMatterConversion.text(of: modified, timeZone: timeZone))
            date = ContentDate(secondsSince1970: Int64(modified.timeIntervalSince1970))
        }
        if let updated = FrontMatterConversion.date(
            document["last_modified_at"] ?? document["updated"], timeZone: timeZone)
        {
            document["last_modified_at"] = nil
            document["updated"] = .string(updated.text)
        }
        if draft || document["published"] == .bool(false) { document["draft"] = .bool(true) }
        document["published"] = nil
        // Tags and categories: lists, or words separated by spaces.
        // `tags:` and `categories:` split text at spaces; a singular `tag:` or `category:` is one name.
        let tags =
            document["tags"] != nil
            ? FrontMatterConversion.names(document["tags"], splitOnSpaces: true)
            : FrontMatterConversion.names(document["tag"], splitOnSpaces: false)
        let written =
            document["categories"] != nil
            ? FrontMatterConversion.names(document["categories"], splitOnSpaces: true)
            : FrontMatterConversion.names(document["category"], splitOnSpaces: false)
        // The folders above `_posts` are categories too, first, each name once (as Jekyll merges them).
        let categories = FrontMatterConversion.merged(folderCategories, written)
        document["tag"] = nil
        document["category"] = nil
        if options.categoriesAsTags {
            let merged = FrontMatterConversion.merged(tags, categories)
            document["categories"] = nil
            document["tags"] = merged.isEmpty ? nil : .list(merged.map(YAMLValue.string))
        } else {
            document["tags"] = tags.isEmpty ? nil : .list(tags.map(YAMLValue.string))
            document["categories"] = categories.isEmpty ? nil : .list(categories.map(YAMLValue.string))
        }
        if let excerpt = document["excerpt"], document["summary"] == nil {
            document["summary"] = excerpt
            document["excerpt"] = nil
        }
        // Where Jekyll published it (drafts were not published).
        if !draft, let date {
            let pattern = document["permalink"]?.scalarText ?? Self.postPattern(style)
            let slug = document["slug"]?.scalarText
            var lowered: [String] = []
            for category in categories.map({ $0.lowercased() }) where !lowered.contains(category) {
                lowered.append(category)
            }
            document.oldPath = Self.expand(
                pattern, date: date, timeZone: timeZone,
                title: slug.map(Self.prettySlug) ?? titlePart, slug: FrontMatterConversion.slugified(slug ?? titlePart),
                categories: lowered)
        }
        // Jekyll's `slug:` is any text it makes a URL segment of; Tagflow's is the segment.
        if let slug = document["slug"]?.scalarText, !ContentAddress.isValidSlug(slug) {
            document["slug"] = .string(FrontMatterConversion.slugified(slug))
        }
        document["permalink"] = nil
        common(&document, notes: &notes)
        return document
    }

    private func page(
        _ path: String, relative: String, style: String, timeZone: TimeZone, notes: inout [ImportNote]
    ) -> ImportedDocument? {
        guard let text = try? files.text(path) else {
            notes.append(ImportNote(path: path, message: "not imported: not UTF-8 text"))
            return nil
        }
        guard let parsed = SourceFiles.document(text, path: path, notes: &notes) else { return nil }
        let folder = SitePaths.folder(of: relative)
        let base = SitePaths.baseName(of: relative)
        // A folder's index.md is the page named after the folder (`blog/index.md` → `pages/blog.md`):
        // as pages/blog/index.md it would make the folder a bundle of the pages beside it.
        let destination = base == "index" ? "pages/" + folder + ".md" : "pages/" + relative
        var document = ImportedDocument(
            sourcePath: path, kind: .page, destination: destination,
            frontMatter: parsed.mapping.entries.map { ($0.key, $0.value) }, body: parsed.body,
            bodyFirstLine: parsed.bodyFirstLine)
        let pretty = style == "pretty" || (document["permalink"] == nil && style.hasSuffix("/"))
        if let permalink = document["permalink"]?.scalarText {
            document.oldPath = permalink.hasPrefix("/") ? permalink : "/" + permalink
        } else {
            let folderPath = folder.isEmpty ? "/" : "/" + folder + "/"
            document.oldPath = base == "index" ? folderPath : folderPath + base + (pretty ? "/" : ".html")
        }
        document["permalink"] = nil
        for key in ["date", "draft", "published", "tags", "categories"] { document[key] = nil }
        common(&document, notes: &notes)
        return document
    }

    /// What posts and pages share: redirects, layouts, and Tagflow's own keys.
    private func common(_ document: inout ImportedDocument, notes: inout [ImportNote]) {
        let redirects = FrontMatterConversion.names(document["redirect_from"], splitOnSpaces: false)
        document["redirect_from"] = nil
        let aliases = redirects.map { $0.hasPrefix("/") ? $0 : "/" + $0 }
        document["aliases"] = aliases.isEmpty ? nil : .list(aliases.map(YAMLValue.string))
        if document["redirect_to"] != nil {
            notes.append(
                ImportNote(
                    path: document.sourcePath, message: "redirect_to is not converted: the page is published as written"
                ))
        }
        if let layout = document["layout"]?.scalarText {
            document["layout"] = nil
            if !["post", "page", "default", "home", "none"].contains(layout) {
                notes.append(
                    ImportNote(
                        path: document.sourcePath,
                        message:
                            "layout '\(layout)' is not converted: Tagflow renders it with its \(document.kind == .post ? "post" : "page") template"
                    ))
            }
        }
        FrontMatterConversion.checkTypes(&document, notes: &notes)
    }

    /// A `slug:` as Jekyll's `:title` writes it (`slugify` in its "pretty" mode, case kept):
    /// runs of characters other than letters, digits and `._~!$&'()+,;=@` become `-`.
    static func prettySlug(_ text: String) -> String {
        FrontMatterConversion.slugified(text, keeping: "._~!$&'()+,;=@", keepingCase: true)
    }

    /// Jekyll's named permalink styles, for posts.
    static func postPattern(_ style: String) -> String {
        switch style {
        case "date": "/:categories/:year/:month/:day/:title:output_ext"
        case "pretty": "/:categories/:year/:month/:day/:title/"
        case "ordinal": "/:categories/:year/:y_day/:title:output_ext"
        case "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext"
        case "none": "/:categories/:title:output_ext"
        default: style
        }
    }

    /// A post's address by a permalink pattern, with the date in the site's zone as Jekyll takes it.
    static func expand(
        _ pattern: String, date: ContentDate, timeZone: TimeZone, title: String, slug: String, categories: [String]
    ) -> String? {
        let fields = date.components(in: timeZone)
        let tokens: [String: String] = [
            "year": String(fields.year), "month": HugoReader.twoDigits(fields.month), "i_month": String(fields.month),
            "day": HugoReader.twoDigits(fields.day), "i_day": String(fields.day),
            "short_year": HugoReader.twoDigits(fields.year % 100),
            "hour": HugoReader.twoDigits(fields.hour), "minute": HugoReader.twoDigits(fields.minute),
            "second": HugoReader.twoDigits(fields.second),
            "title": title, "slug": slug, "name": slug, "categories": categories.joined(separator: "/"),
            "output_ext": ".html",
        ]
        // Longest names first: `:i_month` before `:month`, `:short_year` before `:year`.
        var result = pattern
        for key in tokens.keys.sorted(by: { $0.count > $1.count }) {
            result = result.replacingOccurrences(of: ":" + key, with: tokens[key] ?? "")
        }
        guard !result.contains(":") else { return nil }
        while result.contains("//") { result = result.replacingOccurrences(of: "//", with: "/") }
        return result.hasPrefix("/") ? result : "/" + result
    }

    // MARK: Configuration

    private func settings(_ config: YAMLMapping, into plan: inout ImportPlan) {
        func add(_ key: String, _ value: YAMLValue?, _ comment: String? = nil) {
            guard let value, value != .null, value.scalarText != "" else { return }
            plan.settings.append((key, value, comment))
        }
        add("title", config["title"])
        add(
            "description",
            config["description"].map { .string(($0.scalarText ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) }
        )
        let url = (config["url"]?.scalarText ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let basePath = (config["baseurl"]?.scalarText ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if !url.isEmpty || !basePath.isEmpty {
            add("base_url", .string(url + "/" + (basePath.isEmpty ? "" : basePath + "/")))
        }
        add("language", config["lang"] ?? config["locale"])
        if case .map(let author)? = config["author"] {
            add("author", author["name"])
        } else {
            add("author", config["author"])
        }
        add("timezone", config["timezone"])
        add("posts_per_page", config["paginate"])
        add(
            "markdown.smart_punctuation", .bool(true),
            "Jekyll's Markdown (kramdown) writes typographic quotes and dashes.")
        add("markdown.unsafe", .bool(true), "kramdown keeps HTML written in Markdown.")
    }

    private func noteConfig(_ config: YAMLMapping, configPath: String, into plan: inout ImportPlan) {
        for key in ["theme", "remote_theme"] {
            if let theme = config[key]?.scalarText {
                plan.note(
                    configPath, config.entry(key)?.line,
                    "the theme '\(theme)' is not converted: Tagflow uses its built-in theme; templates/ can replace any of its templates"
                )
            }
        }
        let plugins = FrontMatterConversion.names(config["plugins"] ?? config["gems"], splitOnSpaces: false)
        for plugin in plugins where !Self.pluginsTagflowCovers.contains(plugin) {
            plan.note(
                configPath, (config.entry("plugins") ?? config.entry("gems"))?.line,
                "the plugin '\(plugin)' is not converted")
        }
        for key in ["collections", "defaults"] where config[key] != nil {
            plan.note(configPath, config.entry(key)?.line, "'\(key)' is not converted")
        }
        if let separator = config["excerpt_separator"]?.scalarText, separator != "<!--more-->" {
            plan.note(
                configPath, config.entry("excerpt_separator")?.line,
                "the excerpt separator '\(separator)' is not converted: Tagflow ends a summary at <!--more-->")
        }
    }
}
