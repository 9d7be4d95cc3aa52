# Perch — build, test, run and install.
#
#   make deps      install missing Debian packages (scripts/ensure-deps)
#   make build     swift build -c release --static-swift-stdlib (.build/release/perch, perchctl)
#   make test      generated-code check, release build, unit tests, e2e tests
#                  on sway 1.7 (the host's), sway 1.10 and labwc 0.8 (the
#                  Debian 13 root of scripts/trixie-root, made and cached)
#   make e2e       only the end-to-end tests (needs a release build);
#                  E2E_ARGS="--compositor labwc -k toast" to choose
#   make run       perch in your Wayland session, or a headless demo with
#                  screenshots in demo-out/ when there is none
#   make install   PREFIX=/usr/local (DESTDIR honoured)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

# Find the toolchain even when /opt/swift is not on PATH.
export PATH := $(PATH):/opt/swift/usr/bin

SWIFT   ?= swift
# The Swift runtime is linked statically: the daemon then maps only the
# runtime pages it uses (about 2 MB less Pss than the shared libswiftCore)
# and the binaries run without /opt/swift. The rest is about what a running
# daemon keeps resident (bench/README.md has the figures):
#  - lld, every function in a section of its own, and the functions the
#    daemon runs placed together first (link/perch.order, recorded by
#    scripts/gen-link-order). The kernel maps code in 64 KB windows around
#    each page touched; packed hot code keeps ~1.4 MB less of it resident.
#  - libstdc++ linked statically: the Swift runtime uses 22 of its symbols,
#    and the shared library costs ~0.9 MB Pss (relocated vtables, locale
#    set-up). The toolchain's link line names -lstdc++ itself, so a linker
#    script named libstdc++.so, found first, points it at libstdc++.a.
#  - RELR relocations (-z pack-relative-relocs): 500 KB of relocation
#    records become 4 KB.
#  - --no-export-dynamic: the toolchain exports every symbol, which nothing
#    looks up, and ld.so then searches a 240 KB table at every start.
#  - --disable-local-rpath: no $ORIGIN run path, where ld.so would first
#    look for each of the ~50 shared libraries in vain (and which has no
#    business in an installed binary).
LIBSTDCXX_A := $(shell gcc -print-file-name=libstdc++.a 2>/dev/null)
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdcxx
LINK_FLAGS := -Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/link/perch.order -Xlinker --no-warn-symbol-ordering \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic
ifneq ($(filter /%,$(LIBSTDCXX_A)),)
LINK_FLAGS += -Xswiftc -L$(STATIC_CXX_DIR)
endif
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath $(LINK_FLAGS)
PYTHON  ?= python3
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
RELEASE := .build/release
# The binaries the e2e tests run (override to test another build).
PERCH_BIN_DIR ?= $(RELEASE)
export PERCH_BIN_DIR

# Arguments for Tests/e2e/run.py (e.g. --compositor sway110, -k NAME).
E2E_ARGS ?=

.PHONY: all deps build static-cxx test unit e2e trixie-root run demo install uninstall clean bench

all: build

deps:
	scripts/ensure-deps

build: deps static-cxx
	$(SWIFT) build $(RELEASE_FLAGS)

test: deps static-cxx
	scripts/gen-protocols --check
	$(SWIFT) build $(RELEASE_FLAGS)
	$(SWIFT) test
	$(MAKE) --no-print-directory trixie-root
	$(PYTHON) Tests/e2e/run.py $(E2E_ARGS)

# The linker script that makes -lstdc++ mean the static library (see above).
# SwiftPM does not know the order file is an input: relink when it changes.
# The executables' own objects are always compiled again (a second or two):
# cross-module optimisation bakes the libraries' type layouts into them
# (the daemon object's size into perch's main), and an incremental release
# build does not recompile them when only a library's internal layout
# changed, which left perch writing past the end of its daemon object.
static-cxx:
	@mkdir -p $(STATIC_CXX_DIR)
	@if [ link/perch.order -nt $(RELEASE)/perch ]; then rm -f $(RELEASE)/perch; fi
	@rm -f $(RELEASE)/perch.build/*.o $(RELEASE)/perchctl.build/*.o $(RELEASE)/perch-svg.build/*.o
	@if [ -n "$(filter /%,$(LIBSTDCXX_A))" ]; then echo "INPUT($(LIBSTDCXX_A))" > $(STATIC_CXX_DIR)/libstdc++.so; fi

unit:
	$(SWIFT) test

e2e: trixie-root
	$(PYTHON) Tests/e2e/run.py $(E2E_ARGS)

# The Debian 13 root the sway 1.10 and labwc tests run in: made once (about a
# minute, from the mirror apt uses), then cached in /var/cache/perch until its
# package list changes. It needs root; without, run.py skips those two
# compositors and says so.
trixie-root:
	@if [ "$$(id -u)" -eq 0 ]; then scripts/trixie-root make; \
	else echo "make: not root: no Debian 13 root, the e2e tests run on sway 1.7 only"; fi

# In a Wayland session: run the daemon. Without one: the headless demo.
run: build
	@wl="$${WAYLAND_DISPLAY:-}"; \
	case "$$wl" in /*) sock="$$wl" ;; *) sock="$${XDG_RUNTIME_DIR:-/nonexistent}/$$wl" ;; esac; \
	if [ -n "$$wl" ] && [ -S "$$sock" ]; then \
		exec $(RELEASE)/perch; \
	else \
		echo "make run: no Wayland session (WAYLAND_DISPLAY unset or its socket missing); running the headless demo"; \
		exec scripts/demo; \
	fi

demo: build
	scripts/demo

DATADIR ?= $(PREFIX)/share
USERUNITDIR ?= $(PREFIX)/lib/systemd/user

# Binaries (built if missing), the D-Bus activation file, the systemd user
# unit (Type=dbus), the example config and the man-less docs.
install:
	test -x $(RELEASE)/perch || $(MAKE) build
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(DATADIR)/dbus-1/services" "$(DESTDIR)$(USERUNITDIR)" \
		"$(DESTDIR)$(DATADIR)/doc/perch"
	install -m 0755 $(RELEASE)/perch $(RELEASE)/perchctl $(RELEASE)/perch-svg "$(DESTDIR)$(BINDIR)/"
	sed 's|@bindir@|$(BINDIR)|g' contrib/org.freedesktop.Notifications.service.in \
		> "$(DESTDIR)$(DATADIR)/dbus-1/services/org.freedesktop.Notifications.service"
	sed 's|^ExecStart=perch|ExecStart=$(BINDIR)/perch|' contrib/perch.service > "$(DESTDIR)$(USERUNITDIR)/perch.service"
	install -m 0644 contrib/config.example docs/config.md docs/protocol.md README.md "$(DESTDIR)$(DATADIR)/doc/perch/"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/perch" "$(DESTDIR)$(BINDIR)/perchctl" "$(DESTDIR)$(BINDIR)/perch-svg" \
		"$(DESTDIR)$(DATADIR)/dbus-1/services/org.freedesktop.Notifications.service" \
		"$(DESTDIR)$(USERUNITDIR)/perch.service"
	rm -rf "$(DESTDIR)$(DATADIR)/doc/perch"

clean:
	rm -rf .build demo-out test-out

# Perch against mako in one headless sway, one table; then Perch's own time
# per frame: a slide, a reflow, the center scrolling (bench/README.md).
bench: build
	$(PYTHON) bench/compare.py
	$(PYTHON) bench/frame_times.py
