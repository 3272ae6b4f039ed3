import Foundation
import TagflowCore
import TagflowMarkdown
import TagflowTesting
import Testing

@testable import TagflowImport

/// `tagflow import`: Hugo and Jekyll sites come over with their posts, dates, tags, links and
/// addresses, and what cannot be converted is listed.
@Suite struct SiteImporterTests {
    /// Imports the fixture's site into `imported/` beside it, and builds the result.
    static func imported(
        _ fixture: SiteFixture, _ generator: SourceGenerator, options: ImportOptions = ImportOptions()
    ) async throws -> (report: ImportReport, site: URL, built: BuildReport) {
        let destination = fixture.root.appendingPathComponent("imported")
        let before = folderContents(fixture.site)
        let report = try SiteImporter(
            generator: generator, source: fixture.site, destination: destination, options: options
        )
        .run()
        #expect(folderContents(fixture.site) == before, "the source site is only read")
        let built = try await SiteBuilder(siteRoot: destination).build(to: fixture.output)
        return (report, destination, built)
    }

    static func frontMatter(_ site: URL, _ path: String) throws -> YAMLMapping {
        let text = try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
        return try FrontMatterSplit(splitting: text).mapping()
    }

    static func body(_ site: URL, _ path: String) throws -> String {
        try FrontMatterSplit(splitting: String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)).body
    }

    /// A redirect page's target.
    static func redirectTarget(_ fixture: SiteFixture, _ file: String) throws -> String? {
        let page = try fixture.output(file)
        guard let range = page.range(of: "content=\"0; url=") else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    static let hugoSite = """
        -- hugo.toml --
        baseURL = 'https://example.org/blog/'
        languageCode = 'en-gb'
        title = 'Field Notes'
        theme = 'ananke'
        timeZone = 'Europe/Berlin'
        [params]
          description = 'Notes from the field'
          mainSections = ['post']
        [permalinks]
          post = '/:year/:month/:slug/'
        -- content/post/first.md --
        +++
        title = 'First: a start'
        date = 2024-03-05T09:30:00+01:00
        lastmod = 2024-03-06
        tags = ['Swift', 'Layout']
        categories = ['Dev']
        draft = false
        +++
        See [the trip]({{< ref "trip" >}}), [the team]({{< relref "/about.md#team" >}}) and [a gap]({{< ref "missing.md" >}}).

        {{< highlight swift "linenos=table,hl_lines=2" >}}
        let a = 1
        let b = 2
        {{< /highlight >}}

        {{< figure src="/img/cat.jpg" alt="A cat" caption="Our cat" >}}

        {{< youtube abc123 >}}

        Written as text: {{</* youtube xyz */>}}
        -- content/post/trip/index.md --
        ---
        title: A trip
        date: 2024-04-01
        slug: kyoto
        aliases: [old-trip, /trips/kyoto/]
        tags: Travel, Japan
        ---
        ![The beach](beach.jpg)
        -- content/post/trip/beach.jpg --
        jpeg
        -- content/post/undated.md --
        ---
        title: Undated
        ---
        No date.
        -- content/post/_index.md --
        ---
        title: Posts
        ---
        -- content/about.md --
        ---
        title: About
        ---
        ## Team
        -- content/projects/tags.md --
        ---
        title: Tag tools
        ---
        A page named like Tagflow's own.
        -- content/projects/about.md --
        ---
        title: About the projects
        ---
        Same name as the other about.
        -- content/notes.org --
        * Org
        -- static/img/cat.jpg --
        jpeg
        -- layouts/_default/single.html --
        <h1>{{ .Title }}</h1>
        """

    @Test func aHugoSiteComesOverWithItsAddresses() async throws {
        let fixture = try SiteFixture(Self.hugoSite)
        defer { fixture.remove() }
        let (report, site, built) = try await Self.imported(fixture, .hugo)
        #expect(built.warnings.filter { $0.severity == .error }.isEmpty)
        #expect(report.postCount == 3 && report.draftCount == 1 && report.pageCount == 3)

        let first = try Self.frontMatter(site, "posts/first.md")
        #expect(first["title"] == .string("First: a start"))
        #expect(first["date"] == .string("2024-03-05T09:30:00+01:00"))
        #expect(first["updated"] == .string("2024-03-06"))
        #expect(first["tags"] == .list([.string("Swift"), .string("Layout")]))
        #expect(first["categories"] == .list([.string("Dev")]))
        #expect(first["aliases"] == .list([.string("/2024/03/first-a-start/")]))
        #expect(first["lastmod"] == nil)
        let body = try Self.body(site, "posts/first.md")
        #expect(body.contains("[the trip](trip/index.md)"))
        #expect(body.contains("[the team](../pages/about.md#team)"))
        #expect(body.contains(#"[a gap]({{< ref "missing.md" >}})"#))
        #expect(body.contains("```swift {linenos, 2}\nlet a = 1\nlet b = 2\n```"))
        #expect(body.contains(#"![A cat](/img/cat.jpg "Our cat")"#))
        #expect(body.contains("{{< youtube abc123 >}}"))
        #expect(body.contains("Written as text: {{< youtube xyz >}}"))

        // The bundle keeps its folder and file; its slug, and relative aliases from its old folder.
        let trip = try Self.frontMatter(site, "posts/trip/index.md")
        #expect(trip["tags"] == .list([.string("Travel"), .string("Japan")]))
        #expect(
            trip["aliases"]
                == .list([.string("/2024/04/old-trip/"), .string("/trips/kyoto/"), .string("/2024/04/kyoto/")]))
        #expect(
            FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("posts/kyoto/beach.jpg").path))
        // A post Tagflow cannot date becomes a draft dated by its file, and says so.
        #expect(try Self.frontMatter(site, "posts/undated.md")["draft"] == .bool(true))

        // Every old address leads to the new one.
        #expect(try Self.redirectTarget(fixture, "2024/03/first-a-start/index.html") == "/blog/posts/first/")
        #expect(try Self.redirectTarget(fixture, "2024/04/old-trip/index.html") == "/blog/posts/kyoto/")
        #expect(try Self.redirectTarget(fixture, "projects/tags/index.html") == "/blog/tags-page/")
        #expect(try Self.redirectTarget(fixture, "projects/about/index.html") == "/blog/about-2/")
        let firstPage = try fixture.output("posts/first/index.html")
        #expect(firstPage.contains(#"href="/blog/about/#team""#), "\(firstPage)")
        #expect(try fixture.output("img/cat.jpg") == "jpeg\n")

        let settings = try String(contentsOf: site.appendingPathComponent("site.yml"), encoding: .utf8)
        let config = try YAMLReader.mapping(from: settings)
        #expect(config["title"] == .string("Field Notes"))
        #expect(config["base_url"] == .string("https://example.org/blog/"))
        #expect(config["language"] == .string("en-gb"))
        #expect(config["description"] == .string("Notes from the field"))
        #expect(config["timezone"] == .string("Europe/Berlin"))

        let notes = report.notes.map(\.description)
        #expect(notes.contains("content/post/first.md:18: shortcode 'youtube' is not converted; left as written"))
        #expect(
            notes.contains("content/post/first.md:9: ref 'missing.md' names no page that was imported; left as written")
        )
        #expect(notes.contains { $0.hasPrefix("hugo.toml:4: the theme (ananke) is not converted") })
        #expect(notes.contains { $0.hasPrefix("content/post/_index.md: a section's list page") })
        #expect(notes.contains("content/notes.org: not imported: Tagflow reads Markdown, not .org"))
        #expect(notes.contains { $0.hasPrefix("content/post/undated.md: no date Tagflow reads: imported as a draft") })
        #expect(notes.contains { $0.hasPrefix("content/projects/tags.md: Tagflow writes its own pages at /tags/") })
        #expect(notes.contains { $0.hasPrefix("layouts/: not converted") })
        let listed = try String(contentsOf: site.appendingPathComponent("import-notes.txt"), encoding: .utf8)
        #expect(notes.allSatisfy(listed.contains))
    }

    static let jekyllSite = """
        -- _config.yml --
        title: Jekyll Notes
        url: https://example.org
        baseurl: /notes
        timezone: America/Los_Angeles
        theme: minima
        plugins:
          - jekyll-feed
          - jekyll-gist
        exclude: [scripts/]
        -- scripts/deploy.sh --
        echo deploy
        -- _posts/2024-01-02-other.md --
        ---
        layout: post
        title: Other
        categories: Swift Apple
        tags: layout flow
        ---
        Other.
        -- _posts/2024-03-05-hello-world.markdown --
        ---
        title: Hello
        date: 2024-03-05 23:30:00 -0800
        tags: [Flow]
        redirect_from: /hello/
        ---
        See [the other]({% post_url 2024-01-02-other %}), [about]({{ site.baseurl }}{% link about.md %}),
        ![logo]({{ "/assets/logo.png" | relative_url }}).

        {% highlight ruby linenos %}
        puts 1
        {% endhighlight %}

        {% raw %}{{ not liquid }}{% endraw %}
        {% include note.html %}
        -- news/_posts/2024-04-01-item.md --
        ---
        title: Item
        category: Breaking
        ---
        N.
        -- _posts/2024-04-02-fixed.md --
        ---
        title: Fixed
        permalink: /custom/:year/:title/
        ---
        F.
        -- _drafts/wip.md --
        ---
        title: Work in progress
        ---
        W.
        -- about.md --
        ---
        layout: page
        title: About
        permalink: /about/
        ---
        About.
        -- contact.md --
        ---
        title: Contact
        ---
        Write.
        -- index.md --
        ---
        layout: home
        ---
        -- assets/logo.png --
        png
        -- _layouts/post.html --
        {{ content }}
        -- Gemfile --
        source "https://rubygems.org"
        """

    @Test func aJekyllSiteComesOverWithItsAddresses() async throws {
        let fixture = try SiteFixture(Self.jekyllSite)
        defer { fixture.remove() }
        let (report, site, _) = try await Self.imported(fixture, .jekyll)
        #expect(report.postCount == 5 && report.draftCount == 1 && report.pageCount == 2)

        let other = try Self.frontMatter(site, "posts/2024-01-02-other.md")
        #expect(other["tags"] == .list([.string("layout"), .string("flow")]))
        #expect(other["categories"] == .list([.string("Swift"), .string("Apple")]))
        #expect(other["layout"] == nil)
        #expect(other["aliases"] == .list([.string("/swift/apple/2024/01/02/other.html")]))
        // The date is in the site's zone, as Jekyll takes it for the address.
        let hello = try Self.frontMatter(site, "posts/2024-03-05-hello-world.markdown")
        #expect(hello["aliases"] == .list([.string("/hello/"), .string("/2024/03/05/hello-world.html")]))
        let body = try Self.body(site, "posts/2024-03-05-hello-world.markdown")
        #expect(body.contains("[the other](2024-01-02-other.md), [about](../pages/about.md)"))
        #expect(body.contains("![logo](/assets/logo.png)"))
        #expect(body.contains("```ruby {linenos}\nputs 1\n```"))
        #expect(body.contains("{{ not liquid }}"))
        #expect(body.contains("{% include note.html %}"))
        #expect(
            try Self.frontMatter(site, "posts/news/2024-04-01-item.md")["aliases"]
                == .list([.string("/news/breaking/2024/04/01/item.html")]))
        #expect(try Self.frontMatter(site, "posts/wip.md")["draft"] == .bool(true))
        #expect(try Self.frontMatter(site, "pages/contact.md")["aliases"] == .list([.string("/contact.html")]))

        #expect(try Self.redirectTarget(fixture, "swift/apple/2024/01/02/other.html") == "/notes/posts/other/")
        #expect(try Self.redirectTarget(fixture, "custom/2024/fixed/index.html") == "/notes/posts/fixed/")
        #expect(try Self.redirectTarget(fixture, "contact.html") == "/notes/contact/")
        #expect(!FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("posts/wip").path))
        #expect(try fixture.output("posts/hello-world/index.html").contains(#"href="/notes/posts/other/""#))
        #expect(try fixture.output("assets/logo.png") == "png\n")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("static/scripts").path))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("static/Gemfile").path))

        let config = try YAMLReader.mapping(
            from: String(contentsOf: site.appendingPathComponent("site.yml"), encoding: .utf8))
        #expect(config["base_url"] == .string("https://example.org/notes/"))
        #expect(config["timezone"] == .string("America/Los_Angeles"))

        let notes = report.notes.map(\.description)
        #expect(
            notes.contains(
                "_posts/2024-03-05-hello-world.markdown:15: Liquid tag 'include' is not converted; left as written"))
        #expect(notes.contains { $0.hasPrefix("_config.yml:5: the theme 'minima'") })
        #expect(notes.contains("_config.yml:6: the plugin 'jekyll-gist' is not converted"))
        #expect(notes.contains { $0.hasPrefix("_layouts/: not converted") })
        #expect(notes.contains { $0.hasPrefix("index.md: not converted: Tagflow writes its own home page") })
        #expect(!notes.contains { $0.contains("Gemfile") || $0.contains("jekyll-feed") })
    }

    @Test func categoriesBecomeTagsWhenAsked() async throws {
        let fixture = try SiteFixture(Self.jekyllSite)
        defer { fixture.remove() }
        let (_, site, _) = try await Self.imported(fixture, .jekyll, options: ImportOptions(categoriesAsTags: true))
        let other = try Self.frontMatter(site, "posts/2024-01-02-other.md")
        #expect(other["tags"] == .list([.string("layout"), .string("flow"), .string("Swift"), .string("Apple")]))
        #expect(other["categories"] == nil)
        #expect(try fixture.output("tags/apple/index.html").contains("Other"))
    }

    @Test func theNewSiteIsAFolderOfItsOwnAndNothingIsLeftOnFailure() throws {
        let fixture = try SiteFixture(Self.jekyllSite)
        defer { fixture.remove() }
        func failure(_ generator: SourceGenerator, _ source: URL, _ destination: URL) -> String? {
            do {
                _ = try SiteImporter(generator: generator, source: source, destination: destination).run()
                return nil
            } catch {
                return error.message
            }
        }
        let inside = fixture.site.appendingPathComponent("tagflow")
        #expect(failure(.jekyll, fixture.site, inside)?.contains("cannot be inside the jekyll site") == true)
        #expect(!FileManager.default.fileExists(atPath: inside.path))
        let full = fixture.root.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: full.appendingPathComponent("keep.txt"))
        #expect(failure(.jekyll, fixture.site, full)?.contains("already exists and is not empty") == true)
        #expect(try String(contentsOf: full.appendingPathComponent("keep.txt"), encoding: .utf8) == "mine")
        let elsewhere = fixture.root.appendingPathComponent("new")
        #expect(failure(.hugo, fixture.site, elsewhere)?.contains("is it a Hugo site?") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).sorted() == ["full", "site"])
    }

    @Test(arguments: [
        ("date", "/swift/apple/2024/03/06/Hello_World!.html"),
        ("pretty", "/swift/apple/2024/03/06/Hello_World!/"),
        ("none", "/swift/apple/Hello_World!.html"),
        ("/:year/:i_month/:slug/", "/2024/3/hello-world/"),
        ("/blog/:short_year/:day/:title:output_ext", "/blog/24/06/Hello_World!.html"),
    ])
    func jekyllPermalinksAreFollowed(style: String, path: String) {
        // 23:30 at -08:00 is the next day in UTC, the zone the address is made in.
        let date = ContentDate.parse("2024-03-05 23:30:00 -0800", timeZone: TimeZone(identifier: "UTC")!)!
        let expanded = JekyllReader.expand(
            JekyllReader.postPattern(style), date: date, timeZone: TimeZone(identifier: "UTC")!,
            title: "Hello_World!", slug: FrontMatterConversion.slugified("Hello_World!"),
            categories: ["swift", "apple"])
        #expect(expanded == path)
    }

    @Test func shortcodeArgumentsAreReadAsHugoWritesThem() {
        let arguments = HugoShortcodes.arguments(#"figure src="/a b.jpg" alt=`say "hi"` 42"#)
        #expect(arguments.map(\.name) == [nil, "src", "alt", nil])
        #expect(arguments.map(\.value) == ["figure", "/a b.jpg", #"say "hi""#, "42"])
    }

    @Test func aFenceIsLongerThanAnyRunOfBackticksInTheCode() {
        #expect(HugoShortcodes.fence("a ``` b\n", language: "md", options: "") == "````md\na ``` b\n````")
    }
}

