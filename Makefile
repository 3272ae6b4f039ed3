# Builds and installs the tagflow command line.
#
#   make                                  # release build: .build/release/tagflow
#   sudo make install                     # /usr/local/bin/tagflow (builds first if there is no binary)
#   make install PREFIX=$HOME/.local      # ~/.local/bin/tagflow
#   make install DESTDIR=/tmp/pkg         # staged, for packaging
#   make uninstall
#   make test                             # the whole suite, as CI runs it
#   make dist                             # dist/tagflow-VERSION-linux-ARCH.tar.gz, for a release
#   make deb                              # dist/tagflow_VERSION_ARCH.deb (apt install ./dist/…)
#
# The binary carries the theme and the default metrics table and links the Swift runtime
# statically, so it runs on a machine without Swift; it needs libcmark-gfm and GNU
# Source-highlight (Debian and Ubuntu: libcmark-gfm0.29.0.gfm.6, libcmark-gfm-extensions0.29.0.gfm.6
# and libsource-highlight4v5, pulled in by libcmark-gfm-dev and libsource-highlight-dev; macOS:
# brew install cmark-gfm source-highlight). STATIC_STDLIB= turns static linking off;
# STRIP= installs the binary with its symbols (125 MB rather than 74 MB on Linux x86-64).
#
# On Linux the binary is position-dependent, as Go links its programs (Hugo among them): a
# position-independent one has about 106 000 relative relocations, which the loader applies at
# every start, writing to and so copying about 1 MB of pages. That was 1 ms of every run (a
# seventh of `tagflow --version`, 7% of a build with nothing to do) and 4 MiB of memory. Shared
# libraries, the stack and the heap are still placed at random; PIE=yes keeps the binary's own
# address random too.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DESTDIR ?=
SWIFT ?= swift
INSTALL ?= install
STATIC_STDLIB ?= --static-swift-stdlib
SWIFT_BUILD_FLAGS ?=
STRIP ?= -s
PIE ?=
LINK_FLAGS = $(if $(filter yes,$(PIE)),,$(if $(filter Linux,$(shell uname -s)),-Xlinker --no-pie))

BINARY = .build/release/tagflow

.PHONY: all build install uninstall test dist deb clean

all: build

build:
	if command -v dpkg-query >/dev/null; then scripts/install-deps.sh; fi
	$(SWIFT) build -c release --product tagflow $(STATIC_STDLIB) $(LINK_FLAGS) $(SWIFT_BUILD_FLAGS)

# Not `install: build`, so that `make && sudo make install` does not build again as root.
$(BINARY):
	$(MAKE) build

install: $(BINARY)
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)"
	$(INSTALL) -m 755 $(STRIP) $(BINARY) "$(DESTDIR)$(BINDIR)/tagflow"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/tagflow"

test:
	scripts/test.sh

# A release archive that runs without Swift or any library but glibc (scripts/dist.sh).
dist:
	scripts/dist.sh

deb:
	scripts/deb.sh

clean:
	$(SWIFT) package clean
