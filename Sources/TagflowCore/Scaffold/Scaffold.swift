package import Foundation
import TagflowMarkdown

/// Writes new sites and posts for `tagflow new`.
package enum Scaffold {
    /// Creates a working starter site in `folder`, which must not exist or be empty.
    ///
    /// - Parameters:
    ///   - folder: Where to create it.
    ///   - today: The date of the welcome post.
    /// - Returns: The files written, relative to `folder`.
    /// - Throws: ``TagflowError`` when the folder is not empty, or a file system error.
    @discardableResult
    package static func newSite(at folder: URL, today: ContentDate) throws -> [String] {
        let manager = FileManager.default
        if let contents = try? manager.contentsOfDirectory(atPath: folder.path), !contents.isEmpty {
            throw TagflowError(
                location: SourceLocation(path: folder.path), step: "new", message: "folder is not empty",
                hint: "choose a new folder name")
        }
        let day = today.isoDay(in: TimeZone(identifier: "UTC") ?? .current)
        let files: [(String, String)] = [
            ("site.yml", starterConfig),
            ("posts/\(day)-hello-tagflow.md", welcomePost(day: day)),
            ("pages/about.md", "---\ntitle: About\n---\n\nWrite something about yourself here.\n"),
            ("static/.gitkeep", ""),
            ("templates/.gitkeep", ""),
            (".gitignore", "_site/\n.tagflow-cache/\n._site.tagflow-lock\n"),
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return files.map(\.0)
    }

    /// Writes a new post `posts/YYYY-MM-DD-slug.md` in `site`.
    ///
    /// - Returns: The new file's path relative to `site`.
    /// - Throws: ``TagflowError`` when a post with that file name exists (nothing is overwritten).
    @discardableResult
    package static func newPost(in site: URL, title: String, tags: [String], date: ContentDate, timeZone: TimeZone)
        throws -> String
    {
        let slug = Slug(from: title)
        let path = "posts/\(date.isoDay(in: timeZone))-\(slug.rawValue).md"
        let url = site.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: url.path) {
            throw TagflowError(
                location: SourceLocation(path: path), step: "new", message: "a post with this file name already exists",
                hint: "choose another title, or edit the existing post")
        }
        var text = "---\ntitle: \(YAMLWriter.quoted(title))\ndate: \(date.rfc3339(in: timeZone))\n"
        if !tags.isEmpty { text += "tags: [\(tags.map(YAMLWriter.quoted).joined(separator: ", "))]\n" }
        text += "draft: true\n---\n\nStart writing here. Remove `draft: true` when the post is ready.\n"
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return path
    }

    static let starterConfig = """
        # Tagflow site settings. Every key is optional; see docs/configuration.md in Tagflow's repository.
        title: My Blog
        description: Notes on things I care about.
        base_url: https://example.org/
        language: en
        author: Your Name
        timezone: UTC            # for dates written without a time zone
        posts_per_page: 10

        paths:
          content: .             # holds posts/ and pages/
          templates: templates   # your .mustache files override the built-in theme by name
          static: static         # copied into the site as is
          output: _site

        markdown:
          unsafe: false          # true keeps raw HTML written in posts

        """

    static func welcomePost(day: String) -> String {
        """
        ---
        title: Hello, Tagflow
        tags: [meta, Tagflow]
        summary: The first post of a new blog.
        ---

        This is your first post. Edit it in `posts/`, or add one with:

        ```bash
        tagflow new post "My next post" --tags swift,layout
        ```

        Preview the site with `tagflow serve`, which rebuilds it and reloads the page as you write
        (`tagflow serve --drafts` shows drafts too); `tagflow build` writes it into `_site/` for
        publishing.

        """
    }
}
