#include "tagflow_support.h"

#include <stdlib.h> // defines __GLIBC__ with glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// Under a sanitizer, malloc is the sanitizer's, with settings of its own.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TAGFLOW_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TAGFLOW_SANITIZED 1
#endif

int tagflow_is_sanitized(void) {
#if defined(TAGFLOW_SANITIZED)
  return 1;
#else
  return 0;
#endif
}

int tagflow_set_malloc_steps(int top_pad, int mmap_threshold) {
#if defined(__GLIBC__) && !defined(TAGFLOW_SANITIZED)
  // Setting either turns off glibc's own adjustment of the mmap threshold, so both are set.
  if (mallopt(M_MMAP_THRESHOLD, mmap_threshold) != 1) return -1;
  return mallopt(M_TOP_PAD, top_pad) == 1 ? 0 : -1;
#else
  (void)top_pad;
  (void)mmap_threshold;
  return -1;
#endif
}
