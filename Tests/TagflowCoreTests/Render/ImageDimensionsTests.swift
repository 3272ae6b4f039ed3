import Foundation
import TagflowHTML
import TagflowTesting
import Testing

@testable import TagflowCore

/// Image headers: the sizes a browser draws the files at.
@Suite struct ImageDimensionsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/images").standardizedFileURL

    /// Files written by ImageMagick and cwebp (30 × 20; the rotated JPEG is stored 30 × 20 with
    /// EXIF orientation 6, so a browser draws it 20 × 30).
    @Test(arguments: [
        ("red.png", 30, 20), ("red.gif", 30, 20), ("red.jpg", 30, 20), ("red-progressive.jpg", 30, 20),
        ("red-turned.jpg", 20, 30), ("red-lossy.webp", 30, 20), ("red-lossless.webp", 30, 20),
        ("red-alpha.webp", 30, 20), ("red.svg", 30, 20),
    ])
    func readsRealFiles(name: String, width: Int, height: Int) {
        #expect(
            ImageDimensions.read(Self.fixtures.appendingPathComponent(name))
                == ImageDimensions(width: width, height: height))
    }

    @Test func svgWithoutAnAbsoluteSizeHasNone() {
        let sized = #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="12.4px" height='7'>"#
        #expect(ImageDimensions.parse(Array(sized.utf8)) == ImageDimensions(width: 12, height: 7))
        for svg in [
            #"<svg viewBox="0 0 10 10">"#, #"<svg width="100%" height="50">"#, #"<svg width="2em" height="1em">"#,
            #"<svg width="-3" height="4">"#, "<svg",
        ] {
            #expect(ImageDimensions.parse(Array(svg.utf8)) == nil, "\(svg)")
        }
    }

    @Test func damagedOrHostileHeadersAreNil() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        #expect(ImageDimensions.parse(png) == nil, "truncated")
        #expect(ImageDimensions.parse(png + [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1]) == nil, "2³¹ wide")
        #expect(ImageDimensions.parse(png + [0, 0, 0, 0, 0, 0, 0, 1]) == nil, "zero wide")
        #expect(ImageDimensions.parse([0xFF, 0xD8, 0xFF]) == nil)
        // A JPEG whose segments loop on themselves (length 2 forever) ends, without a size.
        #expect(
            ImageDimensions.parse(
                [0xFF, 0xD8] + Array(repeating: [0xFF, 0xE0, 0x00, 0x02], count: 2_000).flatMap { $0 }) == nil)
        #expect(ImageDimensions.parse(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == nil)
        #expect(ImageDimensions.parse([]) == nil)
        #expect(ImageDimensions.exifOrientation(Array("Exif\0\0MM\0*\0\0\0\u{8}\u{FF}\u{FF}".utf8)) == nil)
    }
}

/// `<img>` in content: sized from static files, lazy after the first.
@Suite struct ContentImagesTests {
    static func images(baseURL: String = "/") throws -> ContentImages {
        var config = SiteConfig()
        config.baseURL = baseURL
        let fixtures = ImageDimensionsTests.fixtures
        return ContentImages(
            staticFiles: [
                (fixtures.appendingPathComponent("red.png"), "images/red.png"),
                (fixtures.appendingPathComponent("red-turned.jpg"), "posts/hello/photo one.jpg"),
                (fixtures.appendingPathComponent("red.png"), "notes.txt"),
            ], config: config)
    }

    @Test func imagesGetTheirSizeAndAllButTheFirstLoadLazily() throws {
        let images = try Self.images()
        let html = #"<p><img src="/images/red.png" alt="a" /></p><p><img src="photo%20one.jpg?v=2" alt="b"></p>"#
        #expect(
            images.sized(html, pagePath: "/posts/hello/")
                == #"<p><img width="30" height="20" src="/images/red.png" alt="a" /></p>"#
                + #"<p><img width="20" height="30" loading="lazy" src="photo%20one.jpg?v=2" alt="b"></p>"#)
    }

    @Test func whatTheAuthorWroteStays() throws {
        let images = try Self.images()
        let html =
            #"<img src="/images/red.png" width="300"><IMG SRC="/images/red.png" loading="eager">"#
            + #"<img src="https://elsewhere.example/red.png"><img src="/images/missing.png"><img src="/notes.txt">"#
        #expect(
            images.sized(html, pagePath: "/")
                == #"<img src="/images/red.png" width="300"><IMG width="30" height="20" SRC="/images/red.png" loading="eager">"#
                + #"<img loading="lazy" src="https://elsewhere.example/red.png"><img loading="lazy" src="/images/missing.png">"#
                + #"<img loading="lazy" src="/notes.txt">"#)
        // Text that only looks like a tag is text.
        let code = "<pre><code>&lt;img src=\"/images/red.png\"&gt;</code></pre><!-- <img src=\"/images/red.png\"> -->"
        #expect(images.sized(code, pagePath: "/") == code)
    }

