#include "markdown_arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every block starts with a header holding its size, so that realloc knows how much to copy.
// 16 bytes keep the blocks as aligned as malloc's.
#define HEADER 16
#define FIRST_CHUNK (32 * 1024)
#define LARGEST_CHUNK (1024 * 1024)

typedef struct chunk {
  struct chunk *previous;
  size_t capacity;
  size_t used;
  size_t padding; // keeps data 16-byte aligned
  unsigned char data[];
} chunk;

struct markdown_arena {
  chunk *top;
  unsigned char *last_block; // the most recent block, which realloc may grow in place
  size_t total;
};

// The arena cmark-gfm's allocations go to on this thread. cmark_mem has no context pointer, so
// the arena is found here; it is set only around one document's parse and render.
static _Thread_local markdown_arena *current;

static void out_of_memory(void) {
  fputs("[tagflow] out of memory in the Markdown arena\n", stderr);
  abort();
}

markdown_arena *markdown_arena_create(void) {
  markdown_arena *arena = calloc(1, sizeof(markdown_arena));
  if (!arena)
    out_of_memory();
  return arena;
}

void markdown_arena_destroy(markdown_arena *arena) {
  if (!arena)
    return;
  chunk *top = arena->top;
  while (top) {
    chunk *previous = top->previous;
    free(top);
    top = previous;
  }
  free(arena);
}

markdown_arena *markdown_arena_enter(markdown_arena *arena) {
  markdown_arena *previous = current;
  current = arena;
  return previous;
}

void markdown_arena_leave(markdown_arena *previous) { current = previous; }

size_t markdown_arena_used(const markdown_arena *arena) { return arena->total; }

static markdown_arena *current_arena(void) {
  if (!current) {
    fputs("[tagflow] cmark-gfm allocated outside a Markdown arena\n", stderr);
    abort();
  }
  return current;
}

static size_t rounded(size_t size) { return (size + (HEADER - 1)) & ~(size_t)(HEADER - 1); }

// Chunks come from calloc and blocks are never reused, so every block starts zeroed.
static unsigned char *allocate(markdown_arena *arena, size_t size) {
  if (size > SIZE_MAX / 2)
    out_of_memory();
  size_t needed = HEADER + rounded(size);
  chunk *top = arena->top;
  if (!top || top->capacity - top->used < needed) {
    size_t capacity = top ? top->capacity * 2 : FIRST_CHUNK;
    if (capacity > LARGEST_CHUNK)
      capacity = LARGEST_CHUNK;
    if (capacity < needed)
      capacity = needed;
    chunk *fresh = calloc(1, sizeof(chunk) + capacity);
    if (!fresh)
      out_of_memory();
    fresh->previous = top;
    fresh->capacity = capacity;
    arena->top = top = fresh;
  }
  unsigned char *block = top->data + top->used;
  top->used += needed;
  arena->total += needed;
  memcpy(block, &size, sizeof size);
  arena->last_block = block + HEADER;
  return block + HEADER;
}

void *markdown_arena_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    out_of_memory();
  return allocate(current_arena(), count * size);
}

void *markdown_arena_realloc(void *pointer, size_t size) {
  markdown_arena *arena = current_arena();
  if (!pointer)
    return allocate(arena, size);
  unsigned char *block = pointer;
  size_t old_size;
  memcpy(&old_size, block - HEADER, sizeof old_size);
  if (size <= old_size)
    return pointer; // keeps the recorded size: the bytes past `size` stay owned by this block
  chunk *top = arena->top;
  size_t grow = rounded(size) - rounded(old_size);
  if (block == arena->last_block && top->capacity - top->used >= grow) {
    // The fresh bytes come from the chunk's unused, still zeroed tail.
    top->used += grow;
    arena->total += grow;
    memcpy(block - HEADER, &size, sizeof size);
    return pointer;
  }
  unsigned char *moved = allocate(arena, size);
  memcpy(moved, block, old_size);
  return moved;
}

void markdown_arena_free(void *pointer) { (void)pointer; }
