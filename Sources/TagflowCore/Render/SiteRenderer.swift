import Foundation
import TagflowMarkdown

/// A file of the built site.
public struct OutputFile: Sendable, Hashable {
    /// Path inside the output folder (`posts/hello/index.html`).
    public var path: String
    /// The bytes to write.
    public var contents: [UInt8]

    /// Creates a file from text.
    public init(path: String, text: String) {
        self.path = path
        self.contents = Array(text.utf8)
    }

    /// Creates a file from bytes.
    public init(path: String, contents: [UInt8]) {
        self.path = path
        self.contents = contents
    }
}

/// Turns a ``Site`` into output files with a ``Theme``: every page rendered in parallel, the
/// result sorted by path.
struct SiteRenderer: Sendable {
    let site: Site
    let theme: Theme
    let hooks: PluginContext
    let routes: Routes
    let timeZone: TimeZone

    init(site: Site, theme: Theme, hooks: PluginContext) {
        self.site = site
        self.theme = theme
        self.hooks = hooks
        self.routes = Routes(config: site.config)
        self.timeZone = ContentDate.timeZone(named: site.config.timeZone) ?? TimeZone(identifier: "UTC") ?? .current
    }

    /// One page to render.
    enum Job: Sendable {
        case home(Pagination)
        case post(Int)
        case page(Int)
        case tags
        case tag(Int, Pagination)
        case notFound
        case feed
        case sitemap
    }

    var jobs: [Job] {
        let perPage = site.config.postsPerPage
        var jobs: [Job] = Pagination.pages(itemCount: site.posts.count, perPage: perPage).map(Job.home)
        jobs += site.posts.indices.map(Job.post)
        jobs += site.pages.indices.map(Job.page)
        jobs.append(.tags)
        for (index, tag) in site.taxonomy.tags.enumerated() {
            jobs += Pagination.pages(itemCount: tag.count, perPage: perPage).map { Job.tag(index, $0) }
        }
        jobs += [.notFound, .feed, .sitemap]
        return jobs
    }

    /// Renders every page and asset.
    func render() async -> (files: [OutputFile], diagnostics: [Diagnostic]) {
        let results = await ParallelMap.map(jobs) { job in self.render(job) }
        var files = results.map(\.file)
        let diagnostics = results.flatMap(\.diagnostics)
        for (path, text) in BuiltInTheme.assets { files.append(OutputFile(path: path, text: text)) }
        for (path, bytes) in hooks.assets { files.append(OutputFile(path: path, contents: bytes)) }
        files.sort { $0.path < $1.path }
        return (files, diagnostics)
    }

