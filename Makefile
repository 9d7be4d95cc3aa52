# Perch — build, test, run and install.
#
#   make deps      install missing Debian packages (scripts/ensure-deps)
#   make build     swift build -c release --static-swift-stdlib (.build/release/perch, perchctl)
#   make test      generated-code check, release build, unit tests, e2e tests
#   make e2e       only the end-to-end tests (needs a release build)
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
# and the binaries run without /opt/swift.
RELEASE_FLAGS := -c release --static-swift-stdlib
PYTHON  ?= python3
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
RELEASE := .build/release
# The binaries the e2e tests run (override to test another build).
PERCH_BIN_DIR ?= $(RELEASE)
export PERCH_BIN_DIR

.PHONY: all deps build test unit e2e run demo install uninstall clean bench

all: build

deps:
	scripts/ensure-deps

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

test: deps
	scripts/gen-protocols --check
	$(SWIFT) build $(RELEASE_FLAGS)
	$(SWIFT) test
	$(PYTHON) Tests/e2e/run.py

unit:
	$(SWIFT) test

e2e:
	$(PYTHON) Tests/e2e/run.py

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
	install -m 0755 $(RELEASE)/perch $(RELEASE)/perchctl "$(DESTDIR)$(BINDIR)/"
	sed 's|@bindir@|$(BINDIR)|g' contrib/org.freedesktop.Notifications.service.in \
		> "$(DESTDIR)$(DATADIR)/dbus-1/services/org.freedesktop.Notifications.service"
	sed 's|^ExecStart=perch|ExecStart=$(BINDIR)/perch|' contrib/perch.service > "$(DESTDIR)$(USERUNITDIR)/perch.service"
	install -m 0644 contrib/config.example docs/config.md docs/protocol.md README.md "$(DESTDIR)$(DATADIR)/doc/perch/"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/perch" "$(DESTDIR)$(BINDIR)/perchctl" \
		"$(DESTDIR)$(DATADIR)/dbus-1/services/org.freedesktop.Notifications.service" \
		"$(DESTDIR)$(USERUNITDIR)/perch.service"
	rm -rf "$(DESTDIR)$(DATADIR)/doc/perch"

clean:
	rm -rf .build demo-out test-out

# Perch against mako in one headless sway, one table (bench/README.md).
bench: build
	$(PYTHON) bench/compare.py
