import Testing

/// A short program in each language the highlighter must know, with spans it must write.
enum LanguageSamples {
    struct Sample: Sendable, CustomTestStringConvertible {
        var language: String
        var code: String
        var expected: [String]
        var testDescription: String { language }
    }

    static let all: [Sample] = [
        Sample(
            language: "swift",
            code: """
                import Foundation
                /// Greets.
                @MainActor struct Greeter: Sendable {
                    let count = 0x1F
                    func greet(_ name: String) async throws -> String { "Hi \\(name)!\\n" }
                }

                """,
            expected: [
                #"<span class="tok-meta">import</span>"#, #"<span class="tok-meta">@MainActor</span>"#,
                #"<span class="tok-type">Greeter</span>"#, #"<span class="tok-number">0x1F</span>"#,
                #"<span class="tok-escape">\(</span>"#, #"<span class="tok-function">greet</span>"#,
            ]),
        Sample(
            language: "c",
            code: "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 42); return 0; }\n",
            expected: [#"<span class="tok-type">int</span>"#, #"<span class="tok-number">42</span>"#]),
        Sample(
            language: "cpp",
            code: "template <typename T> class Box { T value; };\nauto b = std::make_unique<Box<int>>();\n",
            expected: [#"<span class="tok-keyword">template</span>"#]),
        Sample(
            language: "objective-c",
            code:
                "#import <Foundation/Foundation.h>\n@interface Tag : NSObject\n@property (nonatomic) NSString *name;\n@end\n",
            expected: [#"<span class="tok-type">Tag</span>"#, #"<span class="tok-keyword">@end</span>"#]),
        Sample(
            language: "rust",
            code: "fn main() {\n    let v: Vec<u32> = vec![1, 2];\n    println!(\"{:?}\", v);\n}\n",
            expected: [#"<span class="tok-keyword">fn</span>"#]),
        Sample(
            language: "go",
            code: "package main\n\nfunc main() {\n\tfmt.Println(\"hi\") // greet\n}\n",
            expected: [#"<span class="tok-keyword">func</span>"#, #"<span class="tok-comment">// greet</span>"#]),
        Sample(
            language: "python",
            code: "def tags(post):\n    \"\"\"Tags.\"\"\"\n    return [t for t in post.tags if t != 'x']\n",
            expected: [#"<span class="tok-keyword">def</span>"#]),
        Sample(
            language: "javascript",
            code: "const tags = posts.flatMap((p) => p.tags);\nconsole.log(`${tags.length} tags`);\n",
            expected: [#"<span class="tok-keyword">const</span>"#]),
        Sample(
            language: "typescript",
            code:
                "interface Post { tags: string[] }\nexport function count(p: Post): number {\n  return p.tags.length;\n}\n",
            expected: [#"<span class="tok-type">Post</span>"#, #"<span class="tok-function">count</span>"#]),
        Sample(
            language: "java",
            code: "public class Tag {\n    private final String name = \"x\";\n}\n",
            expected: [#"<span class="tok-keyword">public</span>"#, #"<span class="tok-string">"#]),
        Sample(
            language: "kotlin",
            code: "data class Tag(val name: String)\nfun main() { println(\"${Tag(\"x\")}\") }\n",
            expected: [
                #"<span class="tok-keyword">data</span>"#, #"<span class="tok-variable">${Tag(&quot;x&quot;)}</span>"#,
            ]),
        Sample(
            language: "csharp",
            code: "using System;\nclass Tag { public string Name { get; set; } = \"x\"; }\n",
            expected: [#"<span class="tok-keyword">class</span>"#]),
        Sample(
            language: "ruby",
            code: "class Tag\n  def initialize(name)\n    @name = name # store\n  end\nend\n",
            expected: [#"<span class="tok-keyword">def</span>"#, #"<span class="tok-comment"># store</span>"#]),
        Sample(
            language: "php",
            code: "<?php\nfunction tags(array $post): array { return $post['tags']; }\n",
            expected: [#"<span class="tok-keyword">function</span>"#]),
        Sample(
            language: "shell",
            code: "#!/bin/sh\nfor f in *.md; do\n  echo \"$f\"\ndone\n",
            expected: [#"<span class="tok-keyword">for</span>"#, #"<span class="tok-keyword">done</span>"#]),
        Sample(
            language: "powershell",
            code: "# build\nGet-ChildItem -Path posts | ForEach-Object { Write-Host $_.Name }\n",
            expected: [
                #"<span class="tok-function">Get-ChildItem</span>"#, #"<span class="tok-comment"># build</span>"#,
            ]),
        Sample(
            language: "sql",
            code: "SELECT name, COUNT(*) FROM tags WHERE count > 3 GROUP BY name;\n",
            expected: [#"<span class="tok-keyword">SELECT</span>"#]),
        Sample(
            language: "html",
            code: "<!-- nav -->\n<a href=\"/tags/\">Tags</a>\n",
            expected: [#"<span class="tok-comment">&lt;!-- nav --&gt;</span>"#]),
        Sample(
            language: "css",
            code: ".chip { color: #0b5cad; padding: 3px 10px; }\n",
            expected: [#"<span class="tok-"#]),
        Sample(
            language: "json",
            code: "{\"title\": \"Hi\", \"tags\": [\"a\"], \"draft\": false, \"n\": 3}\n",
            expected: [#"<span class="tok-keyword">false</span>"#, #"<span class="tok-number">3</span>"#]),
        Sample(
            language: "yaml",
            code: "title: \"Hello\" # greet\ntags: [swift, layout]\ndraft: false\ncount: 12\n",
            expected: [
                #"<span class="tok-property">title</span>"#, #"<span class="tok-keyword">false</span>"#,
                #"<span class="tok-number">12</span>"#, #"<span class="tok-comment"> # greet</span>"#,
            ]),
        Sample(
            language: "toml",
            code: "[params]\ntitle = \"Hello\" # greet\ncount = 12\n",
            expected: [#"<span class="tok-meta">[params]</span>"#, #"<span class="tok-property">title</span>"#]),
        Sample(
            language: "markdown",
            code: "# Title\n\nSome *text* with `code` and [a link](/x/).\n",
            expected: [#"<span class="tok-keyword"># Title</span>"#, #"<span class="tok-string">`code`</span>"#]),
        Sample(
            language: "diff",
            code: "--- a/post.md\n+++ b/post.md\n@@ -1 +1 @@\n-old\n+new\n",
            expected: [#"<span class="tok-deleted">-old</span>"#, #"<span class="tok-inserted">+new</span>"#]),
        Sample(
            language: "dockerfile",
            code: "FROM swift:6.0 AS build\nRUN swift build -c release\nCOPY --from=build /app /app\n",
            expected: [#"<span class="tok-keyword">FROM</span>"#, #"<span class="tok-keyword">RUN</span>"#]),
    ]
}
