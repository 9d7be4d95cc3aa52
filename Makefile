# Perch — build, test, run and install.
#
#   make deps      install missing Debian packages (scripts/ensure-deps);
#                  build and test do it once, and again when its lists change
#   make build     swift build -c release --static-swift-stdlib (.build/release/perch, perchctl)
#   make laid-out  the release build linked again in link/perch.order and
#                  BOLTed (.build/laid-out/): what install, deb and bench use
#   make test      generated-code check, release build, unit tests, the
#                  unit tests again built in Debian 13,
#                  the Debian package built, linted and installed there,
#                  e2e tests on sway 1.7 (the host's), sway 1.10 and labwc
#                  0.8 (the Debian 13 root of scripts/trixie-root, made and
#                  cached), sway 1.12 and labwc 0.20 (the Debian unstable
#                  root, `scripts/debian-root make sid`, the same way; left
#                  out with one line when the archive cannot be reached),
#                  a smoke set of them on the laid-out build, and a check
#                  that no test process survives
#   make test-trixie  the unit tests built by Debian 13's Swift (6.0.3)
#                  against its libraries
#   make test-deb  the Debian package (debian/) built by dpkg-buildpackage
#                  in a throwaway copy of the Debian 13 root, lintian,
#                  installed in another and run (cached by its sources)
#   make link-order   record link/perch.order again (make bench says when)
#   make e2e       only the end-to-end tests (needs a release build);
#                  E2E_ARGS="--compositor labwc -k toast" to choose
#   make run       perch in your Wayland session, or a headless demo with
#                  screenshots in demo-out/ when there is none
#   make man       the man pages, from docs/man/*.scd (into .build/man/)
#   make install   PREFIX=/usr/local (DESTDIR honoured); make uninstall
#   make deb       perch_VERSION_ARCH.deb from a release build
#   make fuzz      build the libFuzzer targets (Fuzz/) and run each for
#                  FUZZ_SECONDS (60) from its seeds; a crash fails it

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

# Find the toolchain even when it is not on PATH: swift.org's in
# /opt/swift, or Debian's swiftlang in /usr/libexec/swift/bin (Swift 6.0.3
# or newer; scripts/find-swift, which passes over a `swift` that is not
# Swift's, and which scripts/ensure-deps asks too). Expanded when a recipe
# runs, so after ensure-deps has installed swiftlang.
export PATH := $(PATH):/opt/swift/usr/bin:/usr/libexec/swift/bin

SWIFT   ?= $(shell scripts/find-swift || echo swift)
# The Swift runtime is linked statically: the daemon then maps only the
# runtime pages it uses (about 2 MB less Pss than the shared libswiftCore)
# and the binaries run without /opt/swift. The rest is about what a running
# daemon keeps resident (bench/README.md has the figures):
#  - lld, and every function in a section of its own (-function-sections),
#    so that the laid-out build can place them (below).
#  - -enforce-exclusivity=unchecked: the release build does not check
#    exclusive access at run time (the compiler still checks what it can
#    see, and the debug build, which the unit tests run, checks it all);
#    the checks were 7 % of an animated frame's instructions.
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
#  - a build ID (--build-id=sha1; lld writes none unless asked): the
#    Debian package's dh_strip files the debug symbols under it (the
#    perch-dbgsym package), and debuggers and core dumps find a binary's
#    symbols by it. 36 bytes in the first page.
#
# What depends on the toolchain and on gcc is worked out when a recipe
# runs (recursive variables), so that on a new machine it sees what
# ensure-deps has just installed: the libstdc++.a of the gcc there, and
# whether the toolchain's lld takes link/perch.ld (lld 17, Debian 13's
# swiftlang's, does not: scripts/lld-script-flags says so and the link goes
# without it).
LIBSTDCXX_A = $(shell gcc -print-file-name=libstdc++.a 2>/dev/null)
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdcxx
LINK_FLAGS = -Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	-Xlinker --build-id=sha1 \
	$(if $(filter /%,$(LIBSTDCXX_A)),-Xswiftc -L$(STATIC_CXX_DIR))
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -enforce-exclusivity=unchecked $(LINK_FLAGS)

