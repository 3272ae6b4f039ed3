import Testing

@testable import TagflowEnhance

@Suite struct HTMLScannerTests {
    @Test func tokensCoverEveryByte() {
        let html = "<!doctype html><p class=a>x<!-- <ul> --></p><script>if (a<b) '<ul>'</script>"
        let bytes = Array(html.utf8)
        let tokens = HTMLScanner.tokens(of: bytes)
        var position = 0
        for token in tokens {
            #expect(token.range.lowerBound == position)
            position = token.range.upperBound
        }
        #expect(position == bytes.count)
    }
}
