// A C interface to GNU Source-highlight's library, so that Swift can call it without C++
// interoperability (which would spread to every module that imports this one).
#ifndef TAGFLOW_SOURCE_HIGHLIGHT_H
#define TAGFLOW_SOURCE_HIGHLIGHT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A language definition loaded and ready to highlight: for one thread at a time.
typedef struct tagflow_highlighter tagflow_highlighter;

/// Called for each run of text of one element ("keyword", "string", "normal"…); never with a
/// line break in `text`.
typedef void (*tagflow_highlight_token)(void *context, const char *element, const char *text, size_t length);
/// Called at the end of each line.
typedef void (*tagflow_highlight_line_end)(void *context);

/// Loads the language definition `file` from the folder `data_dir` (and the files it includes
/// from there). Returns NULL and sets `*error` (free it with `free`) when it cannot.
tagflow_highlighter *tagflow_highlighter_create(const char *data_dir, const char *file, char **error);

/// Highlights `length` bytes of code, line by line (a trailing line break ends the last line).
/// Returns 0, or -1 with `*error` set (free it with `free`) when the library gave up (a regular
/// expression too complex for a line); the callbacks may have run for part of the code then.
int tagflow_highlighter_run(
    tagflow_highlighter *highlighter, const char *code, size_t length, tagflow_highlight_token token,
    tagflow_highlight_line_end line_end, void *context, char **error);

void tagflow_highlighter_destroy(tagflow_highlighter *highlighter);

/// The folder Source-highlight's own language definitions are in (free it with `free`).
char *tagflow_highlight_default_data_dir(void);

#ifdef __cplusplus
}
#endif

#endif
