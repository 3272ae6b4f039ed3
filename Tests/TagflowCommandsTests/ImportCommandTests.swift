import Foundation
import TagflowTesting
import Testing

/// `tagflow import` as a user runs it: the counts and the next step on standard output, the notes
/// on standard error, exit 1 with nothing written when it cannot import.
@Suite struct ImportCommandTests {
    @Test func aJekyllSiteIsImportedAndItsNotesPrinted() throws {
        let fixture = try SiteFixture(
            """
            -- _config.yml --
            title: Old
            -- _posts/2024-01-02-hello.md --
            ---
            title: Hello
            tags: a b
            ---
            {% include card.html %}
            """)
        defer { fixture.remove() }
        let destination = fixture.root.appendingPathComponent("new")
        let result = try BinaryTests().runCapturingOutput(["import", "jekyll", fixture.site.path, destination.path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Imported 1 post, 0 pages, 0 other files into \(destination.path)."))
        #expect(result.output.contains("1 old address now redirect"))
        #expect(result.output.contains("Preview it with: tagflow serve \(destination.path)"))
        #expect(
            result.errors.contains(
                "_posts/2024-01-02-hello.md:5: note: Liquid tag 'include' is not converted; left as written"))
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("site.yml").path))
    }

    @Test func aFolderThatIsNotTheNamedGeneratorsFailsWithNothingWritten() throws {
        let fixture = try SiteFixture("-- readme.txt --\nnot a site\n")
        defer { fixture.remove() }
        let destination = fixture.root.appendingPathComponent("new")
        let result = try BinaryTests().runCapturingOutput(["import", "hugo", fixture.site.path, destination.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("error: \(fixture.site.path) has no hugo.toml"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        let usage = try BinaryTests().runCapturingOutput(["import", "wordpress", fixture.site.path, destination.path])
        #expect(usage.status == 2 && usage.errors.contains("wordpress"), "\(usage.errors)")
    }
}
