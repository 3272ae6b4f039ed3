// See include/cmark_tables.h for why this file defines a function of libcmark-gfm.
#define _GNU_SOURCE
#include "cmark_tables.h"
#include "cmark_tables_link.h"

#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*manage_function)(cmark_parser *parser, int add);

enum { MAX_FILLED = 16 };

// Written once by cmark_tables_fill before `filled_ready` is set (release), read after it is
// seen set (acquire), never written again.
static cmark_syntax_extension *filled[MAX_FILLED];
static size_t filled_count;
static atomic_bool filled_ready;

// How many calls from the library reached the definition below while cmark_tables_fill probed.
static atomic_bool probing;
static atomic_size_t calls_received;

// The library's own function: the next definition after this one in the lookup order.
static manage_function library_function(void) {
  static _Atomic(manage_function) found;
  manage_function function = atomic_load_explicit(&found, memory_order_acquire);
  if (function == NULL) {
    function = (manage_function)dlsym(RTLD_NEXT, "cmark_manage_extensions_special_characters");
    atomic_store_explicit(&found, function, memory_order_release);
  }
  return function;
}

static bool is_filled(cmark_syntax_extension *extension) {
  for (size_t index = 0; index < filled_count; index++) {
    if (filled[index] == extension) return true;
  }
  return false;
}

// Whether every extension attached to `parser` had its characters marked by cmark_tables_fill.
static bool uses_only_filled(cmark_parser *parser) {
  for (cmark_llist *item = cmark_parser_get_syntax_extensions(parser); item; item = item->next) {
    if (!is_filled((cmark_syntax_extension *)item->data)) return false;
  }
  return true;
}

// An inline matcher that never matches (see write_www_mark).
static cmark_node *match_nothing(cmark_syntax_extension *extension, cmark_parser *parser, cmark_node *parent,
                                 unsigned char character, cmark_inline_parser *inline_parser) {
  (void)extension;
  (void)parser;
  (void)parent;
  (void)character;
  (void)inline_parser;
  return NULL;
}

// --- The `w` mark ---
//
// The autolink extension marks `w` to look for `www.` links at each one, so every `w` of every
// text stops the inline parser. `w` is marked only while a parse that may need it runs: one of
// Tagflow's whose text may have such a link (the caller says), or any parse that is not Tagflow's.
// The table is written only while no parse runs; the shared state below is under `www_mutex`.
static pthread_mutex_t www_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t www_changed = PTHREAD_COND_INITIALIZER;
// cmark_tables_fill marks `w` with the autolink extension's characters.
static bool www_marked = true;
// Parses running (between their begin and end), and those of them, or waiting to begin, that
// need the mark.
static int www_parsing;
static int www_needing;
// Whether this thread is inside one of Tagflow's parses (begin to end), and how deep inside
// parses that are not Tagflow's (their mark and unmark calls, which pair up on one thread).
static _Thread_local bool in_own_parse;
static _Thread_local int outsider_depth;

// Marks or unmarks `w` through a parser whose only extension lists `w` alone. Only with
// `www_mutex` held and no parse running.
static bool write_www_mark(bool marked) {
  static cmark_parser *parser;
  if (parser == NULL) {
    if (marked) return true; // Never unmarked, so marked.
    manage_function function = library_function();
    if (function == NULL || !atomic_load_explicit(&filled_ready, memory_order_acquire)) return false;
    // A syntax extension is in a parser's inline list, which the library's function walks for
    // the characters to mark, only with an inline matcher; this one never matches.
    cmark_syntax_extension *www = cmark_syntax_extension_new("tagflow-www");
    if (www == NULL) return false;
    cmark_syntax_extension_set_match_inline_func(www, match_nothing);
    cmark_llist *characters = cmark_llist_append(cmark_get_default_mem_allocator(), NULL, (void *)'w');
    cmark_syntax_extension_set_special_inline_chars(www, characters);
    cmark_parser *made = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (made == NULL) return false;
    cmark_parser_attach_syntax_extension(made, www);
    parser = made;
  }
  library_function()(parser, marked ? 1 : 0);
  return true;
}

// A parse begins: one that needs the mark waits for the parses running to end and marks it
// (parses arriving meanwhile wait behind it); one that does not unmarks it when no parse runs
// and none waits for it, and otherwise parses with the mark as it finds it.
static void begin_parse(bool needs_mark) {
  pthread_mutex_lock(&www_mutex);
  if (needs_mark) {
    www_needing += 1;
    while (!www_marked) {
      if (www_parsing == 0) {
        write_www_mark(true);
        www_marked = true;
        pthread_cond_broadcast(&www_changed);
      } else {
        pthread_cond_wait(&www_changed, &www_mutex);
      }
    }
  } else {
    while (!www_marked && www_needing > 0) pthread_cond_wait(&www_changed, &www_mutex);
    if (www_marked && www_needing == 0 && www_parsing == 0 && write_www_mark(false)) www_marked = false;
  }
  www_parsing += 1;
  pthread_mutex_unlock(&www_mutex);
}