# The laid-out build: the same objects linked again with the functions the
# daemon runs placed together first, then BOLTed. It is what ships (make
# install, make deb, the Debian package) and what make bench measures;
# make build and the tests use the plain link above, so that a renamed
# function never fails a test: a stale order only costs memory, which make
# bench reports (scripts/check-link-order) and make link-order renews.
#  - link/perch.order (recorded by scripts/gen-link-order: start-up, then
#    the everyday path, then the rest). The kernel maps code in 64 KB
#    windows around each page touched; packed hot code keeps less of it
#    resident (how much: bench/README.md, "What the layout saves").
#    The functions the compiler leaves without a symbol (closure
#    contexts' destroyers), which no order file can name, are gathered in
#    one place by link/perch.ld instead of each keeping a window of cold
#    code (left out where lld cannot take it, scripts/lld-script-flags).
#  - then llvm-bolt, in the same order, for what lld cannot move: the
#    standard library's archive has 1.5 MB of functions in one section,
#    and the hundred an idle daemon runs kept nearly all of it resident
#    (scripts/bolt-perch; --emit-relocs keeps the relocations it needs;
#    without BOLT 16 the binary keeps lld's layout and the script says so).
# Only the link differs, so SwiftPM compiles nothing again: the recipe
# removes the linked programs, links them laid out, copies them to
# .build/laid-out, and links .build/release plain again (a few seconds
# each; nothing is done while .build/laid-out is newer than the plain
# build and the layout's files).
LAYOUT_FLAGS = -Xlinker --symbol-ordering-file=$(CURDIR)/link/perch.order -Xlinker --no-warn-symbol-ordering \
	$(shell scripts/lld-script-flags $(SWIFT)) -Xlinker --emit-relocs
LAID_OUT := .build/laid-out
PYTHON  ?= python3
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
RELEASE := .build/release
# The binaries the e2e tests run (override to test another build).
PERCH_BIN_DIR ?= $(RELEASE)
export PERCH_BIN_DIR
# The laid-out programs, in the order the plain build links them.
LAID_OUT_PROGRAMS := perch perchctl perch-svg perch-sound perch-share perch-test-pointer

# Arguments for Tests/e2e/run.py (e.g. --compositor sway110, -k NAME).
E2E_ARGS ?=

.PHONY: all deps build laid-out link-inputs link-order man test smoke-laid-out test-packaging test-trixie test-deb unit e2e fuzz trixie-root sid-root run demo screenshots install uninstall deb clean bench

all: build man

# The Debian packages are installed once: the stamp makes build and test
# run scripts/ensure-deps again only when the script, which holds the
# package lists, has changed since. `make deps` runs it whatever the stamp
# says (after removing packages by hand, say).
DEPS_STAMP := .build/deps.stamp
$(DEPS_STAMP): scripts/ensure-deps
	scripts/ensure-deps
	@mkdir -p $(@D) && touch $@

deps:
	scripts/ensure-deps
	@mkdir -p $(dir $(DEPS_STAMP)) && touch $(DEPS_STAMP)

# NO_DEPS=1 (the Debian package build, debian/rules) leaves ensure-deps
# out: Build-Depends has installed what the build needs, and ensure-deps
# would also install the test packages, with apt, in the middle of a
# package build.
DEPS := $(if $(NO_DEPS),,$(DEPS_STAMP))

build: $(DEPS) link-inputs
	$(SWIFT) build $(RELEASE_FLAGS)

laid-out: build
	@stale=; for f in $(RELEASE)/perch link/perch.order link/perch.ld; do \
		if [ ! -x $(LAID_OUT)/perch ] || [ "$$f" -nt $(LAID_OUT)/perch ]; then stale=1; fi; done; \
	if [ -z "$$stale" ]; then echo "laid-out: $(LAID_OUT) is up to date"; exit 0; fi; \
	rm -f $(LINKED); \
	$(SWIFT) build $(RELEASE_FLAGS) $(LAYOUT_FLAGS); \
	mkdir -p $(LAID_OUT); \
	for p in $(LAID_OUT_PROGRAMS); do cp -f $(RELEASE)/$$p $(LAID_OUT)/$$p; done; \
	scripts/bolt-perch $(LAID_OUT)/perch; \
	rm -f $(LINKED); \
	$(SWIFT) build $(RELEASE_FLAGS); \
	touch $(addprefix $(LAID_OUT)/,$(LAID_OUT_PROGRAMS))

