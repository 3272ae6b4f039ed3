#ifndef CMARK_TABLES_LINK_H
#define CMARK_TABLES_LINK_H

#include <stdbool.h>
#include <stddef.h>

/// The functions of the `CCmarkTables` target (see its cmark_tables.h), for a program that links
/// it: only the `tagflow` executable (and the test bundle) does. A library product never defines
/// a function of libcmark-gfm; TagflowMarkdown asks here whether the program it runs in did.
typedef struct {
  bool (*fill)(void *const *extensions, size_t count);
  void (*begin_parse)(bool may_have_www_link);
  void (*end_parse)(bool may_have_www_link);
} tagflow_cmark_tables_api;

/// The functions `CCmarkTables` defines, when the program links that target; NULL otherwise
/// (and on platforms where its definition could not take the library's place anyway).
const tagflow_cmark_tables_api *tagflow_cmark_tables_linked(void);

#endif
