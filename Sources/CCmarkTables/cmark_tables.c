// See include/cmark_tables.h for why this file defines a function of libcmark-gfm.
#define _GNU_SOURCE
#include "cmark_tables.h"

#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <dlfcn.h>
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

void cmark_manage_extensions_special_characters(cmark_parser *parser, int add) {
  if (atomic_load_explicit(&probing, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&calls_received, 1, memory_order_relaxed);
  }
  if (atomic_load_explicit(&filled_ready, memory_order_acquire)) {
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
  cmark_parser_feed(probe, text, strlen(text));
  cmark_node *document = cmark_parser_finish(probe);
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
