# frozen_string_literal: true

# Tagflow chip blocks for Jekyll: tag lists laid out at build time by `tagflow chips --serve`.
#
# Copy this file into your site's _plugins/ folder. Liquid tags:
#
#   {% tagflow_css %}                          the <link> to the chips' stylesheet (once per page)
#   {% tagflow_tags %}                         page.tags, each chip linking to its tag page
#   {% tagflow_tags tags:post.tags %}          another list of tags (in a loop over posts)
#   {% tagflow_cloud sort:count limit:30 %}    site.tags with counts, weighted by use
#   {% tagflow_chips label:"Elsewhere" %}      any chips, one a line: `Label -> /url/` or `Label`
#   Mastodon -> https://example.social/@me
#   {% endtagflow_chips %}
#
# _config.yml (all optional):
#
#   tagflow:
#     path: bin/tagflow                    # else $TAGFLOW, else `tagflow` on PATH
#     config: _chips.yml                   # chip settings, passed as `tagflow chips --config`
#     tag_url: /tag/:name/                 # jekyll-archives' default (or its permalinks.tag)
#     slug_mode: default                   # Jekyll::Utils.slugify mode (or jekyll-archives')
#     label: Tags                          # the lists' accessible name
#     stylesheet: assets/tagflow-chips.css # where the stylesheet is written

require "cgi"
require "json"
require "open3"