# The e2e step checks for survivors whether it passed or not: a test that
# failed half-way is the likeliest to leave something behind.
test: $(DEPS_STAMP) link-inputs
	scripts/gen-protocols --check
	$(MAKE) --no-print-directory laid-out
	$(SWIFT) test
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(CI_FUZZ_SECONDS)
	$(MAKE) --no-print-directory test-packaging
	$(MAKE) --no-print-directory trixie-root
	$(MAKE) --no-print-directory sid-root
	$(MAKE) --no-print-directory test-trixie
	$(MAKE) --no-print-directory test-deb
	$(PYTHON) Tests/e2e/run.py $(E2E_ARGS) || { scripts/check-survivors; exit 1; }
	$(MAKE) --no-print-directory smoke-laid-out
	scripts/check-survivors

# What ships is tested too: the e2e tests that cover a toast, a stack, the
# center, a D-Bus action and a restart with state, on the laid-out build
# (sway 1.7; the rest ran on the plain build above, and only the layout
# differs).
SMOKE_TESTS := toast_slides_in_from_the_right three_toasts_stack_at_top_right_without_overlap \
	center_lists_what_expired_grouped_by_app_scrolls_and_closes notify_send_wait_prints_the_clicked_action \
	what_was_on_screen_with_time_left_comes_back history_and_modes_survive_a_restart
smoke-laid-out: laid-out
	PERCH_BIN_DIR=$(LAID_OUT) $(PYTHON) Tests/e2e/run.py --compositor sway17 $(addprefix -k ,$(SMOKE_TESTS)) || \
		{ scripts/check-survivors; exit 1; }

# Man pages, completions, make install/uninstall and make deb, from the
# release build already made (a few seconds; Tests/packaging/run.py).
test-packaging: man
	$(PYTHON) Tests/packaging/run.py

# What the release link reads that SwiftPM does not know of: the linker
# script that makes -lstdc++ mean the static library (see above, written
# only when its text changes). When it is newer than the executables,
# these are removed, and swift build links them again (the laid-out
# build's order file and script are looked after by its own recipe). (Compiling needs no such help: every
# target depends directly on all the targets below it, Package.swift's
# last lines, so that a library's layout change recompiles every module
# that bakes it in; docs/architecture.md, "The build".)
LINKED := $(addprefix $(RELEASE)/,$(LAID_OUT_PROGRAMS))
link-inputs:
	@mkdir -p $(STATIC_CXX_DIR)
	@if [ -n "$(filter /%,$(LIBSTDCXX_A))" ] && [ "$$(cat $(STATIC_CXX_DIR)/libstdc++.so 2>/dev/null)" != "INPUT($(LIBSTDCXX_A))" ]; then \
		echo "INPUT($(LIBSTDCXX_A))" > $(STATIC_CXX_DIR)/libstdc++.so; fi
	@for f in $(STATIC_CXX_DIR)/libstdc++.so; do \
		if [ -e "$$f" ] && [ "$$f" -nt $(RELEASE)/perch ]; then rm -f $(LINKED); break; fi; done

# link/perch.order recorded again from the release build (scripts/gen-link-order:
# perch under valgrind, about a minute); commit it. make bench says when
# it is due (scripts/check-link-order); never part of make test or of a
# package build, which have no compositor or bus to record one with.
link-order: build
	scripts/gen-link-order

