/// The built-in theme's strings in each language Tagflow ships, by language code.
///
/// `site.yml`'s `strings:` overrides any of them, and translates them for a language not here.
enum BuiltInStrings {
    /// Each language's strings; every table has every key of ``SiteStrings/keys``.
    static let tables: [String: [String: Phrase]] = [
        "en": english, "de": german, "fr": french, "es": spanish, "it": italian, "pt": portuguese, "nl": dutch,
        "ja": japanese, "zh": chinese, "ko": korean, "ar": arabic, "he": hebrew,
    ]

    static let english: [String: Phrase] = [
        "skip_to_content": .text("Skip to content"),
        "site_navigation": .text("Site"),
        "posts": .text("Posts"),
        "tags": .text("Tags"),
        "archive": .text("Archive"),
        "feed": .text("Feed"),
        "atom_feed": .text("Atom feed"),
        "built_with": .text("Built with {tagflow}"),
        "updated": .text("updated"),
        "reading_time": .counted(other: "{count} min read"),
        "draft": .text("Draft"),
        "scheduled": .text("Scheduled"),
        "contents": .text("Contents"),
        "related_posts": .text("Related posts"),
        "more_posts": .text("More posts"),
        "newer": .text("Newer"),
        "older": .text("Older"),
        "newer_arrow": .text("←"),
        "older_arrow": .text("→"),
        "pages": .text("Pages"),
        "page_number": .text("Page {page}"),
        "page_of": .text("Page {page} of {pages}"),
        "tagged": .text("Tagged “{tag}”"),
        "post_count": .counted(one: "{count} post", other: "{count} posts"),
        "tag_count": .counted(one: "{count} tag", other: "{count} tags"),
        "tags_across_posts": .text("{tags} across {posts}"),
        "all_tags_link": .text("all tags"),
        "page_not_found": .text("Page not found"),
        "not_found_text": .text("There is nothing at this address. Try the {latest_posts} or the {tag_list}."),
        "latest_posts": .text("latest posts"),
        "tag_list": .text("list of tags"),
        "tag_moved": .text("This tag is now {tag}."),
        "page_moved": .text("This page is now at {page}."),
        "tag_description": .text("Posts tagged “{tag}” on {site}"),
        "tags_description": .text("Every tag of {site}"),
        "archive_description": .text("Every post of {site}"),
        "related_tags": .text("Related tags"),
        "all_tags": .text("All tags"),
        "most_used_tags": .text("Most used tags"),
        "show_all_tags": .counted(other: "Show all {count} tags"),
        "more_tags": .counted(other: "+{count} more"),
        "date_format": .text("{day} {month} {year}"),
        "january": .text("January"), "february": .text("February"), "march": .text("March"),
        "april": .text("April"), "may": .text("May"), "june": .text("June"), "july": .text("July"),
        "august": .text("August"), "september": .text("September"), "october": .text("October"),
        "november": .text("November"), "december": .text("December"),
    ]
}
