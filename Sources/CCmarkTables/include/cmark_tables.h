#ifndef CMARK_TABLES_H
#define CMARK_TABLES_H

#include <stdbool.h>
#include <stddef.h>

/// Lets cmark-gfm parse documents in parallel by taking away the one write to process-wide state
/// that a parse makes.
///
/// cmark-gfm's inline parser stops a run of text at the characters marked in two process-wide
/// tables (SPECIAL_CHARS and SKIP_CHARS in inlines.c). Each syntax extension lists the characters
/// it handles (`~` for strikethrough, `:` and `w` for autolinks), and every parse calls
/// `cmark_manage_extensions_special_characters` to mark them before its inline parsing and again
/// to unmark them after it. Two parses at once race: one unmarks `:` while the other is still
/// parsing, and that one silently loses its autolinks.
///
/// Only the `tagflow` executable links this target (and the test bundle, which is a program
/// too); no library product does, so a program that uses TagflowMarkdown as a library keeps
/// cmark-gfm as it is and parses under a lock. TagflowMarkdown finds the functions below through
/// `tagflow_cmark_tables` (CCmarkTablesLink).
///
/// This target defines `cmark_manage_extensions_special_characters` itself. The library calls
/// that function through its procedure linkage table, so on Linux the definition linked into the
/// program is the one it calls. Until `cmark_tables_fill` runs, every call is passed on to the
/// library's own function. Once it has marked the characters of a set of extensions (Tagflow's),
/// the marks stay: an unmark is never passed on, and a mark only for a parser with an extension
/// outside that set. A Tagflow parse then writes nothing and only reads the tables, and during its
/// inline parsing they hold what they held when each parse marked them for itself.
///
/// One mark is the exception: `w`, at which the autolink extension looks for `www.` links. The
/// inline parser stops at every marked character of every text, and `w` is common, so it is marked
/// only while a parse runs that may need it: a Tagflow parse whose text may have a `www.` link
/// (it says so in `cmark_tables_begin_parse`), or any parse that is not Tagflow's (the calls of
/// one arrive here outside a Tagflow parse). The table is written only while no parse runs.
///
/// The cost falls on other users of cmark-gfm in the same process, if any: after the fill, their
/// parses also see Tagflow's characters marked, and the characters of their own extensions stay
/// marked once a parse has marked them. A marked character that no attached extension handles only
/// splits a run of text (the HTML is the same); in SKIP_CHARS, `~` can change which `*` and `_`
/// open or close emphasis next to it, for a parser without the strikethrough extension. (Before,
/// such a parse running beside a Tagflow parse saw the same marks, or lost its own.)
///
/// `scripts/check-cmark-globals.py` checks in CI, in the installed library's machine code, that
/// only that function's helpers write the tables, that only inline parsing reads them, and that
/// the library calls the function only through its procedure linkage table; `cmark_tables_fill`
/// checks at run time that the calls arrive here and that a parse sees the marks. Linking
/// libcmark-gfm statically into the program is not supported (the two definitions would clash).

/// Marks the characters of `extensions` (`count` of them, `cmark_syntax_extension *` each) in the
/// tables, once and for good (`w` aside, as above), and returns whether cmark-gfm's calls reach
/// this target's definition: when true, parsers that attach only these extensions may parse in
/// parallel.
///
/// Call it once, before any document with these extensions is parsed; a second call returns false.
/// When it returns false, parses must be serialised as before (the library's own function marks
/// and unmarks each time).
bool cmark_tables_fill(void *const *extensions, size_t count);

/// Brackets a Tagflow parse (`cmark_parser_feed` and `cmark_parser_finish`) on the calling
/// thread, with parsers that attach only the filled extensions, once `cmark_tables_fill` has
/// returned true. `may_have_www_link` says whether the text may have a `www.` link the autolink
/// extension would find; the same value goes to both calls. `w` is marked for a parse that may,
/// and may be unmarked for one that may not (its tree is the same: a `w` only splits a run of
/// text). A call may wait for other parses to end.
void cmark_tables_begin_parse(bool may_have_www_link);
void cmark_tables_end_parse(bool may_have_www_link);

#endif
