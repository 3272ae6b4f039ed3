public import TagflowMarkdown

/// A blog post: a Markdown file under `posts/`, with its front matter read and its body rendered.
public struct Post: Sendable, Hashable {
    /// The file, relative to the site folder (`posts/2024-03-05-hello.md`).
    public var sourcePath: String
    /// The title.
    public var title: String
    /// When it was published.
    public var date: ContentDate
    /// When it was last changed, if the author said.
    public var updated: ContentDate?
    /// The last segment of its URL (`/posts/<slug>/`).
    public var slug: Slug
    /// Its tags as written (white space tidied), in the author's order, one per tag identity.
    public var tags: [String] { didSet { tagKeys = tags.map(TagKey.init) } }
    /// Not published unless drafts are asked for.
    public var isDraft: Bool
    /// The author's summary, or the first paragraph.
    public var summary: String
    /// The author's description for metadata, or the summary.
    public var description: String
    /// A template to render it with instead of `post`.
    public var template: String?
    /// Every other front matter key, for templates (`{{params.series}}`).
    public var params: YAMLMapping
    /// The rendered body.
    public var body: RenderedMarkdown

    /// The tag identities, in the same order as ``tags``; kept, because every list of posts needs them.
    public private(set) var tagKeys: [TagKey]
    /// Where the front matter lists the tags, for messages about them.
    public var tagsLocation: SourceLocation?

    /// Creates a post.
    public init(
        sourcePath: String, title: String, date: ContentDate, updated: ContentDate?, slug: Slug, tags: [String],
        isDraft: Bool, summary: String, description: String, template: String?, params: YAMLMapping,
        body: RenderedMarkdown, tagsLocation: SourceLocation? = nil
    ) {
        self.sourcePath = sourcePath
        self.title = title
        self.date = date
        self.updated = updated
        self.slug = slug
        self.tags = tags
        self.tagKeys = tags.map(TagKey.init)
        self.isDraft = isDraft
        self.summary = summary
        self.description = description
        self.template = template
        self.params = params
        self.body = body
        self.tagsLocation = tagsLocation
    }
}

/// A page that is not a post (`pages/about.md` → `/about/`).
public struct Page: Sendable, Hashable {
    /// The file, relative to the site folder.
    public var sourcePath: String
    /// The title.
    public var title: String
    /// Its URL segment.
    public var slug: Slug
    /// For page metadata.
    public var description: String
    /// A template to render it with instead of `page`.
    public var template: String?
    /// Every other front matter key.
    public var params: YAMLMapping
    /// The rendered body.
    public var body: RenderedMarkdown
}
