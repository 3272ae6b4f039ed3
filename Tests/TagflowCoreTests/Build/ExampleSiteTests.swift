import Foundation
import TagflowTesting
import Testing

@testable import TagflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Builds the real example site and checks the whole output.
@Suite struct ExampleSiteTests {
    static let exampleSite = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../site-example").standardizedFileURL

    func build() async throws -> (SiteFixture, BuildReport) {
        let fixture = try SiteFixture("")
        let report = try await SiteBuilder(siteRoot: Self.exampleSite).build(to: fixture.output)
        return (fixture, report)
    }

    @Test func writesEveryKindOfPage() async throws {
        let (fixture, report) = try await build()
        defer { fixture.remove() }
        #expect(report.postCount >= 20)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        for path in [
            "index.html", "page/2/index.html", "posts/flow-layout-part-1/index.html", "tags/index.html",
            "tags/swift/index.html", "tags/c-plus-plus/index.html", "tags/c-sharp/index.html",
            "tags/dot-net/index.html",
            "tags/标签布局/index.html", "tags/exercise/index.html", "about/index.html", "feed.xml", "sitemap.xml",
            "404.html", "assets/tagflow.css", "images/flow.svg", "favicon.svg",
        ] {
            #expect(
                FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent(path).path),
                "missing \(path)")
        }
        // The draft is not published; the override template is used.
        #expect(
            !FileManager.default.fileExists(
                atPath: fixture.output.appendingPathComponent("posts/marathon-training").path))
        #expect(try fixture.output("index.html").contains("templates/footer.mustache"))
        // async and async/await are distinct tags with distinct pages.
        #expect(
            FileManager.default.fileExists(atPath: fixture.output.appendingPathComponent("tags/async/index.html").path))
        #expect(
            FileManager.default.fileExists(
                atPath: fixture.output.appendingPathComponent("tags/async-await/index.html").path))
    }

    @Test func homeListsPostsNewestFirstWithTags() async throws {
        let (fixture, _) = try await build()
        defer { fixture.remove() }
        let home = try fixture.output("index.html")
        let dates = home.ranges(of: "<time datetime=\"").map { range in String(home[range.upperBound...].prefix(25)) }
        #expect(dates.count == 8)
        #expect(dates == dates.sorted(by: >))
        #expect(home.contains("rel=\"tag\""))
        #expect(home.contains("href=\"/page/2/\""))
    }

    @Test func tagIndexListsEveryTagWithItsCount() async throws {
        let (fixture, report) = try await build()
        defer { fixture.remove() }
        let index = try fixture.output("tags/index.html")
        #expect(index.ranges(of: "rel=\"tag\"").count == report.tagCount)
        #expect(index.contains(">Swift</a> <span class=\"count\">15</span>"))
    }

    @Test func everyInternalLinkResolvesToAWrittenFile() async throws {
        let (fixture, _) = try await build()
        defer { fixture.remove() }
        let files = folderContents(fixture.output)
        var broken: [String] = []
        for (path, data) in files where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            for link in Self.links(in: html) where link.hasPrefix("/") && !link.hasPrefix("//") {
                var target = String(link.prefix { $0 != "#" && $0 != "?" }).removingPercentEncoding ?? link
                if target.hasSuffix("/") { target += "index.html" }
                if files[String(target.dropFirst())] == nil { broken.append("\(path) → \(link)") }
            }
        }
        #expect(broken.isEmpty, "\(broken.prefix(20))")
    }

    @Test func feedAndSitemapAreWellFormedXML() async throws {
        let (fixture, _) = try await build()
        defer { fixture.remove() }
        for name in ["feed.xml", "sitemap.xml"] {
            let data = try Data(contentsOf: fixture.output.appendingPathComponent(name))
            let parser = XMLParser(data: data)
            #expect(parser.parse(), "\(name): \(parser.parserError.map { "\($0)" } ?? "")")
        }
        let feed = try fixture.output("feed.xml")
        #expect(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\""))
        #expect(feed.ranges(of: "<entry>").count == 20)
        #expect(feed.contains("<id>https://mira.example/posts/"))
        let sitemap = try fixture.output("sitemap.xml")
        #expect(sitemap.contains("<loc>https://mira.example/tags/%E6%A0%87%E7%AD%BE%E5%B8%83%E5%B1%80/</loc>"))
    }

    @Test func twoBuildsAreByteIdentical() async throws {
        let (first, _) = try await build()
        defer { first.remove() }
        let (second, _) = try await build()
        defer { second.remove() }
        let a = folderContents(first.output)
        let b = folderContents(second.output)
        #expect(a.keys.sorted() == b.keys.sorted())
        // Where each differing file first differs, so that a failure says what changed.
        for path in a.keys.sorted() {
            guard let left = a[path], let right = b[path], left != right else { continue }
            let (leftBytes, rightBytes) = ([UInt8](left), [UInt8](right))
            let at =
                leftBytes.indices.first { $0 >= rightBytes.count || leftBytes[$0] != rightBytes[$0] } ?? leftBytes.count
            let context = { (data: Data) in
                String(decoding: [UInt8](data)[max(0, at - 80)..<min(data.count, at + 80)], as: UTF8.self)
            }
            Issue.record("\(path) differs at byte \(at):\n\(context(left))\n-- then --\n\(context(right))")
        }
    }

    @Test func baseURLOverrideMovesEveryLink() async throws {
        let fixture = try SiteFixture("")
        defer { fixture.remove() }
        try await SiteBuilder(siteRoot: Self.exampleSite, options: BuildOptions(baseURL: "https://me.github.io/blog/"))
            .build(to: fixture.output)
        let post = try fixture.output("posts/flow-layout-part-1/index.html")
        #expect(post.contains("href=\"/blog/assets/tagflow.css\""))
        #expect(post.contains("href=\"/blog/tags/swift/\""))
        #expect(post.contains("src=\"/blog/images/flow.svg\""))
        #expect(post.contains("<link rel=\"canonical\" href=\"https://me.github.io/blog/posts/flow-layout-part-1/\">"))
        for link in Self.links(in: post) where link.hasPrefix("/") && !link.hasPrefix("//") {
            #expect(link.hasPrefix("/blog/"), "\(link)")
        }
    }

    static func links(in html: String) -> [String] {
        var links: [String] = []
        for attribute in ["href=\"", "src=\""] {
            for range in html.ranges(of: attribute) {
                links.append(String(html[range.upperBound...].prefix { $0 != "\"" }))
            }
        }
        return links
    }
}
