import Testing

@testable import TagflowCore

@Suite struct SuggestionTests {
    static let keys = ["title", "date", "tags", "summary", "draft", "slug", "description"]

    @Test(arguments: [
        ("tittle", "title"), ("tag", "tags"), ("summmary", "summary"), ("dates", "date"), ("Titel", "title"),
        ("drfat", "draft"), ("descripton", "description"),
    ])
    func typosFindTheirKey(typo: String, key: String) {
        #expect(Suggestion.closest(to: typo, in: Self.keys) == key)
    }

    @Test(arguments: ["title", "cover", "image", "author", "lang", "toc", "weight", "series", "a"])
    func otherNamesFindNothing(name: String) {
        #expect(Suggestion.closest(to: name, in: Self.keys) == nil)
    }

    @Test func editDistanceCountsSwapsAsOneEdit() {
        #expect(Suggestion.editDistance(Array("outptu"), Array("output"), limit: 2) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting"), limit: 5) == 3)
        #expect(Suggestion.editDistance(Array("abc"), Array("abcdefg"), limit: 2) == 3, "over the limit")
    }
}
