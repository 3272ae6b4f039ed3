package import TagflowMarkdown

/// A blog post: a Markdown file under `posts/`, with its front matter read and its body rendered.
///
/// A value like any other: a copy changed leaves the original as it was. Its fields live in one
/// shared box, copied only when a copy is changed, because a post is copied into every list that
/// holds it: copying sixteen references (a retain each) per copy was a measurable share of a large
/// build, much of it on one core between reading and rendering.
package struct Post: Sendable, Hashable {
    private var storage: Storage

    /// The file, relative to the site folder (`posts/2024-03-05-hello.md`).
    package var sourcePath: String {
        get { storage.fields.sourcePath }
        _modify {
            makeUnique()
            yield &storage.fields.sourcePath
        }
    }
    /// The title.
    package var title: String {
        get { storage.fields.title }
        _modify {
            makeUnique()
            yield &storage.fields.title
        }
    }
    /// When it was published.
    package var date: ContentDate {
        get { storage.fields.date }
        _modify {
            makeUnique()
            yield &storage.fields.date
        }
    }
    /// When it was last changed, if the author said.
    package var updated: ContentDate? {
        get { storage.fields.updated }
        _modify {
            makeUnique()
            yield &storage.fields.updated
        }
    }
    /// The last segment of its URL (`/posts/<slug>/`).
    package var slug: Slug {
        get { storage.fields.slug }
        _modify {
            makeUnique()
            yield &storage.fields.slug
        }
    }
    /// Its tags as written (white space tidied), in the author's order, one per tag identity.
    package var tags: [String] {
        get { storage.fields.tags }
        set {
            makeUnique()
            storage.fields.tags = newValue
            storage.fields.tagKeys = newValue.map(TagKey.init)
        }
    }
    /// Not published unless drafts are asked for.
    package var isDraft: Bool {
        get { storage.fields.isDraft }
        _modify {
            makeUnique()
            yield &storage.fields.isDraft
        }
    }
    /// Dated after the build's time: published only with `--future`.
    ///
    /// Set when the post is read.
    package var isScheduled: Bool {
        get { storage.fields.isScheduled }
        _modify {
            makeUnique()
            yield &storage.fields.isScheduled
        }
    }
    /// A draft or a scheduled post: in the site only because the build asked for them, and then
    /// left out of the feed and the sitemap.
    package var isUnreleased: Bool { isDraft || isScheduled }
    /// The author's summary, or the first paragraph.
    package var summary: String {
        get { storage.fields.summary }
        _modify {
            makeUnique()
            yield &storage.fields.summary
        }
    }
    /// The author's description for metadata, or the summary.
    package var description: String {
        get { storage.fields.description }
        _modify {
            makeUnique()
            yield &storage.fields.description
        }
    }
    /// A template to render it with instead of `post`.
    package var template: String? {
        get { storage.fields.template }
        _modify {
            makeUnique()
            yield &storage.fields.template
        }
    }
    /// Every other front matter key, for templates (`{{params.series}}`).
    package var params: YAMLMapping {
        get { storage.fields.params }
        _modify {
            makeUnique()
            yield &storage.fields.params
        }
    }
    /// The rendered body.
    package var body: ContentBody {
        get { storage.fields.body }
        _modify {
            makeUnique()
            yield &storage.fields.body
        }
    }

    /// The tag identities, in the same order as ``tags``; kept, because every list of posts needs them.
    package var tagKeys: [TagKey] { storage.fields.tagKeys }
    /// Where the front matter lists the tags, for messages about them.
    package var tagsLocation: SourceLocation? {
        get { storage.fields.tagsLocation }
        _modify {
            makeUnique()
            yield &storage.fields.tagsLocation
        }
    }

    /// Whether its page shows a table of contents (`toc:`); `nil` follows `markdown.toc`.
    package var showsTableOfContents: Bool? {
        get { storage.fields.showsTableOfContents }
        _modify {
            makeUnique()
            yield &storage.fields.showsTableOfContents
        }
    }

    /// Its old addresses (`aliases:`), as site paths (`/2019/05/03/hello.html`): each becomes a
    /// page that sends readers here.
    package var aliases: [String] {
        get { storage.fields.aliases }
        _modify {
            makeUnique()
            yield &storage.fields.aliases
        }
    }

    /// Its own language (`lang:`), when it is not written in the site's: its page's `lang`.
    package var language: String? {
        get { storage.fields.language }
        _modify {
            makeUnique()
            yield &storage.fields.language
        }
    }

    /// The series it belongs to (`series:`), and its part.
    package var series: PostSeries? {
        get { storage.fields.series }
        _modify {
            makeUnique()
            yield &storage.fields.series
        }
    }

    /// Its names in each of the site's other taxonomies (`categories: [Guides]`), by taxonomy, and
    /// where each is written.
    package var terms: PostTerms {
        get { storage.fields.terms }
        _modify {
            makeUnique()
            yield &storage.fields.terms
        }
    }

    /// Creates a post.
    package init(
        sourcePath: String, title: String, date: ContentDate, updated: ContentDate?, slug: Slug, tags: [String],
        isDraft: Bool, summary: String, description: String, template: String?, params: YAMLMapping,
        body: ContentBody, tagsLocation: SourceLocation? = nil, showsTableOfContents: Bool? = nil,
        aliases: [String] = [], language: String? = nil, series: PostSeries? = nil, terms: PostTerms = PostTerms()
    ) {
        storage = Storage(
            Fields(
                sourcePath: sourcePath, title: title, date: date, updated: updated, slug: slug, tags: tags,
                isDraft: isDraft, summary: summary, description: description, template: template, params: params,
                body: body, tagKeys: tags.map(TagKey.init), tagsLocation: tagsLocation,
                showsTableOfContents: showsTableOfContents, aliases: aliases, language: language, series: series,
                terms: terms))
    }

    package static func == (lhs: Post, rhs: Post) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }

    /// Gives this copy a box of its own before it is changed, unless it is the box's only holder.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// Every field of a post.
    private struct Fields: Hashable {
        var sourcePath: String
        var title: String
        var date: ContentDate
        var updated: ContentDate?
        var slug: Slug
        var tags: [String]
        var isDraft: Bool
        var summary: String
        var description: String
        var template: String?
        var params: YAMLMapping
        var body: ContentBody
        var tagKeys: [TagKey]
        var tagsLocation: SourceLocation?
        var showsTableOfContents: Bool?
        var aliases: [String]
        var language: String?
        var series: PostSeries?
        var terms: PostTerms
        var isScheduled = false
    }

    /// The box: its fields change only through a post that holds it alone (``makeUnique()``).
    private final class Storage: @unchecked Sendable {
        // @unchecked: `fields` is written only by the one post holding this box (copy on write),
        // and read freely otherwise.
        var fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }
}