module Tagflow
  # A FatalException, so that Jekyll reports it as the reason the site could not be built
  # (inside a Liquid tag it is re-raised as a Liquid::Error, see Tag#guarded).
  class Error < Jekyll::Errors::FatalException; end

  DEFAULT_TAG_URL = "/tag/:name/"
  DEFAULT_STYLESHEET = "assets/tagflow-chips.css"

  # One `tagflow chips --serve` process: JSON Lines, one request and one answer a line.
  class Server
    # A layout takes milliseconds; a silent process this long is stuck (or is not Tagflow),
    # and a build that fails says so where one that hangs says nothing.
    TIMEOUT = 60

    def initialize(command)
      @command = command
      begin
        @stdin, @stdout, @thread = Open3.popen2(*command)
      rescue SystemCallError => e
        raise Error, "Tagflow: cannot run #{command.first}: #{e.message}"
      end
      @stdin.sync = true # each request must reach the server now, not when a buffer fills
      @stdout.set_encoding(Encoding::UTF_8)
      # The same list is often asked for again (a cloud in a layout is on every page).
      @answers = {}
    end

    def request(message)
      line = JSON.generate(message)
      @answers[line] ||= exchange(line)
    end

    # EOF on its standard input makes the server exit.
    def close
      @stdin.close unless @stdin.closed?
      unless @thread.join(5)
        Process.kill("TERM", @thread.pid)
        @thread.join
      end
      @stdout.close unless @stdout.closed?
    rescue Errno::ESRCH
      nil
    end

    private

    def exchange(line)
      @stdin.puts(line)
      raise Error, "Tagflow: #{@command.first} did not answer in #{TIMEOUT} s" unless IO.select([@stdout], nil, nil, TIMEOUT)

      reply = @stdout.gets or raise Error, stopped
      answer = JSON.parse(reply)
      raise Error, "Tagflow: #{answer["error"]}" if answer["error"]

      answer
    rescue Errno::EPIPE
      raise Error, stopped
    rescue JSON::ParserError
      raise Error, "Tagflow: #{@command.first} answered something other than JSON: #{reply[0, 200].inspect}"
    end

    def stopped
      status = @thread.join(5)&.value
      "Tagflow: #{@command.join(" ")} stopped#{" (exit status #{status.exitstatus})" if status&.exitstatus} " \
        "without answering; its message, if any, is above. The Jekyll plugin needs a tagflow whose " \
        "`tagflow chips --help` lists --serve."
    end
  end

  class << self
    def settings(site)
      value = site.config["tagflow"] || {}
      raise Error, "Tagflow: `tagflow:` in _config.yml must be a mapping, not #{value.inspect}" unless value.is_a?(Hash)

      value
    end

    # Started on first use (the stylesheet, at the generate step), not when the plugin loads:
    # `jekyll doctor`, `jekyll clean` and the like start nothing.
    def server(site)
      @server ||= begin
        command = [executable(site), "chips", "--serve"]
        command += ["--config", chip_config(site)] if settings(site)["config"]
        Jekyll.logger.debug "Tagflow:", "starting #{command.join(" ")}"
        Server.new(command)
      end
    end

    def stop
      @server&.close
      @server = nil
    end

    def executable(site)
      if (configured = settings(site)["path"])
        found = locate(configured.to_s, site.source)
        return found if found

        raise Error, missing("tagflow.path in _config.yml is #{configured.inspect}, which is not an executable file.")
      end
      if (variable = ENV["TAGFLOW"]) && !variable.empty?
        found = locate(variable, Dir.pwd)
        return found if found

        raise Error, missing("TAGFLOW is #{variable.inspect}, which is not an executable file.")
      end
      locate("tagflow", Dir.pwd) or raise Error, missing("There is no `tagflow` on PATH.")
    end

    def html(site, chips, label:, weighted: false)
      return "" if chips.empty?

      server(site).request("chips" => chips, "label" => label, "weighted" => weighted)["html"]
    end

    def stylesheet_path(site)
      settings(site).fetch("stylesheet", DEFAULT_STYLESHEET).to_s.delete_prefix("/")
    end

    def label(site)
      settings(site).fetch("label", "Tags").to_s
    end

    # The tag's page, the way jekyll-archives makes it (Utils.slugify, then Jekyll::URL);
    # `tag_url: false` makes chips that link nowhere.
    def tag_url(site, name)
      archives = site.config["jekyll-archives"].is_a?(Hash) ? site.config["jekyll-archives"] : {}
      permalinks = archives["permalinks"].is_a?(Hash) ? archives["permalinks"] : {}
      template = settings(site).fetch("tag_url", permalinks["tag"] || DEFAULT_TAG_URL)
      return nil unless template

      slug = Jekyll::Utils.slugify(name.to_s, mode: settings(site)["slug_mode"] || archives["slug_mode"])
      Jekyll::URL.new(template: template.to_s, placeholders: { name: slug }).to_s
    end

    private

    # A name without a slash is looked up on PATH, as a shell would; a path is taken from `base`.
    def locate(name, base)
      candidates =
        if name.include?("/")
          [File.expand_path(name, base)]
        else
          ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).map { |dir| File.join(dir, name) }
        end
      candidates.find { |path| File.file?(path) && File.executable?(path) }
    end

    def chip_config(site)
      path = File.expand_path(settings(site)["config"].to_s, site.source)
      raise Error, "Tagflow: tagflow.config in _config.yml is #{path}, which does not exist." unless File.file?(path)

      path
    end

    def missing(reason)
      "Tagflow: cannot find the tagflow executable. #{reason} Build and install it from Tagflow's " \
        "source (`make && sudo make install`, or `make install PREFIX=~/.local`), then put it on PATH, " \
        "set TAGFLOW=/path/to/tagflow, or set `tagflow: { path: /path/to/tagflow }` in _config.yml."
    end
  end

  # What the Liquid tags share: their `key:value` arguments, links and errors.
  module Tag
    # `key:value` pairs. Values are words, numbers or quoted strings, so `sort:count` means the
    # word even on a page with a variable called count; only the keys in `variables` (tags:
    # post.tags) are Liquid variables.
    def parse_arguments(markup, allowed, variables: [])
      @arguments = {}
      rest = markup.gsub(Liquid::TagAttributes) do
        key = Regexp.last_match(1)
        value = Liquid::Expression.parse(Regexp.last_match(2))
        if value.is_a?(Liquid::VariableLookup) && !variables.include?(key)
          raise Liquid::SyntaxError, "#{tag_name}: #{key} takes a word or a quoted string" unless value.lookups.empty?

          value = value.name
        end
        @arguments[key] = value
        ""
      end
      unknown = @arguments.keys - allowed
      return if rest.strip.delete(",").empty? && unknown.empty?

      raise Liquid::SyntaxError,
            "#{tag_name}: cannot read #{markup.strip.inspect}; it takes #{allowed.map { |key| "#{key}:…" }.join(" ")}"
    end

    def argument(context, key)
      context.evaluate(@arguments[key])
    end

    def label(context)
      (argument(context, "label") || Tagflow.label(site(context))).to_s
    end

    def site(context)
      context.registers[:site]
    end

    # A chip for the server; links from the site's root get its baseurl, as relative_url would.
    def chip(context, label, url, count: nil)
      chip = { "label" => label.to_s }
      if url
        chip["current"] = true if url == context["page.url"]
        chip["url"] = url.start_with?("/") && !url.start_with?("//") ? Links.new(context).relative_url(url) : url
      end
      chip["count"] = count if count
      chip
    end

    def tag_chips(context, names, counts = {})
      names.map { |name| chip(context, name, Tagflow.tag_url(site(context), name), count: counts[name]) }
    end

    # Liquid would report any other exception as "Liquid error: internal"; its own keep their text.
    def guarded
      yield
    rescue Tagflow::Error => e
      raise Liquid::Error, e.message
    end
  end

  class Links
    include Jekyll::Filters::URLFilters

    def initialize(context)
      @context = context
    end
  end

  # {% tagflow_tags %}: the page's tags (or `tags:`), each a chip linking to its tag page.
  class TagsTag < Liquid::Tag
    include Tag

    def initialize(tag_name, markup, parse_context)
      super
      parse_arguments(markup, %w(tags label), variables: %w(tags))
    end

    def render(context)
      guarded do
        tags = @arguments.key?("tags") ? argument(context, "tags") : context["page.tags"]
        # As Jekyll reads front matter: `tags: swift ci` is two tags.
        names = (tags.is_a?(String) ? tags.split : Array(tags)).map(&:to_s).uniq
        Tagflow.html(site(context), tag_chips(context, names), label: label(context))
      end
    end
  end

  # {% tagflow_cloud sort:name|count limit:N %}: every tag with its post count, sized by use.
  class CloudTag < Liquid::Tag
    include Tag

    def initialize(tag_name, markup, parse_context)
      super
      parse_arguments(markup, %w(sort limit label))
    end

    def render(context)
      guarded do
        sort = (argument(context, "sort") || "name").to_s
        raise Liquid::ArgumentError, "tagflow_cloud: sort is name or count, not #{sort.inspect}" unless %w(name count).include?(sort)

        counts = site(context).tags.transform_values(&:size)
        # The most used first; a limit keeps the most used even when they are shown by name.
        names = counts.keys.sort_by { |name| [-counts[name], name.downcase, name] }
        names = names.first(limit(context)) if @arguments.key?("limit")
        names = names.sort_by { |name| [name.downcase, name] } if sort == "name"
        Tagflow.html(site(context), tag_chips(context, names, counts),
                     label: label(context), weighted: true)
      end
    end

    private

    def limit(context)
      value = argument(context, "limit")
      Integer(value.to_s).tap { |number| raise ArgumentError if number.negative? }
    rescue ArgumentError
      raise Liquid::ArgumentError, "tagflow_cloud: limit is a number of tags, not #{value.inspect}"
    end
  end

  # {% tagflow_chips %}…{% endtagflow_chips %}: one chip a line, `Label -> /url/` or `Label`,
  # the same form `tagflow chips` takes as arguments. Liquid inside is rendered first.
  class ChipsBlock < Liquid::Block
    include Tag

    def initialize(tag_name, markup, parse_context)
      super
      parse_arguments(markup, %w(label))
    end

    def render(context)
      guarded do
        chips = super.each_line.map(&:strip).reject(&:empty?).map do |line|
          label, url = line.split("->", 2).map(&:strip)
          chip(context, label, url && !url.empty? ? url : nil)
        end
        Tagflow.html(site(context), chips, label: label(context))
      end
    end
  end

  # {% tagflow_css %}: the <link> to the stylesheet the generator below writes.
  class CSSTag < Liquid::Tag
    include Tag

    def initialize(tag_name, markup, parse_context)
      super
      parse_arguments(markup, [])
    end

    def render(context)
      href = Links.new(context).relative_url("/#{Tagflow.stylesheet_path(site(context))}")
      %(<link rel="stylesheet" href="#{CGI.escapeHTML(href)}">)
    end
  end

  # Writes the chips' stylesheet into the site: one file, shared by every block on every page.
  class Stylesheet < Jekyll::Generator
    def generate(site)
      path = Tagflow.stylesheet_path(site)
      page = Jekyll::PageWithoutAFile.new(site, site.source, File.dirname(path), File.basename(path))
      page.content = Tagflow.server(site).request("css" => true)["css"]
      # Set, so that front matter defaults (a layout for every page, say) leave it alone.
      page.data["layout"] = nil
      page.data["sitemap"] = false # jekyll-sitemap: a stylesheet is not a page
      page.data["render_with_liquid"] = false
      site.pages << page
    end
  end
end

Liquid::Template.register_tag("tagflow_tags", Tagflow::TagsTag)
Liquid::Template.register_tag("tagflow_cloud", Tagflow::CloudTag)
Liquid::Template.register_tag("tagflow_chips", Tagflow::ChipsBlock)
Liquid::Template.register_tag("tagflow_css", Tagflow::CSSTag)

# One server per build: stopped once the site is written, and at the start of each build in
# case the last one failed half-way, so that `jekyll serve --watch` starts a fresh one for each
# rebuild (which then reads an edited chip config or a rebuilt tagflow).
Jekyll::Hooks.register(:site, :after_reset) { Tagflow.stop }
Jekyll::Hooks.register(:site, :post_write) { Tagflow.stop }
at_exit { Tagflow.stop }