# The unit tests, built in the Debian 13 root by its own Swift (swiftlang,
# 6.0.3: the oldest Swift a distribution ships, the floor Package.swift
# states) against its libraries (newer Pango, Cairo, Wayland, xkbcommon,
# libsystemd than the host's), in a build directory of its own (the host's
# .build/release and .build/debug are left alone): code the old compiler
# refuses, or an API change in a newer library, fails here; the host's
# build covers the newest Swift. The golden images, Debian 12's rendering,
# are compared by size only (PERCH_GOLDEN=size: glyphs are rasterised a
# little differently there). Root only, like the root; prints how long it
# took.
TRIXIE_BUILD := .build/trixie
TRIXIE_ROOT_DIR ?= $(or $(PERCH_TRIXIE_ROOT),/var/cache/perch/trixie-root)
test-trixie: trixie-root
	@if [ "$$(id -u)" -ne 0 ]; then echo "make: not root: no Debian 13 root, the unit tests are not built in Debian 13"; exit 0; fi; \
	start=$$(date +%s); \
	scripts/trixie-root swift $(TRIXIE_ROOT_DIR) $(CURDIR) build --build-tests --build-path $(TRIXIE_BUILD); \
	PERCH_GOLDEN=size scripts/trixie-root swift $(TRIXIE_ROOT_DIR) $(CURDIR) test --skip-build --build-path $(TRIXIE_BUILD); \
	echo "test-trixie: built and ran the unit tests in Debian 13 in $$(( $$(date +%s) - start )) s"

# Debian 13's way of building Perch: debian/ by dpkg-buildpackage -us -uc
# -b (DEB_BUILD_OPTIONS=nocheck: the unit tests have run) in a throwaway
# overlay of the Debian 13 root, from Build-Depends alone and without
# network; lintian, whose errors fail; then the package installed in
# another throwaway overlay, and perch --version and perchctl --help run
# there (scripts/test-deb). The root itself is only read. The package is
# cached in /var/cache/perch/deb by the hash of what it is made from, so
# an unchanged tree is not built twice. Root only; prints how long each
# part took.
test-deb: trixie-root
	@if [ "$$(id -u)" -ne 0 ]; then echo "make: not root: the Debian package is not built in Debian 13"; exit 0; fi; \
	scripts/test-deb $(TRIXIE_ROOT_DIR)

unit:
	$(SWIFT) test

# The libFuzzer targets (Fuzz/*.swift, built by scripts/fuzz; see
# docs/fuzzing.md): each runs FUZZ_SECONDS from its committed seeds and the
# inputs in Fuzz/regressions/; a crash, a broken property or an input slower
# than the target's timeout fails, leaving the input in .build/fuzz/crashes/.
# make test runs each for CI_FUZZ_SECONDS (about a minute to build
# everything, then 13 targets × 3 s).
FUZZ_SECONDS ?= 60
CI_FUZZ_SECONDS ?= 3
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz run

e2e: trixie-root sid-root
	$(PYTHON) Tests/e2e/run.py $(E2E_ARGS) || { scripts/check-survivors; exit 1; }
	scripts/check-survivors

# The Debian 13 root the sway 1.10 and labwc tests run in, and make
# test-trixie builds in (with its swiftlang): made once (about two minutes,
# 3.1 GB, from the mirror apt uses), then cached in /var/cache/perch until its
# package list changes. It needs root; without, run.py skips those two
# compositors and says so.
trixie-root:
	@if [ "$$(id -u)" -eq 0 ]; then scripts/trixie-root make; \
	else echo "make: not root: no Debian 13 root, the e2e tests run on sway 1.7 only"; fi

# The Debian unstable root the sway 1.12 and labwc 0.20 tests run in (and
# where Hyprland is tried: docs/compositors.md), made and cached like the
# Debian 13 root, in /var/cache/perch/sid-root. When unstable's archive
# cannot be reached, scripts/debian-root says so in one line (exit 75) and
# the run goes on: run.py then skips those two with a line of its own.
sid-root:
	@if [ "$$(id -u)" -ne 0 ]; then echo "make: not root: no Debian unstable root, the e2e tests do not run on sway 1.12 and labwc 0.20"; \
	else rc=0; scripts/debian-root make sid || rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 75 ] || exit $$rc; fi

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

