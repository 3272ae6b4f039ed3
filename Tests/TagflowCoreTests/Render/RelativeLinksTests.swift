import Foundation
import TagflowHTML
import TagflowTesting
import Testing

@testable import TagflowCore

/// `relative_links: true`: the built site works opened from the file system.
@Suite struct RelativeLinksTests {
    @Test func urlsIntoTheSiteBecomeRelativeToThePage() {
        #expect(
            RelativeLinks.relative("/blog/tags/swift/#top", from: "posts/trip", basePath: "/blog")
                == "../../tags/swift/index.html#top")
        #expect(RelativeLinks.relative("/blog/", from: "", basePath: "/blog") == "index.html")
        #expect(
            RelativeLinks.relative("/blog/posts/trip/photo.png", from: "posts/trip", basePath: "/blog") == "photo.png")
        #expect(RelativeLinks.relative("/assets/a.css?v=1", from: "page/2", basePath: "") == "../../assets/a.css?v=1")
        #expect(RelativeLinks.relative("/other/x", from: "", basePath: "/blog") == nil, "outside the base path")
        #expect(RelativeLinks.relative("//cdn.example/x.js", from: "", basePath: "") == nil)
        #expect(RelativeLinks.relative("https://example.org/blog/", from: "", basePath: "/blog") == nil)
        #expect(
            RelativeLinks.relativeSourceSet("/a.png 1x, /b.png 2x", from: "posts/x", basePath: "")
                == "../../a.png 1x, ../../b.png 2x")
        let page = Array(#"<a href="/tags/c-sharp/?q=a&amp;b=c">C#</a><img src=/x.png alt=x>"#.utf8)
        #expect(
            String(decoding: RelativeLinks.rewritten(page, file: "posts/a/index.html", basePath: ""), as: UTF8.self)
                == #"<a href="../../tags/c-sharp/index.html?q=a&amp;b=c">C#</a><img src=../../x.png alt=x>"#)
    }

    /// Every relative link of every page leads to a file of the output, as a browser reading the
    /// files from the disk would follow it.
    @Test func everyLinkOfTheBuiltSiteLeadsToAFileOnDisk() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            base_url: https://example.org/blog/
            relative_links: true
            posts_per_page: 1
            -- pages/about.md --
            ---
            title: About
            ---
            See [the first post](/posts/2024-01-01-a.md).
            -- posts/2024-01-01-a.md --
            ---
            title: A
            tags: [Swift, C#]
            ---
            ![A photo](/images/red.png) and [about](../pages/about.md#top).
            -- posts/2024-01-02-b.md --
            ---
            title: B
            tags: [Swift]
            ---
            B.
            """)
        defer { fixture.remove() }
        let images = fixture.site.appendingPathComponent("static/images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: ImageDimensionsTests.fixtures.appendingPathComponent("red.png"),
            to: images.appendingPathComponent("red.png"))
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        var followed = 0
        let files = FileManager.default.enumerator(atPath: fixture.output.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".html") && file != "404.html" {
            let bytes = Array(try Data(contentsOf: fixture.output.appendingPathComponent(file)))
            for token in HTMLScanner.tokens(of: bytes) where token.kind == .startTag {
                for (name, value) in token.attributes where ["href", "src"].contains(name) {
                    #expect(!value.hasPrefix("/"), "\(file): \(name)=\(value) is from the root")
                    guard !value.contains(":"), !value.hasPrefix("#") else { continue }
                    let path = String(value.prefix { $0 != "?" && $0 != "#" })
                    let target = fixture.output.appendingPathComponent(SiteFiles.parentFolder(of: file))
                        .appendingPathComponent(path.removingPercentEncoding ?? path).standardizedFileURL
                    #expect(FileManager.default.fileExists(atPath: target.path), "\(file): \(value)")
                    followed += 1
                }
            }
        }
        #expect(followed > 50)
        let notFound = try String(contentsOf: fixture.output.appendingPathComponent("404.html"), encoding: .utf8)
        #expect(notFound.contains(#"href="/blog/""#), "the 404 page links from the root")
    }
}
