#ifndef TAGFLOW_CCMARKGFM_SHIM_H
#define TAGFLOW_CCMARKGFM_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>

#endif
