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
# The binary is position-independent, so the loader places its code at a random address as it
# does every other program's (ASLR). PIE=no links a position-dependent one on Linux, which starts
# a little faster (docs/performance.md, "The binary") at the cost of that protection.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DESTDIR ?=
SWIFT ?= swift
INSTALL ?= install
STATIC_STDLIB ?= --static-swift-stdlib
SWIFT_BUILD_FLAGS ?=
STRIP ?= -s
PIE ?= yes
LINK_FLAGS = $(if $(filter no,$(PIE)),$(if $(filter Linux,$(shell uname -s)),-Xlinker --no-pie))

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
