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
/// This target defines `cmark_manage_extensions_special_characters` itself. The library calls
/// that function through its procedure linkage table, so on Linux the definition linked into the
/// program is the one it calls. Once `cmark_tables_fill` has marked the characters of a set of
/// extensions, a call for a parser whose extensions are all in that set does nothing: the marks
/// are already there and stay there, so no parse writes the tables and parses only read them.
/// Any other call is passed on to the library's own function, as if this target were not there.
///
/// `scripts/check-cmark-globals.py` checks in CI, in the installed library's machine code, that
/// the tables are written only by that function and that the library calls it only through its
/// procedure linkage table; `cmark_tables_fill` checks at run time that the calls arrive here.

/// Marks the characters of `extensions` (`count` of them, `cmark_syntax_extension *` each) in the
/// tables, once and for good, and returns whether cmark-gfm's calls reach this target's
/// definition: when true, parsers that attach only these extensions may parse in parallel.
///
/// Call it once, before any document with these extensions is parsed. When it returns false,
/// parses must be serialised as before (the library's own function marks and unmarks each time).
bool cmark_tables_fill(void *const *extensions, size_t count);

#endif
