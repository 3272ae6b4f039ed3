import Testing

@testable import TagflowCore

/// Inputs recorded against one version of a site, carried to the next (`PageInputMap`).
struct PageInputsTests {
    static let old = SiteIdentities(
        posts: ["posts/a.md", "posts/b.md", "posts/c.md"], pages: ["pages/about.md"], tags: ["x", "y"],
        series: ["intro"], terms: [["guides"]])

    @Test func inputsFollowWhatTheyNameToItsNewPlace() {
        // A post written before the others, one deleted; a tag added in front; the series gone; a
        // name added before the one a page read.
        let new = SiteIdentities(
            posts: ["posts/new.md", "posts/a.md", "posts/c.md"], pages: ["pages/about.md"], tags: ["z", "y", "x"],
            series: [], terms: [["how-to", "guides"]])
        let map = PageInputMap(from: Self.old, to: new)
        #expect(map.carried(PageInput(.summary, 0)) == PageInput(.summary, 1))
        #expect(map.carried(PageInput(.neighbours, 2)) == PageInput(.neighbours, 2))
        #expect(map.carried(PageInput(.summary, 1)) == nil, "the deleted post")
        #expect(map.carried(PageInput(.page, 0)) == PageInput(.page, 0))
        #expect(map.carried(PageInput(.tagPage, 0, 3)) == PageInput(.tagPage, 2, 3), "the page number stays")
        #expect(map.carried(PageInput(.relatedTags, 1)) == PageInput(.relatedTags, 1))
        #expect(map.carried(PageInput(.series, 0)) == nil)
        #expect(map.carried(PageInput(.termPage, 0, 0, 2)) == PageInput(.termPage, 0, 1, 2))
        #expect(map.carried(PageInput(.termLink, 1, 0)) == nil, "no such taxonomy")
        #expect(map.carried(PageInput(.summary, 7)) == nil, "no such post")
        for input in [PageInput(.homePage, 4), PageInput(.listExists, -1), PageInput(.terms, 0), PageInput(.menu)] {
            #expect(map.carried(input) == input)
        }
        // A page is carried whole, or not at all when one of its inputs is gone.
        #expect(
            map.carried([PageInput(.menu), PageInput(.summary, 2), PageInput(.tagLink, 1)])
                == [PageInput(.menu), PageInput(.summary, 2), PageInput(.tagLink, 1)])
        #expect(map.carried([PageInput(.menu), PageInput(.summary, 1)]) == nil)
    }

    @Test func theSameSiteKeepsEveryInput() {
        let map = PageInputMap(from: Self.old, to: Self.old)
        let inputs = [
            PageInput(.summary, 2), PageInput(.termLink, 0, 0), PageInput(.series, 0), PageInput(.tagFeed, 1),
        ]
        #expect(map.carried(inputs) == inputs)
    }

    @Test func inputsReadBackAsWritten() throws {
        let inputs = [
            PageInput(.menu), PageInput(.summary, 12_345), PageInput(.termPage, 1, 2, 3), PageInput(.listExists, -1),
            PageInput(.tagPage, 0, 2), PageInput(.termFeed, Int(Int32.max), 0),
        ]
        var text: [UInt8] = []
        PageInput.encode(inputs, into: &text)
        func decoded(_ text: [UInt8]) -> [PageInput]? { text.withUnsafeBytes { PageInput.decoded($0) } }
        #expect(decoded(text) == inputs)
        #expect(decoded([]) == [])
        for broken in ["x", "0.a", "255", "1.2.3.4.5", "1,,2", "1."] {
            #expect(decoded(Array(broken.utf8)) == nil, "\(broken)")
        }
    }
}
