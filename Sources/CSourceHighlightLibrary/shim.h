// GNU Source-highlight is a C++ library: CSourceHighlight includes its headers and gives Swift a
// C interface. This module only brings its compiler and linker flags (pkg-config's
// `source-highlight`) to that target.
#ifndef TAGFLOW_CSOURCEHIGHLIGHTLIBRARY_SHIM_H
#define TAGFLOW_CSOURCEHIGHLIGHTLIBRARY_SHIM_H
#endif
