# A small Pelican site on Pelican's default theme (notmyidea); its articles have Tags: metadata,
# which the theme prints on every article, on the index pages and on the tags page (tags.html).
#   pelican Integrations/examples/pelican/content -s Integrations/examples/pelican/pelicanconf.py -o /tmp/out
#   (see ../build-all.sh; -t simple builds it with Pelican's other built-in theme)
AUTHOR = "Tagflow"
SITENAME = "Tagflow Pelican example"
SITEURL = ""
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
DEFAULT_PAGINATION = False
# Nothing outside the output folder, nothing fetched, and no feeds (not needed for tag lists).
DELETE_OUTPUT_DIRECTORY = False
CACHE_CONTENT = False
LOAD_CONTENT_CACHE = False
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
LINKS = ()
SOCIAL = ()
RELATIVE_URLS = True
# No plugins: with PLUGINS unset, Pelican loads every installed pelican.plugins.* package (a
# Tagflow plugin among them, once installed), and this site shows the theme's own markup.
PLUGINS = []
