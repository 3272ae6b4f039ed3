#include "cmark_tables_link.h"

#if defined(__ELF__)
// Weak: resolved to the definition in CCmarkTables when the program links it, else to NULL.
extern const tagflow_cmark_tables_api tagflow_cmark_tables __attribute__((weak));

const tagflow_cmark_tables_api *tagflow_cmark_tables_linked(void) { return &tagflow_cmark_tables; }
#else
// Elsewhere (Mach-O's two-level namespace) the library calls its own function, whatever the
// program defines.
const tagflow_cmark_tables_api *tagflow_cmark_tables_linked(void) { return NULL; }
#endif
