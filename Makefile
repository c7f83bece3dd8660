# DeskDays: the two commands are `make run` and `make test`.
# Both install the Debian packages they need (apt-get, with sudo when not root).

SHELL := /bin/bash
export PATH := $(if $(wildcard /opt/swift/usr/bin),/opt/swift/usr/bin:,)$(PATH)
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/debug/deskdays

.PHONY: ui all build run test test-suites test-twice deps-build deps-test fuzz bench clean catalogs po holidays holidays-lib

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

# The tests build and check the Debian package too (DebianPackageTests): deps/apt-deb.txt.
deps-test: deps-build holidays-lib
	$(call apt_install,deps/apt-test.txt)
	$(call apt_install,deps/apt-deb.txt)

# Public holidays by region (docs/cli.md "Holidays by region"): the shipped
# data/holidays/holidays.tsv is written by tools/holidays/generate.py from the
# `holidays` library (PyPI, MIT) at the version in tools/holidays/VERSION,
# installed into .build/holidays-lib (HolidaysTests compares the data with it).
# The programs read only the file.
HOLIDAYS_VERSION := $(shell cat tools/holidays/VERSION)
HOLIDAYS_LIB := .build/holidays-lib
holidays-lib:
	$(call apt_install,deps/apt-holidays.txt)
	@[ "$$(PYTHONPATH=$(HOLIDAYS_LIB) /usr/bin/python3 -c 'import holidays; print(holidays.__version__)' 2>/dev/null)" = "$(HOLIDAYS_VERSION)" ] || \
		{ rm -rf $(HOLIDAYS_LIB) && /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location --root-user-action=ignore \
			--target $(HOLIDAYS_LIB) holidays==$(HOLIDAYS_VERSION); }

holidays: holidays-lib
	PYTHONPATH=$(HOLIDAYS_LIB) /usr/bin/python3 tools/holidays/generate.py data/holidays/holidays.tsv

build: deps-build catalogs
	$(SWIFT) build