/// A page that is not a post (`pages/about.md` → `/about/`).
package struct Page: Sendable, Hashable {
    /// The file, relative to the site folder.
    package var sourcePath: String
    /// The title.
    package var title: String
    /// Its URL segment.
    package var slug: Slug
    /// For page metadata.
    package var description: String
    /// A template to render it with instead of `page`.
    package var template: String?
    /// Every other front matter key.
    package var params: YAMLMapping
    /// The rendered body.
    package var body: ContentBody
    /// Its old addresses (`aliases:`), as site paths; each becomes a page that sends readers here.
    package var aliases: [String] = []
    /// Its own language (`lang:`), when it is not written in the site's.
    package var language: String?
}

/// A post's names in the site's taxonomies besides tags (``SiteConfig/taxonomies``).
package struct PostTerms: Sendable, Hashable {
    /// Taxonomy name → the names the post gives, cleaned and each once, in its order.
    package var names: [String: [String]] = [:]
    /// Taxonomy name → where the front matter lists them, for messages.
    package var locations: [String: SourceLocation] = [:]

    package init(names: [String: [String]] = [:], locations: [String: SourceLocation] = [:]) {
        self.names = names
        self.locations = locations
    }

    /// The names the post gives in one taxonomy.
    package subscript(taxonomy: String) -> [String] { names[taxonomy] ?? [] }
}