    /// The quick way finds what the tokenizer finds, and steps aside where text looks like tags.
    @Test func imageTagsAreFoundAsTheTokenizerFindsThem() {
        for (html, rawHTML) in [
            (#"<p><img src="a.png" alt="x &gt; y"><IMG\nsrc=b.png><imgx src=c.png><img/src=d.png></p>"#, false),
            (#"<p>a</p><!-- <img src="hidden.png"> --><img src="e.png">"#, false),
            (#"<script>var s = "<img src='f.png'>";</script><img src="g.png"><textarea><img src=h></textarea>"#, false),
            (#"<p>&lt;img src="i.png"&gt;</p><img src='j.png' title='<img>'>"#, true),
        ] {
            let bytes = Array(html.utf8)
            let quick = ContentImages.imageTags(in: bytes, rawHTML: rawHTML).map { $0.attribute("src") ?? "" }
            let full = HTMLScanner.tokens(of: bytes).filter { $0.kind == .startTag && $0.name == "img" }
                .map { $0.attribute("src") ?? "" }
            #expect(quick == full, "\(html)")
        }
    }

    @Test func onlyContentWithAnImageIsScanned() {
        #expect(ContentImages.mayHaveImage("<p><IMG src=x></p>") && ContentImages.mayHaveImage("<img"))
        #expect(!ContentImages.mayHaveImage("<p>image</p><i>mg</i>") && !ContentImages.mayHaveImage("<im"))
    }

    @Test func sourcesResolveAsABrowserResolvesThem() throws {
        let images = try Self.images(baseURL: "https://example.org/blog/")
        #expect(images.outputPath(of: "/blog/images/red.png", pagePath: "/") == "images/red.png")
        #expect(images.outputPath(of: "https://example.org/blog/images/red.png", pagePath: "/") == "images/red.png")
        #expect(images.outputPath(of: "../../images/red.png#x", pagePath: "/posts/hello/") == "images/red.png")
        #expect(images.outputPath(of: "./photo%20one.jpg", pagePath: "/posts/hello/") == "posts/hello/photo one.jpg")
        #expect(images.outputPath(of: "/images/red.png", pagePath: "/") == nil, "outside the base path")
        #expect(images.outputPath(of: "../../../x.png", pagePath: "/posts/hello/") == nil)
        #expect(images.outputPath(of: "data:image/png;base64,AAAA", pagePath: "/") == nil)
        #expect(images.outputPath(of: "//cdn.example/red.png", pagePath: "/") == nil)
    }
}

/// A whole build: the sizes reach the pages, and a replaced image is read again.
@Suite struct ContentImagesSiteTests {
    @Test func builtPagesCarryTheSizesOfTheirImages() async throws {
        let fixture = try SiteFixture(
            """
            -- site.yml --
            title: T
            base_url: https://example.org/blog/
            markdown:
              unsafe: true
            -- posts/2024-01-01-a.md --
            ---
            title: A
            ---
            ![first](/images/photo.png)

            ![second](../../images/photo.png "with a title")

            <img src="/blog/images/photo.png" width="10" alt="sized by hand">
            """)
        defer { fixture.remove() }
        let images = fixture.site.appendingPathComponent("static/images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let photo = images.appendingPathComponent("photo.png")
        try FileManager.default.copyItem(at: ImageDimensionsTests.fixtures.appendingPathComponent("red.png"), to: photo)
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let page = try String(contentsOf: fixture.output.appendingPathComponent("posts/a/index.html"), encoding: .utf8)
        #expect(page.contains(#"<img width="30" height="20" src="/blog/images/photo.png" alt="first" />"#), "\(page)")
        #expect(
            page.contains(
                #"<img width="30" height="20" loading="lazy" src="../../images/photo.png" alt="second" title="with a title" />"#
            ))
        #expect(page.contains(#"<img loading="lazy" src="/blog/images/photo.png" width="10" alt="sized by hand">"#))

        // Another image under the same name: the next build reads it, though no post changed.
        try FileManager.default.removeItem(at: photo)
        try FileManager.default.copyItem(
            at: ImageDimensionsTests.fixtures.appendingPathComponent("red-turned.jpg"), to: photo)
        try await SiteBuilder(siteRoot: fixture.site).build(to: fixture.output)
        let rebuilt = try String(
            contentsOf: fixture.output.appendingPathComponent("posts/a/index.html"), encoding: .utf8)
        #expect(rebuilt.contains(#"<img width="20" height="30" src="/blog/images/photo.png" alt="first" />"#))
    }
}