extension SiteImporterTests {
    @Test(arguments: [
        ("Swift & Rust: a comparison", "swift-rust-a-comparison"),
        ("Hello,   World!", "hello-world"),
        ("C++ tips #3", "c++-tips-#3"),
        ("Café au lait", "café-au-lait"),
        ("100%25 sure", "100%25-sure"),
    ])
    func hugoMakesPathSegmentsFromTitlesByItsRules(title: String, segment: String) {
        #expect(HugoReader.urlized(title, config: YAMLMapping()) == segment)
    }

    @Test(
        arguments: [
            ("2024-03-05T09:30:00+01:00", 3600), ("2024-03-05 23:30:00 -0800", -28_800), ("2024-03-05T09:30:00Z", 0),
            ("2024-03-05", nil), ("2024-03-05T09:30:00", nil), ("2024-03-05 09:30:00 +0530", 19_800),
        ] as [(String, Int?)])
    func theOffsetADateIsWrittenWithIsRead(text: String, offset: Int?) {
        #expect(FrontMatterConversion.writtenOffset(text) == offset)
    }

    /// Hugo shows a date at its own offset and takes `:year`, `:month` and `:day` there; Tagflow
    /// shows dates in one zone, the one most posts are written in.
    @Test func hugoDatesKeepTheirDayAndAddress() async throws {
        let fixture = try SiteFixture(
            """
            -- hugo.toml --
            title = 'Late'
            [permalinks]
              posts = '/:year/:month/:day/:slug/'
            -- content/posts/late.md --
            +++
            title = 'Late'
            date = 2024-03-31T23:30:00-05:00
            +++
            L.
            -- content/posts/early.md --
            +++
            title = 'Early'
            date = 2024-04-02T08:00:00-05:00
            +++
            E.
            -- content/posts/utc.md --
            +++
            title = 'Elsewhere'
            date = 2024-04-03T01:00:00Z
            +++
            U.
            """)
        defer { fixture.remove() }
        let (_, site, _) = try await Self.imported(fixture, .hugo)
        #expect(try Self.frontMatter(site, "posts/late.md")["aliases"] == .list([.string("/2024/03/31/late/")]))
        let config = try YAMLReader.mapping(
            from: String(contentsOf: site.appendingPathComponent("site.yml"), encoding: .utf8))
        #expect(config["timezone"] == .string("Etc/GMT+5"))
        #expect(try fixture.output("posts/late/index.html").contains(#"datetime="2024-03-31T23:30:00-05:00""#))
    }

