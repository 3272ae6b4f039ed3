#include "tagflow_support.h"

#include <stdlib.h> // defines __GLIBC__ with glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int tagflow_set_heap_top_pad(int bytes) {
#if defined(__GLIBC__)
  return mallopt(M_TOP_PAD, bytes) == 1 ? 0 : -1;
#else
  (void)bytes;
  return -1;
#endif
}
