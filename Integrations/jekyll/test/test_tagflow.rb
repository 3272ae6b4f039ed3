# frozen_string_literal: true

# Builds test/site with the real `jekyll build` and the real tagflow, and checks what the
# plugin wrote. Run: ruby Integrations/jekyll/test/test_tagflow.rb
#
# tagflow is $TAGFLOW, else the repository's .build/debug or .build/release binary, else the
# one on PATH. Without one that has `chips --serve` the tests that need it are skipped, with the
# reason, unless CI=true, where they fail.

require "minitest/autorun"
require "cgi"
require "fileutils"
require "json"
require "open3"
require "rbconfig"
require "tmpdir"

class TagflowJekyllTest < Minitest::Test
  SITE = File.expand_path("site", __dir__)
  REPOSITORY = File.expand_path("../../..", __dir__)
  POSTS = {
    "2024/hello-swift" => ["Swift", "Open Source"],
    "2024/ci-for-swift" => %w(Swift CI),
    "2024/q-and-a" => ["Q&A", "Swift", "CSS"],
    "2024/css-layout" => ["CSS", "Open Source"],
    "2024/swift-and-cpp" => ["Swift", "C++"],
    "2024/string-tags" => %w(CI Swift),
  }.freeze
  COUNTS = { "Swift" => 5, "Open Source" => 2, "CI" => 2, "CSS" => 2, "Q&A" => 1, "C++" => 1 }.freeze
  # Jekyll::Utils.slugify's default mode, as jekyll-archives names tag pages.
  SLUGS = { "Swift" => "swift", "Open Source" => "open-source", "CI" => "ci", "CSS" => "css",
            "Q&A" => "q-a", "C++" => "c", }.freeze

  def setup
    @tmp = Dir.mktmpdir("tagflow-jekyll")
  end

  def teardown
    FileUtils.remove_entry(@tmp)
  end

  # The whole site, one build: the checks share it.
  def test_site
    starts = File.join(@tmp, "starts.log")
    output, status = jekyll_build(tagflow: logging_wrapper(real_tagflow, starts))
    assert status.success?, "jekyll build failed:\n#{output}"

    POSTS.each do |path, tags|
      html = page(path)
      article = html[%r{<article>.*</article>}m]
      assert_includes article, 'class="tf-flow"', "#{path} has no chip block"
      assert_includes article, 'aria-label="Post tags"', "#{path}: tagflow.label is the list's name"
      tags.each do |tag|
        assert_includes article, %(<a href="/blog/tag/#{SLUGS[tag]}/">#{CGI.escapeHTML(tag)}</a>), "#{path}: #{tag}"
      end
      assert_includes html, '<link rel="stylesheet" href="/blog/assets/tagflow-chips.css">', "#{path}: no stylesheet"
    end

    # The cloud: every tag, by name, each with its count, the most used drawn larger.
    cloud = page("tags")[%r{<h1>Tags</h1>\s*(<div class="tf-flow">.*?</div>)}m, 1]
    refute_nil cloud, "the tags page has no chip block after its heading"
    COUNTS.each do |tag, count|
      assert_includes cloud, %(>#{CGI.escapeHTML(tag)} <span class="tf-n">#{count}</span></a>), "cloud: #{tag}"
    end
    assert_equal COUNTS.keys.sort_by(&:downcase), labels(cloud)
    assert_match(/<li class="tf-w\d"[^>]*><a href="\/blog\/tag\/swift\/">/, cloud, "Swift, the most used, is not weighted")
    assert_match(/<li style="[^"]*"><a href="\/blog\/tag\/c\/">/, cloud, "C++, used once, is weighted")

    # sort:count limit:3 in the layout: Swift, then the first two of the three used twice.
    footer = page("tags")[%r{<footer>.*</footer>}m]
    assert_equal %w(Swift CI CSS), labels(footer)
    assert_includes footer, 'aria-label="Most used tags"'

    # A block of any chips: the page's own link is current, site links get the baseurl.
    links = page("links")[%r{<h1>Links</h1>\s*(<div class="tf-flow">.*?</div>)}m, 1]
    assert_includes links, '<a href="/blog/links/" aria-current="page">Links</a>'
    assert_includes links, '<a href="/blog/tags/">All tags</a>'
    assert_includes links, '<a href="https://example.social/@tagflow">Mastodon</a>'
    assert_includes links, "<span>Tagflow fixture</span>", "Liquid inside the block is rendered"

    # tags:post.tags in a loop, on the home page.
    home = page("")
    assert_equal POSTS.size, home.scan('aria-label="Tags of this post"').size

    css = File.join(@tmp, "_site/assets/tagflow-chips.css")
    assert File.file?(css), "no assets/tagflow-chips.css"
    assert_includes File.read(css), ".tf-flow"

    # _chips.yml reached tagflow: two breakpoints, so two heights per block.
    assert_includes cloud, "--h1:"
    refute_includes cloud, "--h2:"

    log = File.readlines(starts)
    assert_equal 1, log.size, "tagflow was started #{log.size} times:\n#{log.join}"
    assert_includes log.first, "chips --serve --config #{File.join(SITE, "_chips.yml")}"
  end

  # With jekyll-archives making the tag pages (at its permalink, not the default), every chip
  # link leads to a page, and a tag's page marks its own chip.
  def test_chips_lead_to_jekyll_archives_pages
    begin
      Gem::Specification.find_by_name("jekyll-archives")
    rescue Gem::MissingSpecError
      skip "jekyll-archives is not installed (Debian: ruby-jekyll-archives); it is optional"
    end
    archives = { "plugins" => ["jekyll-archives"],
                 "jekyll-archives" => { "enabled" => ["tags"], "layout" => "tag",
                                        "permalinks" => { "tag" => "/topics/:name/" }, }, }
    output, status = jekyll_build(tagflow: real_tagflow, settings: archives)
    assert status.success?, "jekyll build failed:\n#{output}"

    SLUGS.each_value { |slug| assert File.file?(File.join(@tmp, "_site/topics", slug, "index.html")), slug }
    Dir[File.join(@tmp, "_site/**/*.html")].each do |file|
      File.read(file).scan(%r{href="/blog(/[^"]*)"}).flatten.each do |link|
        target = File.join(@tmp, "_site", link)
        target = File.join(target, "index.html") if link.end_with?("/")
        assert File.file?(target), "#{file} links to /blog#{link}, which the site does not have"
      end
    end
    assert_includes page("topics/swift"), '<a href="/blog/topics/swift/" aria-current="page">Swift <span class="tf-n">5</span></a>'
  end

  # jekyll serve --watch calls site.process again for each change: a new server for each
  # build, and none left running between builds.
  def test_one_server_per_rebuild
    starts = File.join(@tmp, "starts.log")
    config = test_config(logging_wrapper(real_tagflow, starts))
    script = <<~RUBY
      require "jekyll"
      site = Jekyll::Site.new(Jekyll.configuration("source" => #{SITE.inspect}, "destination" => #{File.join(@tmp, "_site").inspect},
                                                   "config" => [#{File.join(SITE, "_config.yml").inspect}, #{config.inspect}], "quiet" => true))
      2.times do
        site.process
        pid = File.readlines(#{starts.inspect}).last.to_i
        abort "tagflow \#{pid} still runs after the build" if (Process.kill(0, pid) rescue false)
      end
    RUBY
    output, status = Open3.capture2e(RbConfig.ruby, "-e", script)
    assert status.success?, output
    assert_equal 2, File.readlines(starts).size, File.read(starts)
  end

  def test_missing_executable_is_a_clear_error
    output, status = jekyll_build(tagflow: File.join(@tmp, "no-such-tagflow"))
    refute status.success?
    # Reported by Jekyll as the reason the site could not be built, not as a Liquid error.
    assert_includes output[/YOUR SITE COULD NOT BE BUILT:.*/m].to_s, "Tagflow: cannot find the tagflow executable"
    assert_includes output, "no-such-tagflow"
    assert_includes output, "TAGFLOW="

    output, status = jekyll_build(tagflow: nil, env: { "TAGFLOW" => File.join(@tmp, "nothing-here") })
    refute status.success?
    assert_includes output, "TAGFLOW is"
  end

  # A tagflow from before --serve rejects the option and exits; the build must say so rather
  # than hang or report a JSON error.
  def test_tagflow_without_serve_is_a_clear_error
    old = File.join(@tmp, "old-tagflow")
    File.write(old, "#!/bin/sh\necho \"Error: Unknown option '--serve'\" >&2\nexit 2\n")
    File.chmod(0o755, old)
    output, status = jekyll_build(tagflow: old)
    refute status.success?
    assert_includes output, "Unknown option '--serve'"
    assert_includes output, "stopped (exit status 2) without answering"
  end

  private

  def page(path)
    File.read(File.join(@tmp, "_site", path, "index.html"))
  end

  def labels(block)
    block.scan(%r{<li[^>]*><(?:a[^>]*|span)>(.*?)(?: <span class="tf-n">\d+</span>)?</(?:a|span)></li>}).flatten
         .map { |label| CGI.unescapeHTML(label) }
  end

  # The settings the test changes, in a second config file layered over the fixture's.
  def test_config(tagflow, extra = {})
    path = File.join(@tmp, "_test_config.yml")
    settings = extra.merge(
      "plugins_dir" => File.expand_path("../_plugins", __dir__),
      "disable_disk_cache" => true # keep .jekyll-cache out of the fixture
    )
    settings["tagflow"] = { "path" => tagflow } if tagflow
    File.write(path, settings.to_json)
    path
  end

  def jekyll_build(tagflow:, env: {}, settings: {})
    config = [File.join(SITE, "_config.yml"), test_config(tagflow, settings)].join(",")
    Open3.capture2e({ "TAGFLOW" => nil }.merge(env), "jekyll", "build", "--source", SITE,
                    "--destination", File.join(@tmp, "_site"), "--config", config)
  end

  # Logs each start of tagflow (its pid, which exec keeps, and its arguments), then becomes it.
  def logging_wrapper(tagflow, log)
    path = File.join(@tmp, "tagflow")
    File.write(path, <<~SH)
      #!/bin/sh
      echo "$$ $*" >> '#{log}'
      exec '#{tagflow}' "$@"
    SH
    File.chmod(0o755, path)
    path
  end

  def real_tagflow
    candidates = [ENV["TAGFLOW"], File.join(REPOSITORY, ".build/debug/tagflow"),
                  File.join(REPOSITORY, ".build/release/tagflow"),
                  *ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).map { |dir| File.join(dir, "tagflow") },]
    found = candidates.compact.find { |path| File.file?(path) && File.executable?(path) }
    reason =
      if found.nil?
        "no tagflow binary (set TAGFLOW, or build the repository's)"
      elsif !Open3.capture2e(found, "chips", "--help").first.include?("--serve")
        "#{found} has no `chips --serve`"
      end
    return found unless reason

    ENV["CI"] == "true" ? flunk(reason) : skip(reason)
  end
end