# The README's images (docs/images/): the demo's screenshots of a stack,
# the center and a strip of frames of a slide.
screenshots: build
	DEMO_OUT=$(CURDIR)/.build/screenshots scripts/demo
	mkdir -p docs/images
	cp .build/screenshots/03-stack.png .build/screenshots/06-center.png .build/screenshots/07-slide-strip.png \
		.build/screenshots/08-missed-summary.png docs/images/

DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/perch
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
DBUSSERVICEDIR ?= $(DATADIR)/dbus-1/services
# Where xdg-desktop-portal looks for backends' .portal files.
PORTALDIR ?= $(DATADIR)/xdg-desktop-portal/portals
# Where each shell looks for completions it loads by itself (bash-completion
# loads on first use; Debian's zsh has vendor-completions in its fpath).
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/vendor-completions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d

# The man pages, made by scdoc from docs/man/NAME.SECTION.scd; dated by
# SOURCE_DATE_EPOCH when it is set (dpkg-buildpackage sets it from
# debian/changelog: a source package has no git history), else by the
# last commit, so that the same sources make the same pages.
MAN_PAGES := $(patsubst docs/man/%.scd,.build/man/%,$(wildcard docs/man/*.scd))
MAN_DATE ?= $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null || date +%s))

man: $(MAN_PAGES)

.build/man/%: docs/man/%.scd
	@mkdir -p .build/man
	SOURCE_DATE_EPOCH=$(MAN_DATE) scdoc < $< > $@.tmp && mv $@.tmp $@

# The files whose contents name the install paths, made under .build/dist.
# Only the Exec= and ExecStart= lines are rewritten: the comments above
# them talk about the placeholders and stay as they are.
.build/dist/org.freedesktop.Notifications.service: contrib/org.freedesktop.Notifications.service.in FORCE
	@mkdir -p .build/dist
	sed 's|^Exec=@bindir@/|Exec=$(BINDIR)/|' $< > $@
.build/dist/org.freedesktop.impl.portal.desktop.perch.service: contrib/org.freedesktop.impl.portal.desktop.perch.service.in FORCE
	@mkdir -p .build/dist
	sed 's|^Exec=@bindir@/|Exec=$(BINDIR)/|' $< > $@
.build/dist/perch.service: contrib/perch.service FORCE
	@mkdir -p .build/dist
	sed 's|^ExecStart=perch$$|ExecStart=$(BINDIR)/perch|' $< > $@

FORCE:

INSTALLED_DOCS := contrib/config.example docs/config.md docs/protocol.md README.md

# Binaries (built if missing), man pages, shell completions, the D-Bus
# activation file, the systemd user unit (Type=dbus), the example config
# and the docs, each under $(DESTDIR)$(PREFIX) (or the *DIR given).
install: laid-out man .build/dist/org.freedesktop.Notifications.service .build/dist/perch.service \
		.build/dist/org.freedesktop.impl.portal.desktop.perch.service
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" \
		"$(DESTDIR)$(DBUSSERVICEDIR)" "$(DESTDIR)$(PORTALDIR)" "$(DESTDIR)$(USERUNITDIR)" "$(DESTDIR)$(DOCDIR)" \
		"$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	install -m 0755 $(LAID_OUT)/perch $(LAID_OUT)/perchctl $(LAID_OUT)/perch-svg $(LAID_OUT)/perch-sound \
		$(LAID_OUT)/perch-share "$(DESTDIR)$(BINDIR)/"
	install -m 0644 .build/man/*.1 "$(DESTDIR)$(MANDIR)/man1/"
	install -m 0644 .build/man/*.5 "$(DESTDIR)$(MANDIR)/man5/"
	install -m 0644 .build/dist/org.freedesktop.Notifications.service \
		.build/dist/org.freedesktop.impl.portal.desktop.perch.service "$(DESTDIR)$(DBUSSERVICEDIR)/"
	install -m 0644 contrib/perch.portal "$(DESTDIR)$(PORTALDIR)/"
	install -m 0644 .build/dist/perch.service "$(DESTDIR)$(USERUNITDIR)/"
	install -m 0644 $(INSTALLED_DOCS) "$(DESTDIR)$(DOCDIR)/"
	install -m 0644 contrib/completions/perch.bash "$(DESTDIR)$(BASHCOMPDIR)/perch"
	install -m 0644 contrib/completions/perchctl.bash "$(DESTDIR)$(BASHCOMPDIR)/perchctl"
	install -m 0644 contrib/completions/_perch contrib/completions/_perchctl "$(DESTDIR)$(ZSHCOMPDIR)/"
	install -m 0644 contrib/completions/perch.fish contrib/completions/perchctl.fish "$(DESTDIR)$(FISHCOMPDIR)/"

# Removes what install put there (and the directories of Perch's own).
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/perch" "$(DESTDIR)$(BINDIR)/perchctl" "$(DESTDIR)$(BINDIR)/perch-svg" \
		"$(DESTDIR)$(BINDIR)/perch-sound" "$(DESTDIR)$(BINDIR)/perch-share" \
		$(foreach page,$(notdir $(MAN_PAGES)),"$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(page)))/$(page)") \
		"$(DESTDIR)$(DBUSSERVICEDIR)/org.freedesktop.Notifications.service" \
		"$(DESTDIR)$(DBUSSERVICEDIR)/org.freedesktop.impl.portal.desktop.perch.service" \
		"$(DESTDIR)$(PORTALDIR)/perch.portal" \
		"$(DESTDIR)$(USERUNITDIR)/perch.service" \
		"$(DESTDIR)$(BASHCOMPDIR)/perch" "$(DESTDIR)$(BASHCOMPDIR)/perchctl" \
		"$(DESTDIR)$(ZSHCOMPDIR)/_perch" "$(DESTDIR)$(ZSHCOMPDIR)/_perchctl" \
		"$(DESTDIR)$(FISHCOMPDIR)/perch.fish" "$(DESTDIR)$(FISHCOMPDIR)/perchctl.fish"
	rm -rf "$(DESTDIR)$(DOCDIR)"

# A Debian package of the release build (built if missing): make install
# into a staged root with PREFIX=/usr, then dpkg-deb (scripts/make-deb).
deb: laid-out man
	scripts/make-deb

clean:
	rm -rf .build demo-out test-out perch_*.deb

# Perch against every peer (mako 1.7.1 and 1.10, fnott, dunst, swaync) and
# the floor client in one run, one table (BENCH_PEERS=mako-1.7,dunst for a
# subset); then Perch's own time per frame: a slide, a reflow, the center
# scrolling; then where Perch's and mako 1.7.1's resident memory is, by
# mapping (bench/memory.py), and the instructions each executes per Notify
# and per close, and Perch's and the floor client's per animated frame,
# under callgrind (bench/instructions.py; bench/README.md);
# then sounds: Notify -> the sink for Perch, mako's on-notify paplay and
# paplay alone, and Perch's memory with sounds (bench/sound.py; it says so
# and skips when the audio packages are missing); then Perch's Pss with one
# toast, accessibility off against on (bench/accessibility.py); then a flood
# of 20 000 Notify calls, Perch's and both makos' memory at its peak and after
# (bench/flood.py); then `perchctl status` through a burst of 50 SVG icons
# and a hostile SVG, and the warm SVG helper's memory (bench/icons.py);
# then an idle Perch's Pss and wake-ups with while-sharing=show and hold,
# without and with PipeWire, its perch-share helper's beside them
# (bench/sharing.py).
# The Debian 13 root is made when missing. What is measured is the
# laid-out build, as shipped; first, whether link/perch.order still fits it
# (a stale order costs memory in the figures below: make link-order).
bench: export PERCH_BIN_DIR := $(LAID_OUT)
bench: laid-out
	scripts/check-link-order $(LAID_OUT)/perch || echo "make bench: measuring with a stale link order"
	$(PYTHON) bench/compare.py
	$(PYTHON) bench/frame_times.py
	$(PYTHON) bench/memory.py
	$(PYTHON) bench/instructions.py
	$(PYTHON) bench/sound.py
	$(PYTHON) bench/accessibility.py
	$(PYTHON) bench/flood.py
	$(PYTHON) bench/icons.py
	$(PYTHON) bench/sharing.py
	$(PYTHON) bench/day.py
