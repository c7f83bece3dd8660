# DeskDays: the two commands are `make run` and `make test`.
# Both install the Debian packages they need (apt-get, with sudo when not root).

SHELL := /bin/bash
export PATH := $(if $(wildcard /opt/swift/usr/bin),/opt/swift/usr/bin:,)$(PATH)
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/debug/deskdays

.PHONY: all build run test deps-build deps-test fuzz bench clean

all: build

# Installs the packages listed in a deps file that are not installed yet.
define apt_install
	@missing=$$(grep -v '^\s*\(#\|$$\)' $(1) | while read -r p; do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || echo "$$p"; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=600 update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps-build:
	$(call apt_install,deps/apt-build.txt)

deps-test: deps-build
	$(call apt_install,deps/apt-test.txt)

build: deps-build
	$(SWIFT) build

# The main job: until the agent lands, show where you stand with your
# configuration (or the defaults) and how to check in.
run: build
	@$(BIN) status
	@echo
	@echo "Check in by hand:   $(BIN) checkin            (today, office)"
	@echo "Other days/kinds:   $(BIN) checkin --date 2026-11-18 --status remote"
	@echo "Full figures:       $(BIN) report"
	@echo "Your configuration: $(BIN) config show   (file: \$${XDG_CONFIG_HOME:-~/.config}/deskdays/config.toml)"

test: deps-test
	$(SWIFT) build --build-tests
	DESKDAYS_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build

fuzz: deps-build
	@set -e; for f in fuzz/*.sh; do [ -e "$$f" ] || continue; echo "== $$f"; bash "$$f"; done

bench: deps-test
	@set -e; for f in bench/*.sh; do [ -e "$$f" ] || continue; echo "== $$f"; bash "$$f"; done

clean:
	rm -rf .build