    @Test func jekyllCategoriesAreMergedAsJekyllMergesThem() async throws {
        let fixture = try SiteFixture(
            """
            -- _config.yml --
            title: C
            -- news/_posts/2024-02-05-update.md --
            ---
            title: Update
            category: News
            ---
            U.
            -- _posts/2024-02-10-singular.md --
            ---
            title: Singular
            category: Web Development
            slug: My Slug
            ---
            S.
            """)
        defer { fixture.remove() }
        let (_, site, _) = try await Self.imported(fixture, .jekyll, options: ImportOptions(categoriesAsTags: true))
        let update = try Self.frontMatter(site, "posts/news/2024-02-05-update.md")
        #expect(update["aliases"] == .list([.string("/news/2024/02/05/update.html")]))
        #expect(update["tags"] == .list([.string("news")]))
        let singular = try Self.frontMatter(site, "posts/2024-02-10-singular.md")
        #expect(singular["aliases"] == .list([.string("/web%20development/2024/02/10/My-Slug.html")]))
        #expect(singular["tags"] == .list([.string("Web Development")]))
        #expect(singular["slug"] == .string("my-slug"))
        #expect(try Self.redirectTarget(fixture, "web development/2024/02/10/My-Slug.html") == "/posts/my-slug/")
    }
}

extension SiteImporterTests {
    @Test func twoFilesForOnePlaceKeepTheFirstAndSaySo() async throws {
        let fixture = try SiteFixture(
            """
            -- hugo.toml --
            title = 'Two'
            [languages.en]
              weight = 1
            [languages.fr]
              weight = 2
            -- content/posts/a.fr.md --
            ---
            title: Un
            date: 2024-01-01
            ---
            Un.
            -- content/posts/a.md --
            ---
            title: A
            date: 2024-01-01
            ---
            ![a](a.png)
            -- content/posts/a.png --
            section
            -- static/posts/a.png --
            static
            """)
        defer { fixture.remove() }
        let (report, _, _) = try await Self.imported(fixture, .hugo)
        #expect(try fixture.output("posts/a.png") == "section\n")
        #expect(
            report.notes.contains {
                $0.description == "static/posts/a.png: not copied: another file is published at static/posts/a.png"
            })
        #expect(report.notes.contains { $0.description.hasPrefix("content/posts/a.fr.md: a translation ('fr')") })
        #expect(report.notes.contains { $0.description.hasPrefix("hugo.toml:2: 'languages' is not converted") })
    }
}
