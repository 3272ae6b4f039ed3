# Builds and installs the tagflow command line.
#
#   make                                  # release build: .build/release/tagflow
#   sudo make install                     # /usr/local/bin/tagflow (builds first if there is no binary)
#   make install PREFIX=$HOME/.local      # ~/.local/bin/tagflow
#   make install DESTDIR=/tmp/pkg         # staged, for packaging
#   make uninstall
#   make test                             # the whole suite, as CI runs it
#
# The binary carries the theme and the default metrics table and links the Swift runtime
# statically, so it runs on a machine without Swift; it needs libcmark-gfm (Debian and Ubuntu:
# libcmark-gfm0.29.0.gfm.6 and libcmark-gfm-extensions0.29.0.gfm.6, pulled in by
# libcmark-gfm-dev; macOS: brew install cmark-gfm). STATIC_STDLIB= turns static linking off;
# STRIP= installs the binary with its symbols (125 MB rather than 74 MB on Linux x86-64).

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DESTDIR ?=
SWIFT ?= swift
INSTALL ?= install
STATIC_STDLIB ?= --static-swift-stdlib
SWIFT_BUILD_FLAGS ?=
STRIP ?= -s

BINARY = .build/release/tagflow

.PHONY: all build install uninstall test clean

all: build

build:
	if command -v dpkg-query >/dev/null; then scripts/install-deps.sh; fi
	$(SWIFT) build -c release --product tagflow $(STATIC_STDLIB) $(SWIFT_BUILD_FLAGS)

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

clean:
	$(SWIFT) package clean