# Message catalogs (docs/cli.md, "Languages"): po/LANG.po compiled into
# .build/share/locale, where a program under .build/debug finds them
# ("share/locale beside the installation prefix"); `make install` copies them.
LANGUAGES := $(basename $(notdir $(wildcard po/*.po)))
LOCALE_BUILD := .build/share/locale
catalogs: deps-build
	@for l in $(LANGUAGES); do install -d $(LOCALE_BUILD)/$$l/LC_MESSAGES && \
		msgfmt --check -o $(LOCALE_BUILD)/$$l/LC_MESSAGES/deskdays.mo po/$$l.po || exit 1; done

# After changing messages in the sources: the template, then every catalog merged with it.
po:
	python3 po/extract.py
	@for l in $(LANGUAGES); do msgmerge --quiet --update --backup=none --no-fuzzy-matching po/$$l.po po/deskdays.pot; done

# The window's GtkBuilder files, compiled into a C source SwiftPM builds (committed, so `swift build`
# alone needs no extra step): run after editing Sources/DeskDaysWindow/ui; AppWindowTests checks it is current.
UI_RESOURCES := Sources/DeskDaysWindowResources/resources.c
ui:
	glib-compile-resources --sourcedir Sources/DeskDaysWindow --generate-source --c-name deskdays_window \
		--manual-register --target $(UI_RESOURCES) Sources/DeskDaysWindow/deskdays.gresource.xml

# The main job: build, show where you stand, then run the agent in the
# foreground with your configuration (Ctrl-C stops it). With no configuration
# it lists the check-in methods this build has and how to enable them, and
# keeps running for manual check-ins (`deskdays checkin` goes through it).
run: build
	@$(BIN) status || true
	@echo
	@echo "Check in by hand (in another terminal): $(BIN) checkin   |   live status: $(BIN) status --follow"
	@echo "Hardware check: $(BIN) doctor   |   configuration: \$${XDG_CONFIG_HOME:-~/.config}/deskdays/config.toml"
	@echo
	@DESKDAYS_LOG=$${DESKDAYS_LOG:-notice} exec $(BIN) agent

test: deps-test
	@[ -n "$(BENCH_SUITES)" ] || { echo "make test: no suite is tagged .hardwareBench; the Makefile cannot split the run" >&2; exit 1; }
	python3 po/extract.py --check
	po/check.sh
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory test-suites

# Both passes, on what is built (for test and test-twice).
test-suites:
	LC_ALL=C LANGUAGE= DESKDAYS_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build --skip '$(BENCH_SUITES)'
	LC_ALL=C LANGUAGE= DESKDAYS_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build --no-parallel --filter '$(BENCH_SUITES)'

# The check that keeps `make test` a promise (docs/testing.md "Load and
# hour"): every suite twice back to back, with one core kept busy by a
# spinning process, under a TZ where it is 22:xx now. No retry: one red run fails it.
test-twice: deps-test
	python3 po/extract.py --check
	po/check.sh
	$(SWIFT) build --build-tests
	@h=$$(date -u +%H); off=$$(( (22 - 10#$$h + 36) % 24 - 12 )); \
	if [ $$off -le 0 ]; then tz=Etc/GMT+$$(( -off )); else tz=Etc/GMT-$$off; fi; \
	echo "test-twice: TZ=$$tz (local time $$(TZ=$$tz date +%H:%M)), one core kept busy"; \
	( while :; do :; done ) & busy=$$!; trap "kill $$busy" EXIT; \
	for round in 1 2; do echo "== round $$round"; TZ=$$tz $(MAKE) --no-print-directory test-suites || exit 1; done

# Suites tagged `.hardwareBench` (Tests/Support/Tags.swift) drive simulated
# hardware in real time (pcscd polling, a PN532 on a pty, qemu VMs under TCG):
# they run one at a time after the rest, so a loaded machine cannot starve
# their timing. Swift 6.3's `swift test --filter tag:…` selects nothing yet,
# so their names are read from the sources, by the tag.
BENCH_SUITES := $(shell awk '/@Suite.*[.]hardwareBench/ { tagged = 1 } tagged && match($$0, /struct [A-Za-z0-9_]+/) { print substr($$0, RSTART + 7, RLENGTH - 7); tagged = 0 }' $$(grep -rl '[.]hardwareBench' Tests) | sort | paste -sd'|')

fuzz: deps-build
	@set -e; for f in fuzz/*.sh; do [ -e "$$f" ] || continue; echo "== $$f"; bash "$$f"; done

bench: deps-test
	@set -e; for f in bench/*.sh; do [ -e "$$f" ] || continue; echo "== $$f"; bash "$$f"; done

clean:
	rm -rf .build
	rm -rf debian/deskdays debian/.debhelper debian/generated debian/tmp debian/files debian/*.substvars debian/debhelper-build-stamp

# --- Installing for the current user -------------------------------------
# make install [PREFIX=~/.local]: the three executables, the systemd user unit, shell
# completions, a man page, a sample configuration, and (as root) udev rules.
# make uninstall removes exactly those; never your data or configuration.
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
# deskdays-cli (the command tree) and deskdays-hardware (the agent, doctor,
# enroll gps|nfc|wifi|qr, qr): the `deskdays` launcher finds them in ../libexec/deskdays.
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR ?= $(PREFIX)/share
UNITDIR ?= $(HOME)/.config/systemd/user
UDEVDIR ?= /etc/udev/rules.d
INSTALL_CONFIG ?= release
# Extra flags for the build (e.g. --scratch-path DIR, then set INSTALL_BIN to match).
INSTALL_BUILD_FLAGS ?=
# The Swift runtime and Foundation are linked into the programs, as in the
# package: an installed DeskDays never loads anything from the toolchain's
# folder, so removing or upgrading the toolchain cannot break it.
INSTALL_LINK_FLAGS := --static-swift-stdlib
INSTALL_BIN ?= .build/$(INSTALL_CONFIG)/deskdays
UDEV_RULES := $(wildcard udev/*.rules)

.PHONY: install uninstall deb test-deb

install: deps-build catalogs
	$(SWIFT) build -c $(INSTALL_CONFIG) $(INSTALL_BUILD_FLAGS) $(INSTALL_LINK_FLAGS) --product deskdays
	$(SWIFT) build -c $(INSTALL_CONFIG) $(INSTALL_BUILD_FLAGS) $(INSTALL_LINK_FLAGS) --product deskdays-cli
	$(SWIFT) build -c $(INSTALL_CONFIG) $(INSTALL_BUILD_FLAGS) $(INSTALL_LINK_FLAGS) --product deskdays-hardware
	$(SWIFT) build -c $(INSTALL_CONFIG) $(INSTALL_BUILD_FLAGS) $(INSTALL_LINK_FLAGS) --product deskdays-app
	install -Dm755 $(INSTALL_BIN) $(BINDIR)/deskdays
	install -Dm755 $(INSTALL_BIN)-cli $(LIBEXECDIR)/deskdays/deskdays-cli
	install -Dm755 $(INSTALL_BIN)-hardware $(LIBEXECDIR)/deskdays/deskdays-hardware
	install -Dm755 $(INSTALL_BIN)-app $(BINDIR)/deskdays-app
	$(MAKE) --no-print-directory install-desktop
	install -d -m700 $(HOME)/.local/share/deskdays
	install -d $(UNITDIR)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' config/deskdays.service > $(UNITDIR)/deskdays.service
	chmod 644 $(UNITDIR)/deskdays.service
	@# D-Bus activation: the first call to io.github.deskdays.DeskDays1 starts the agent (through systemd when it runs the session).
	install -d $(DATADIR)/dbus-1/services
	sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' config/io.github.deskdays.DeskDays1.service > $(DATADIR)/dbus-1/services/io.github.deskdays.DeskDays1.service
	chmod 644 $(DATADIR)/dbus-1/services/io.github.deskdays.DeskDays1.service
	install -d $(DATADIR)/bash-completion/completions $(DATADIR)/zsh/site-functions $(DATADIR)/fish/vendor_completions.d
	$(INSTALL_BIN) --generate-completion-script bash > $(DATADIR)/bash-completion/completions/deskdays
	$(INSTALL_BIN) --generate-completion-script zsh > $(DATADIR)/zsh/site-functions/_deskdays
	$(INSTALL_BIN) --generate-completion-script fish > $(DATADIR)/fish/vendor_completions.d/deskdays.fish
	@# The man page comes from the command definitions (swift-argument-parser's plugin, offline).
	@install -d $(DATADIR)/man/man1; \
	out=$$(mktemp -d); \
	if $(SWIFT) package $(INSTALL_BUILD_FLAGS) --allow-writing-to-directory $$out generate-manual --configuration $(INSTALL_CONFIG) --output-directory $$out >/dev/null 2>&1 \
	   && [ -f $$out/deskdays.1 ]; then sed -i 's/^$$/.Pp/' $$out/deskdays.1; \
	   install -m644 $$out/deskdays.1 $(DATADIR)/man/man1/deskdays.1; echo "man page: $(DATADIR)/man/man1/deskdays.1"; \
	else echo "note: the man page could not be generated (swift package generate-manual failed); skipped"; fi; rm -rf $$out
	install -Dm644 config/config.toml $(DATADIR)/doc/deskdays/config.toml.sample
	install -Dm644 data/holidays/holidays.tsv $(DATADIR)/deskdays/holidays.tsv
	@for l in $(LANGUAGES); do install -Dm644 $(LOCALE_BUILD)/$$l/LC_MESSAGES/deskdays.mo $(DATADIR)/locale/$$l/LC_MESSAGES/deskdays.mo; done
	@cfg=$${XDG_CONFIG_HOME:-$(HOME)/.config}/deskdays/config.toml; \
	if [ ! -e $$cfg ]; then install -d -m700 $$(dirname $$cfg) && install -m600 config/config.toml $$cfg && echo "sample configuration: $$cfg"; fi
	@if [ "$$(id -u)" = 0 ] && [ -n "$(UDEV_RULES)" ]; then \
		install -d $(UDEVDIR) && install -m644 $(UDEV_RULES) $(UDEVDIR)/ && echo "udev rules: $(UDEVDIR)"; \
		command -v udevadm >/dev/null && udevadm control --reload 2>/dev/null || true; \
	else echo "udev rules not installed (needs root): sudo install -m644 $(UDEV_RULES) $(UDEVDIR)/"; fi
	@systemctl --user daemon-reload 2>/dev/null || true
	@echo "Installed. Start the agent at login: systemctl --user enable --now deskdays"

# The app's desktop files (data/): the desktop entry (its Exec lines with BINDIR's
# programs, so a BINDIR outside PATH still starts them), the AppStream metainfo,
# the icons, and the D-Bus interface's introspection XML (config/).
APP_ID := io.github.deskdays.DeskDays
.PHONY: install-desktop
install-desktop:
	install -d $(DATADIR)/applications
	sed -e 's|^Exec=deskdays|Exec=$(BINDIR)/deskdays|' data/$(APP_ID).desktop > $(DATADIR)/applications/$(APP_ID).desktop
	chmod 644 $(DATADIR)/applications/$(APP_ID).desktop
	install -Dm644 data/$(APP_ID).metainfo.xml $(DATADIR)/metainfo/$(APP_ID).metainfo.xml
	install -Dm644 data/icons/hicolor/scalable/apps/$(APP_ID).svg $(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg
	install -Dm644 data/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg $(DATADIR)/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg
	install -Dm644 config/io.github.deskdays.DeskDays1.xml $(DATADIR)/dbus-1/interfaces/io.github.deskdays.DeskDays1.xml

uninstall:
	@systemctl --user disable --now deskdays 2>/dev/null || true
	rm -f $(BINDIR)/deskdays $(UNITDIR)/deskdays.service
	rm -rf $(LIBEXECDIR)/deskdays
	rm -f $(DATADIR)/bash-completion/completions/deskdays $(DATADIR)/zsh/site-functions/_deskdays \
		$(DATADIR)/fish/vendor_completions.d/deskdays.fish $(DATADIR)/man/man1/deskdays.1 \
		$(DATADIR)/dbus-1/services/io.github.deskdays.DeskDays1.service $(BINDIR)/deskdays-app \
		$(DATADIR)/applications/$(APP_ID).desktop $(DATADIR)/metainfo/$(APP_ID).metainfo.xml \
		$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg $(DATADIR)/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg \
		$(DATADIR)/dbus-1/interfaces/io.github.deskdays.DeskDays1.xml
	rm -rf $(DATADIR)/doc/deskdays
	@# Only the file: $(DATADIR)/deskdays is also where your database is (the default PREFIX).
	rm -f $(DATADIR)/deskdays/holidays.tsv
	@for l in $(LANGUAGES); do rm -f $(DATADIR)/locale/$$l/LC_MESSAGES/deskdays.mo; done
	@if [ "$$(id -u)" = 0 ]; then for r in $(notdir $(UDEV_RULES)); do rm -f $(UDEVDIR)/$$r; done; fi
	@systemctl --user daemon-reload 2>/dev/null || true
	@echo "Uninstalled. Your data ($${XDG_DATA_HOME:-$(HOME)/.local/share}/deskdays) and configuration ($${XDG_CONFIG_HOME:-$(HOME)/.config}/deskdays) are kept."

# --- The Debian package (debian/; docs/testing.md "The Debian package") ---
# make deb: $(DEB_DIR)/deskdays_VERSION_ARCH.deb, built by dpkg-buildpackage
# (debhelper) with the Swift toolchain from /opt/swift or SWIFT (not a Debian
# package), without the network. Everything it writes is under DEB_DIR:
# - $(DEB_SRC): the files git knows in this tree (committed, changed, new and
#   not ignored; plus Package.resolved when there is one, so the package uses
#   the versions the debug build uses), as a clean clone would have them, and
#   nothing else (no .build, no stray file). Only files that changed are
#   rewritten, so the release build kept in $(DEB_SRC)/.build (SwiftPM's
#   scratch folder) compiles only what changed since the last `make deb`.
# - the .deb, .buildinfo and .changes (dpkg-buildpackage writes them in the
#   folder above the source, DEB_DIR), checked by lintian, which must print
#   no error or warning (overrides: debian/deskdays.lintian-overrides).
# The Swift packages come from SWIFTPM_CACHE (SwiftPM's cache of the
# repositories, filled by any earlier `swift build` or `swift package
# resolve` with the network) or the checkouts already in $(DEB_SRC)/.build;
# the build itself never resolves (debian/rules). Missing ones are named in
# one sentence. The resolve step is bounded (DEB_RESOLVE_SECONDS; its output
# in DEB_DIR/resolve.log): SwiftPM's resolve has been seen to hang after its
# fetches failed (swiftlang/swift-package-manager#9274), and the packages it
# was still fetching when stopped are the ones named.
DEB_DIR ?= .build/deb
DEB_SRC = $(DEB_DIR)/deskdays
SWIFTPM_CACHE ?= $(HOME)/.cache/org.swift.swiftpm
DEB_RESOLVE_SECONDS ?= 120
DEB_VERSION = $(shell dpkg-parsechangelog -S Version)
DEB_ARCH = $(shell dpkg --print-architecture)
DEB_FILE = deskdays_$(DEB_VERSION)_$(DEB_ARCH)

# The checkout make runs in is the one to package, whoever owns it (CI may
# clone as another user: git would refuse it as of "dubious ownership").
GIT = git -c safe.directory='*'

deb: deps-build
	$(call apt_install,deps/apt-deb.txt)
	@$(GIT) rev-parse --git-dir >/dev/null 2>&1 || { echo "make deb: the package is built from the files git knows, and this folder is not a git checkout: clone the repository" >&2; exit 1; }
	@set -e; mkdir -p $(DEB_SRC); idx=$(abspath $(DEB_DIR))/tree.index; \
	cp "$$($(GIT) rev-parse --git-path index)" $$idx.new; \
	tree=$$(GIT_INDEX_FILE=$$idx.new $(GIT) add -A && GIT_INDEX_FILE=$$idx.new $(GIT) write-tree); rm -f $$idx.new; \
	GIT_INDEX_FILE=$$idx $(GIT) --work-tree=$(abspath $(DEB_SRC)) read-tree -u --reset $$tree; \
	if [ -f Package.resolved ]; then cmp -s Package.resolved $(DEB_SRC)/Package.resolved || cp -p Package.resolved $(DEB_SRC)/; fi
	@echo "make deb: the source tree in $(DEB_SRC); the Swift packages from $(SWIFTPM_CACHE)"
	@cd $(DEB_SRC) && log=$(abspath $(DEB_DIR))/resolve.log; \
	timeout --kill-after=10 $(DEB_RESOLVE_SECONDS) $(SWIFT) package --cache-path $(SWIFTPM_CACHE) resolve >$$log 2>&1 || { \
		status=$$?; why="they cannot be fetched"; [ $$status -lt 124 ] || why="fetching them did not finish in $(DEB_RESOLVE_SECONDS) s"; \
		missing=$$(awk '/^Fetching /{ f[$$2] = 1 } /^Fetched /{ delete f[$$2] } END { for (u in f) print u }' $$log | sort | paste -sd' '); \
		echo "make deb: the Swift package(s) $${missing:-named below} are neither checked out in $(DEB_SRC)/.build nor in $(SWIFTPM_CACHE), and $$why: run \`swift package resolve\` here once with the network" >&2; \
		[ -n "$$missing" ] || tail -3 $$log >&2; exit 1; }
	rm -f $(DEB_DIR)/deskdays_*.deb $(DEB_DIR)/deskdays-dbgsym_*.deb $(DEB_DIR)/deskdays_*.buildinfo $(DEB_DIR)/deskdays_*.changes
	cd $(DEB_SRC) && SWIFT=$$(command -v $(SWIFT)) dpkg-buildpackage -b --no-sign
	lintian --fail-on error,warning $(DEB_DIR)/$(DEB_FILE).changes
	@echo "package: $(abspath $(DEB_DIR))/$(DEB_FILE).deb ($$(du -h $(DEB_DIR)/$(DEB_FILE).deb | cut -f1)); install it with: sudo apt install ./$(DEB_DIR)/$(DEB_FILE).deb"

# make test-deb: the package installed with apt into a bare Debian 12 made by
# debootstrap (cached in .build/deb-test), run there as a new user, purged;
# then in a Debian 12 booted with systemd-nspawn, the agent under the user unit.
test-deb: deb
	$(SUDO) Tests/Harness/deb/check.sh $(DEB_DIR)/$(DEB_FILE).deb
	$(SUDO) Tests/Harness/deb/systemd.sh $(DEB_DIR)/$(DEB_FILE).deb
