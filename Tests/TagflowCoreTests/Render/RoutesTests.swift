import Testing

@testable import TagflowCore

@Suite struct RoutesTests {
    /// A path's file: leading slashes dropped, `index.html` inside folders, any script kept whole.
    @Test(arguments: [
        ("/", "index.html"), ("/posts/hello/", "posts/hello/index.html"), ("/feed.xml", "feed.xml"),
        ("/404.html", "404.html"), ("//tags/c-sharp/", "tags/c-sharp/index.html"),
        ("/tags/日本語/page/2/", "tags/日本語/page/2/index.html"), ("/tags/e\u{301}/", "tags/e\u{301}/index.html"),
        ("", ""),
    ])
    func eachPathHasItsFile(path: String, file: String) {
        #expect(Routes.file(for: path) == file)
    }
}