    func render(_ job: Job) -> (file: OutputFile, diagnostics: [Diagnostic]) {
        switch job {
        case .home(let pagination):
            let path = Pagination.path(of: pagination.page, firstPagePath: Routes.home)
            var context = base(path: path, title: site.config.title, description: site.config.description)
            context["posts"] = pagination.range.map { summary(of: $0) }
            context["pagination"] = paginationContext(pagination, firstPagePath: Routes.home)
            if let html = hooks.tagListRenderer?.html(for: site.taxonomy.tags.map(link), role: .homeCloud) {
                context["cloud_html"] = html
            }
            return (page(path, "home", context), [])
        case .post(let index):
            let post = site.posts[index]
            let path = Routes.post(post.slug)
            var context = base(path: path, title: post.title, description: post.description)
            var details = summary(of: index, role: .post)
            let (content, diagnostics) = contentHTML(post.body, sourcePath: post.sourcePath)
            details["content"] = content
            details["reading_minutes"] = max(1, (post.body.wordCount + 219) / 220)
            if let updated = post.updated {
                details["updated_display"] = updated.displayDay(in: timeZone)
                details["updated_rfc3339"] = updated.rfc3339(in: timeZone)
            }
            if index > 0 { details["newer"] = summary(of: index - 1) }
            if index + 1 < site.posts.count { details["older"] = summary(of: index + 1) }
            details["params"] = Self.templateValue(.map(post.params))
            context["post"] = details
            return (page(path, post.template ?? "post", context), diagnostics)
        case .page(let index):
            let item = site.pages[index]
            let path = Routes.page(item.slug)
            var context = base(path: path, title: item.title, description: item.description)
            let (content, diagnostics) = contentHTML(item.body, sourcePath: item.sourcePath)
            if var details = context["page"] as? [String: Any] {
                details["content"] = content
                details["params"] = Self.templateValue(.map(item.params))
                context["page"] = details
            }
            return (page(path, item.template ?? "page", context), diagnostics)
        case .tags:
            var context = base(path: Routes.tags, title: "Tags", description: "Every tag of \(site.config.title)")
            let links = site.taxonomy.tags.map(link)
            context["tags"] = links.map(tagContext)
            context["tag_count"] = links.count
            context["post_count"] = site.posts.count
            if let html = hooks.tagListRenderer?.html(for: links, role: .cloud) { context["cloud_html"] = html }
            return (page(Routes.tags, "tags", context), [])
        case .tag(let index, let pagination):
            let tag = site.taxonomy.tags[index]
            let firstPage = Routes.tag(tag.slug)
            let path = Pagination.path(of: pagination.page, firstPagePath: firstPage)
            var context = base(
                path: path, title: tag.name, description: "Posts tagged “\(tag.name)” on \(site.config.title)")
            var tagDetails = tagContext(link(tag))
            tagDetails["posts_word"] = tag.count == 1 ? "post" : "posts"
            context["tag"] = tagDetails
            context["posts"] = pagination.range.map { summary(of: tag.postIndices[$0]) }
            context["pagination"] = paginationContext(pagination, firstPagePath: firstPage)
            if let renderer = hooks.tagListRenderer,
                let html = renderer.html(for: relatedTags(of: tag), role: .related(current: tag.key))
            {
                context["related_html"] = html
            }
            return (page(path, "tag", context), [])
        case .notFound:
            let context = base(path: Routes.notFound, title: "Page not found", description: "")
            return (OutputFile(path: "404.html", text: theme.render(context, with: "404")), [])
        case .feed:
            return (OutputFile(path: "feed.xml", text: theme.render(feedContext(), with: "atom")), [])
        case .sitemap:
            return (OutputFile(path: "sitemap.xml", text: theme.render(sitemapContext(), with: "sitemap")), [])
        }
    }

    private func page(_ path: String, _ template: String, _ context: [String: Any]) -> OutputFile {
        OutputFile(path: Routes.file(for: path), text: theme.render(context, with: template))
    }

    // MARK: Contexts

    private func base(path: String, title: String, description: String) -> [String: Any] {
        var page: [String: Any] = ["title": title, "url": routes.url(path), "permalink": routes.permalink(path)]
        // Mustache treats "" as true, so empty optional texts are left out rather than set.
        if !description.isEmpty { page["description"] = description }
        return ["site": siteContext, "page": page]
    }

    private var siteContext: [String: Any] {
        let config = site.config
        var context: [String: Any] = [
            "title": config.title, "language": config.language, "base_url": config.baseURL,
            "base_path": config.basePath,
            "permalink": routes.permalink(Routes.home), "home_url": routes.url(Routes.home),
            "tags_url": routes.url(Routes.tags), "feed_url": routes.url(Routes.feed),
            "css_url": routes.url(Routes.stylesheet),
            "stylesheets": hooks.stylesheets.map { routes.url($0) },
            "pages": site.pages.map { ["title": $0.title, "url": routes.url(Routes.page($0.slug))] },
        ]
        if !config.description.isEmpty { context["description"] = config.description }
        if !config.author.isEmpty { context["author"] = config.author }
        return context
    }

    private func summary(of index: Int, role: TagListRole = .summary) -> [String: Any] {
        let post = site.posts[index]
        let path = Routes.post(post.slug)
        let links = post.tagKeys.compactMap { site.taxonomy[$0] }.map(link)
        var context: [String: Any] = [
            "title": post.title, "url": routes.url(path), "permalink": routes.permalink(path),
            "date_display": post.date.displayDay(in: timeZone), "date_iso": post.date.isoDay(in: timeZone),
            "date_rfc3339": post.date.rfc3339(in: timeZone), "summary": post.summary, "is_draft": post.isDraft,
            "tags": links.map(tagContext), "has_tags": !links.isEmpty,
        ]
        if !links.isEmpty, let html = hooks.tagListRenderer?.html(for: links, role: role) {
            context["tags_html"] = html
        }
        return context
    }

    private func link(_ tag: TagInfo) -> TagLink {
        TagLink(name: tag.name, url: routes.url(Routes.tag(tag.slug)), count: tag.count, key: tag.key)
    }

