import ArgumentParser
import Foundation
import TagflowCore

/// `tagflow new site|post`.
struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new site or post.",
        subcommands: [NewSiteCommand.self, NewPostCommand.self]
    )
}

/// `tagflow new site DIR`.
struct NewSiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "site", abstract: "Create a working starter site.")

    @Argument(help: "The folder to create.", completion: .directory)
    var folder: String

    func run() async throws {
        let url = URL(fileURLWithPath: folder)
        let now = ContentDate(secondsSince1970: Int64(Date().timeIntervalSince1970))
        try Scaffold.newSite(at: url, today: now)
        print("Created a new site in \(url.standardizedFileURL.path).")
        print("Preview it as you write with: tagflow serve \(folder)   (then open http://127.0.0.1:8000/)")
        print("Build it for publishing with: tagflow build \(folder)")
    }
}

/// `tagflow new post "Title"`.
struct NewPostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Create a draft post in SITE/posts/, dated now or --date.")

    @Argument(help: "The post's title.")
    var title: String

    @Option(help: "Comma-separated tags, e.g. --tags swift,layout.")
    var tags: String?

    @Option(
        help: """
            The post's date, in the site's time zone: 2024-03-05, 2024-03-05 09:30 or \
            2024-03-05T09:30:00+01:00 (default: now).
            """)
    var date: String?

    @Option(help: "The site folder.", completion: .directory)
    var site: String = "."

    func validate() throws {
        if title.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("the title must not be empty") }
        if let date, ContentDate.parse(date, timeZone: TimeZone(identifier: "UTC") ?? .current) == nil {
            throw ValidationError(
                "invalid date '\(date)'; write it as 2024-03-05, 2024-03-05 09:30 or 2024-03-05T09:30:00+01:00")
        }
    }

    func run() async throws {
        let siteURL = URL(fileURLWithPath: site)
        var timeZone = TimeZone(identifier: "UTC") ?? .current
        let configURL = siteURL.appendingPathComponent("site.yml")
        if let data = FileManager.default.contents(atPath: configURL.path),
            let text = String(data: data, encoding: .utf8),
            let config = try? SiteConfig.parse(text).0, let zone = ContentDate.timeZone(named: config.timeZone)
        {
            timeZone = zone
        }
        let tagList = (tags ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        var postDate = ContentDate(secondsSince1970: Int64(Date().timeIntervalSince1970))
        if let date {
            // Checked again in the site's time zone, where a local time can fall in a DST gap.
            guard let parsed = ContentDate.parse(date, timeZone: timeZone) else {
                throw ValidationError("invalid date '\(date)' in the site's time zone \(timeZone.identifier)")
            }
            postDate = parsed
        }
        let path = try Scaffold.newPost(in: siteURL, title: title, tags: tagList, date: postDate, timeZone: timeZone)
        print("Created \(siteURL.appendingPathComponent(path).standardizedFileURL.path)")
        print("It is a draft: `tagflow serve --drafts` shows it; remove `draft: true` from it to publish it.")
    }
}
