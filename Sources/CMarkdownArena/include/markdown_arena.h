#ifndef MARKDOWN_ARENA_H
#define MARKDOWN_ARENA_H

#include <stddef.h>

/// A bump allocator for one Markdown document's cmark-gfm nodes.
///
/// cmark-gfm allocates every node, string buffer and list cell of a document through a
/// `cmark_mem` (three function pointers, no context), and frees each again one by one. With an
/// arena those allocations become pointer bumps, the frees do nothing, and the whole document
/// is released at once. The three functions below have the signatures of `cmark_mem`'s members
/// and allocate from the arena the calling thread has entered.
typedef struct markdown_arena markdown_arena;

/// Creates an empty arena. Never returns NULL (aborts when out of memory, as cmark-gfm does).
markdown_arena *markdown_arena_create(void);

/// Frees every block the arena handed out, and the arena.
void markdown_arena_destroy(markdown_arena *arena);

/// Makes `arena` the calling thread's arena until markdown_arena_leave(); returns the arena
/// that was current before (or NULL), for markdown_arena_leave to restore.
markdown_arena *markdown_arena_enter(markdown_arena *arena);

/// Restores the calling thread's previous arena (the value markdown_arena_enter returned).
void markdown_arena_leave(markdown_arena *previous);

/// The bytes the arena has handed out so far, headers and alignment included (for tests).
size_t markdown_arena_used(const markdown_arena *arena);

/// `cmark_mem.calloc`: zeroed memory from the current thread's arena.
void *markdown_arena_calloc(size_t count, size_t size);

/// `cmark_mem.realloc`: grows the last block in place, otherwise copies into a new block.
void *markdown_arena_realloc(void *pointer, size_t size);

/// `cmark_mem.free`: nothing; the arena frees everything at once.
void markdown_arena_free(void *pointer);

#endif