    private func tagContext(_ link: TagLink) -> [String: Any] {
        ["name": link.name, "url": link.url, "count": link.count]
    }

    /// The tag first, then tags sharing posts with it: most shared first, then by name.
    func relatedTags(of tag: TagInfo) -> [TagLink] {
        var shared: [TagKey: Int] = [:]
        for postIndex in tag.postIndices {
            for key in site.posts[postIndex].tagKeys where key != tag.key { shared[key, default: 0] += 1 }
        }
        let related = shared.sorted { lhs, rhs in lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key < rhs.key }
        return [link(tag)] + related.compactMap { site.taxonomy[$0.key] }.map(link)
    }

    private func paginationContext(_ pagination: Pagination, firstPagePath: String) -> [String: Any] {
        var context: [String: Any] = [
            "page": pagination.page, "page_count": pagination.pageCount, "is_first": pagination.page == 1,
            "has_many": pagination.pageCount > 1,
        ]
        if pagination.page > 1 {
            context["newer_url"] = routes.url(Pagination.path(of: pagination.page - 1, firstPagePath: firstPagePath))
        }
        if pagination.page < pagination.pageCount {
            context["older_url"] = routes.url(Pagination.path(of: pagination.page + 1, firstPagePath: firstPagePath))
        }
        return context
    }

    private func contentHTML(_ body: RenderedMarkdown, sourcePath: String) -> (String, [Diagnostic]) {
        guard !body.embeds.isEmpty else { return (body.html, []) }
        var html = body.html
        var diagnostics: [Diagnostic] = []
        for embed in body.embeds {
            guard let renderer = hooks.embedRenderers[embed.language] else { continue }
            do {
                html = html.replacingOccurrences(of: embed.placeholder, with: try renderer.html(for: embed))
            } catch var error as TagflowError {
                if error.location == nil {
                    error.location = SourceLocation(path: sourcePath, line: embed.line, column: 1)
                }
                diagnostics.append(Diagnostic(.error, error))
            } catch {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        TagflowError(
                            location: SourceLocation(path: sourcePath, line: embed.line, column: 1), step: "render",
                            message: "```\(embed.language) block: \(error)", underlying: error)))
            }
        }
        return (html, diagnostics)
    }

    private func feedContext() -> [String: Any] {
        let entries = site.posts.filter { !$0.isDraft }.prefix(site.config.feedEntries)
        let updated = entries.map { $0.updated ?? $0.date }.max() ?? ContentDate(secondsSince1970: 0)
        return [
            "site": siteContext,
            "feed": [
                "permalink": routes.permalink(Routes.feed), "updated": updated.rfc3339(in: timeZone),
                "author": site.config.author.isEmpty ? site.config.title : site.config.author,
            ] as [String: Any],
            "entries": entries.map { post -> [String: Any] in
                let path = Routes.post(post.slug)
                return [
                    "title": post.title, "permalink": routes.permalink(path),
                    "date_rfc3339": post.date.rfc3339(in: timeZone),
                    "updated_rfc3339": (post.updated ?? post.date).rfc3339(in: timeZone), "summary": post.summary,
                    "content": contentHTML(post.body, sourcePath: post.sourcePath).0,
                    "tags": post.tagKeys.compactMap { site.taxonomy[$0] }.map { ["name": $0.name] },
                ]
            },
        ]
    }

    private func sitemapContext() -> [String: Any] {
        var urls: [[String: Any]] = [["loc": routes.permalink(Routes.home)]]
        for post in site.posts where !post.isDraft {
            urls.append([
                "loc": routes.permalink(Routes.post(post.slug)),
                "lastmod": (post.updated ?? post.date).isoDay(in: timeZone),
            ])
        }
        for page in site.pages { urls.append(["loc": routes.permalink(Routes.page(page.slug))]) }
        urls.append(["loc": routes.permalink(Routes.tags)])
        for tag in site.taxonomy.tags { urls.append(["loc": routes.permalink(Routes.tag(tag.slug))]) }
        return ["urls": urls]
    }

    /// Front matter values as plain Swift values for Mustache.
    static func templateValue(_ value: YAMLValue) -> Any {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .int(let number): return number
        case .double(let number): return number
        case .string(let text): return text
        case .list(let items): return items.map(templateValue)
        case .map(let mapping):
            var dictionary: [String: Any] = [:]
            for entry in mapping.entries { dictionary[entry.key] = templateValue(entry.value) }
            return dictionary
        }
    }
}
