#ifndef TAGFLOW_TEXT_SCAN_H
#define TAGFLOW_TEXT_SCAN_H

#include <stddef.h>

/// The number of words in `count` bytes: runs of bytes other than space, tab, LF and CR.
///
/// Sixteen bytes at a time with SSE2 (every x86-64 processor has it), otherwise as
/// tagflow_count_words_portable. A post's reading time counts every word of its text, and a
/// byte at a time that count was a measurable share of a large build (docs/performance.md).
size_t tagflow_count_words(const void *text, size_t count);

/// tagflow_count_words eight bytes at a time in 64-bit integers, on any processor; what
/// tagflow_count_words runs without SSE2 (ARM), and what the tests compare it with on x86-64.
size_t tagflow_count_words_portable(const void *text, size_t count);

/// The index of the first of `count` bytes that HTML escaping replaces (`&`, `<`, `>`, `"`,
/// `'`), or `count` when there is none.
///
/// Sixteen bytes at a time with SSE2: most texts a page shows (titles, summaries, names) have
/// nothing to escape, and a byte at a time their scan was a measurable share of a build.
size_t tagflow_find_html_special(const void *text, size_t count);

/// tagflow_find_html_special a byte at a time, on any processor; what it runs without SSE2,
/// and what the tests compare it with.
size_t tagflow_find_html_special_portable(const void *text, size_t count);

/// The index of the first `first` byte of `count` bytes that is followed by a `second` byte, or
/// `count` when there is none.
///
/// Sixteen pairs at a time with SSE2. For scans of a text for a two-byte mark whose first byte
/// is common: `<h` in a post's HTML (a `<` every 30 bytes, where `memchr` stopped at each), `ww`
/// in its Markdown (a `w` every 50).
size_t tagflow_find_pair(const void *text, size_t count, unsigned char first, unsigned char second);

/// tagflow_find_pair a byte at a time, on any processor; what it runs without SSE2, and what the
/// tests compare it with.
size_t tagflow_find_pair_portable(const void *text, size_t count, unsigned char first, unsigned char second);

#endif