static void end_parse(bool needed_mark) {
  pthread_mutex_lock(&www_mutex);
  www_parsing -= 1;
  if (needed_mark) www_needing -= 1;
  if (www_parsing == 0) pthread_cond_broadcast(&www_changed);
  pthread_mutex_unlock(&www_mutex);
}

void cmark_tables_begin_parse(bool may_have_www_link) {
  begin_parse(may_have_www_link);
  in_own_parse = true;
}

void cmark_tables_end_parse(bool may_have_www_link) {
  in_own_parse = false;
  end_parse(may_have_www_link);
}

void cmark_manage_extensions_special_characters(cmark_parser *parser, int add) {
  if (atomic_load_explicit(&probing, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&calls_received, 1, memory_order_relaxed);
  }
  if (atomic_load_explicit(&filled_ready, memory_order_acquire)) {
    if (!in_own_parse) {
      // A parse that is not Tagflow's (a program that also uses cmark-gfm) parses its inlines
      // between these two calls, with `w` marked, as it expects.
      if (add) {
        if (outsider_depth++ == 0) begin_parse(true);
      } else if (outsider_depth > 0 && --outsider_depth == 0) {
        end_parse(true);
      }
    }
    // The marks stay: an unmark passed on would clear them for every parse after it.
    if (!add || uses_only_filled(parser)) return;
  }
  manage_function function = library_function();
  if (function == NULL) {
    // Without the library's function no parse could mark its characters, and every document
    // would silently lose its strikethrough and autolinks; stop instead.
    fputs("tagflow: libcmark-gfm's cmark_manage_extensions_special_characters was not found; "
          "link libcmark-gfm as a shared library\n",
          stderr);
    abort();
  }
  function(parser, add);
}

bool cmark_tables_fill(void *const *extensions, size_t count) {
  static atomic_flag started = ATOMIC_FLAG_INIT;
  if (atomic_flag_test_and_set(&started)) return false;
  manage_function function = library_function();
  if (function == NULL || count > MAX_FILLED) return false;
  cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
  if (parser == NULL) return false;
  for (size_t index = 0; index < count; index++) {
    cmark_parser_attach_syntax_extension(parser, (cmark_syntax_extension *)extensions[index]);
    filled[index] = (cmark_syntax_extension *)extensions[index];
  }
  // The mark each parse made for itself, made once; nothing unmarks it from now on.
  function(parser, 1);
  cmark_parser_free(parser);
  filled_count = count;
  atomic_store_explicit(&filled_ready, true, memory_order_release);

  // Whether the library's calls reach the definition above (a parse makes two: mark, unmark,
  // which now do nothing), and whether the parse still sees the marks: strikethrough needs `~`,
  // an autolink `:`.
  cmark_parser *probe = cmark_parser_new(CMARK_OPT_DEFAULT);
  if (probe == NULL) return false;
  for (size_t index = 0; index < count; index++) {
    cmark_parser_attach_syntax_extension(probe, (cmark_syntax_extension *)extensions[index]);
  }
  static const char text[] = "~~probe~~ https://example.org\n";
  atomic_store_explicit(&probing, true, memory_order_relaxed);
  cmark_tables_begin_parse(true);
  cmark_parser_feed(probe, text, strlen(text));
  cmark_node *document = cmark_parser_finish(probe);
  cmark_tables_end_parse(true);
  atomic_store_explicit(&probing, false, memory_order_relaxed);
  bool marked = false;
  if (document != NULL) {
    cmark_llist *attached = cmark_parser_get_syntax_extensions(probe);
    char *html = cmark_render_html(document, CMARK_OPT_DEFAULT, attached);
    marked = html != NULL && strstr(html, "<del>probe</del>") != NULL &&
             strstr(html, "<a href=\"https://example.org\">") != NULL;
    free(html);
    cmark_node_free(document);
  }
  cmark_parser_free(probe);
  bool parallel = marked && atomic_load_explicit(&calls_received, memory_order_relaxed) == 2;
  // Otherwise every call is passed on again, and parses mark and unmark for themselves.
  if (!parallel) atomic_store_explicit(&filled_ready, false, memory_order_release);
  return parallel;
}

// What TagflowMarkdown finds through tagflow_cmark_tables_linked (CCmarkTablesLink) when the
// program links this target.
const tagflow_cmark_tables_api tagflow_cmark_tables = {
    .fill = cmark_tables_fill,
    .begin_parse = cmark_tables_begin_parse,
    .end_parse = cmark_tables_end_parse,
};
