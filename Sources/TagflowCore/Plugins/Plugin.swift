public import Foundation
public import TagflowMarkdown

/// Extends a build: a name plus an installer that runs once, after the config is read and before
/// content is loaded.
///
/// ```swift
/// let shout = Plugin(name: "shout") { context in
///     context.embedRenderers["shout"] = ShoutRenderer()   // ```shout fenced blocks
/// }
/// try await SiteBuilder(siteRoot: url, plugins: [shout]).build(to: output)
/// ```
public struct Plugin: Sendable {
    /// The plugin's name, used in messages.
    public let name: String
    let install: @Sendable (inout PluginContext) throws -> Void

    /// Creates a plugin.
    public init(name: String, install: @escaping @Sendable (inout PluginContext) throws -> Void) {
        self.name = name
        self.install = install
    }
}

/// What a plugin can change.
public struct PluginContext: Sendable {
    /// The site's settings (read-only for plugins).
    public let config: SiteConfig
    /// The site folder.
    public let siteRoot: URL
    /// Renders every list of tags (a post's tags, the tag cloud, related tags) instead of the
    /// templates' plain list.
    public var tagListRenderer: (any TagListRenderer)?
    /// Renders fenced code blocks by info string (`chips`) instead of showing them as code.
    public var embedRenderers: [String: any EmbedRenderer] = [:]
    /// Extra files for the output, by output path (`assets/chips.css`).
    public var assets: [String: [UInt8]] = [:]
    /// Extra stylesheet URLs (site-relative, `/assets/chips.css`) linked from every page.
    public var stylesheets: [String] = []
    /// Warnings and errors found while installing.
    public var diagnostics: [Diagnostic] = []

    init(config: SiteConfig, siteRoot: URL) {
        self.config = config
        self.siteRoot = siteRoot
    }
}

/// A tag as a link, the unit of every tag list.
public struct TagLink: Sendable, Hashable {
    /// The name shown.
    public var name: String
    /// The tag page's URL (site-relative, percent-encoded).
    public var url: String
    /// Published posts with this tag.
    public var count: Int
    /// The tag's identity.
    public var key: TagKey
}

/// Where a list of tags is shown.
public enum TagListRole: Sendable, Hashable {
    /// A post's tags on its page.
    case post
    /// A post's tags in a list of posts (home, tag pages).
    case summary
    /// Every tag, on `/tags/`.
    case cloud
    /// Tags sharing posts with a tag, on that tag's page.
    case related(current: TagKey)
    /// Every tag, collapsed, on the home page.
    case homeCloud
    /// The tags right under a tag (`tags.hierarchy`), on that tag's page, each named by its last
    /// level.
    case children(of: TagLink)
    /// The names of a taxonomy besides tags (`categories`), named by its `title`: a post's, or
    /// every name with `counts` on the taxonomy's list page.
    case terms(title: String, counts: Bool)
}

/// Turns a list of tags into HTML.
public protocol TagListRenderer: Sendable {
    /// The HTML for `tags` shown as `role`, or `nil` to leave this list to the templates.
    func html(for tags: [TagLink], role: TagListRole) -> String?

    /// Whether a post's page shows its tags exactly as lists of posts do: `html(for:role:)` gives
    /// the same for ``TagListRole/post`` as for ``TagListRole/summary``. Then a post's page reuses
    /// the list's drawing instead of drawing it again. The default is `false`.
    var drawsPostsAsSummaries: Bool { get }

    /// Whether ``TagListRole/post`` and ``TagListRole/summary`` blocks show the tags' counts
    /// (``TagLink/count``). When they do not, `tagflow serve` does not draw again every post with
    /// a tag whose count changed. The default is `true`.
    var drawsCountsInPostLists: Bool { get }
}

extension TagListRenderer {
    /// `false`: a post's page draws its tags itself.
    public var drawsPostsAsSummaries: Bool { false }

    /// `true`: a post's tags may be drawn with their counts.
    public var drawsCountsInPostLists: Bool { true }
}

/// Turns a fenced block (say ```` ```chips ````) into HTML.
public protocol EmbedRenderer: Sendable {
    /// The HTML to show instead of the block.
    ///
    /// - Throws: ``TagflowError`` (its location is filled in from the block when missing).
    func html(for embed: MarkdownEmbed) throws -> String
}
