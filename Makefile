# hotcold: build and install.
#
#   make                      # release build of the five programs, optimised for size, in .build-install
#   sudo make install         # into /usr/local (PREFIX), or a staging root with DESTDIR=
#   make install DESTDIR=/tmp/stage CONFIG=debug   # install already-built debug binaries (.build/debug)
#   make completions          # bash, zsh and fish completions from the built hotcold, into .build/completions
#   make man                  # regenerate the committed man pages (man/*.1) after changing a command's help
#
# `install` never builds (it would fight a running `swift test` for .build): build first.
# Unit files name $(PREFIX) paths: they are written with /usr/local and rewritten on install.

PREFIX     ?= /usr/local
# The configuration's home: $(PREFIX)/etc for a local install, /etc for the Debian package.
SYSCONFDIR ?= $(PREFIX)/etc
DESTDIR    ?=
CONFIG     ?= release
SWIFT      ?= swift
# Installed release binaries are optimised for size: on a small box in a car resident memory
# matters more than speed the programs do not need (hotcoldd idle: 34.4 MB with -O, 31.7 MB
# with -Osize, against 16.3 MB for a program that only imports Foundation; the engine still
# takes millions of fixes a second). They build in a directory of their own so that the plain
# -O builds of the tests and benchmarks in .build are not rebuilt.
SWIFTFLAGS ?= $(if $(filter release,$(CONFIG)),-Xswiftc -Osize)
SCRATCH    ?= $(if $(filter release,$(CONFIG)),.build-install,.build)
BINDIR_SRC ?= $(SCRATCH)/$(CONFIG)

BINDIR      = $(PREFIX)/bin
UNITDIR    ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR = $(PREFIX)/lib/sysusers.d
CONFDIR     = $(SYSCONFDIR)/hotcold
DATADIR     = $(PREFIX)/share/hotcold
DOCDIR      = $(PREFIX)/share/doc/hotcold
MANDIR      = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d
COMPDIR_SRC = .build/completions

PROGRAMS = hotcoldd hotcold hotcold-sync hotcold-mqtt hotcold-web
UNITS    = hotcoldd.service hotcoldd.socket hotcold-sync.service hotcold-mqtt.service hotcold-web.service
CONFIGS  = hotcoldd.toml hotcold-mqtt.toml hotcold-web.toml mosquitto-hotcold.acl

# Unit and configuration files name /usr/local paths; installed, they name the real ones.
RELOCATE = sed -e 's|/usr/local/etc/|$(SYSCONFDIR)/|g' -e 's|/usr/local/|$(PREFIX)/|g'

.PHONY: all build install uninstall test completions man

all: build

build:
	for p in $(PROGRAMS); do $(SWIFT) build -c $(CONFIG) --scratch-path $(SCRATCH) $(SWIFTFLAGS) --product $$p || exit 1; done

test:
	./scripts/test

# Completions come from the built binary itself (ArgumentParser writes them), so they always
# match it; `install` makes them the same way.
completions:
	for s in bash zsh fish; do ./scripts/make-completions "$(BINDIR_SRC)/hotcold" $$s "$(COMPDIR_SRC)/hotcold.$$s"; done

# The man pages are committed (a test checks them against the binaries' help); this rebuilds
# them with ArgumentParser's manual generator, which compiles a plugin tool on first use.
man:
	./scripts/regen-man

install:
	@for p in $(PROGRAMS); do \
	    if [ ! -x "$(BINDIR_SRC)/$$p" ]; then \
	        echo "make install: $(BINDIR_SRC)/$$p is missing; run 'make build' (or set CONFIG=debug / BINDIR_SRC=)" >&2; exit 1; \
	    fi; \
	done
	install -d -m 0755 "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(UNITDIR)" "$(DESTDIR)$(SYSUSERSDIR)" \
	    "$(DESTDIR)$(CONFDIR)" "$(DESTDIR)$(DATADIR)" "$(DESTDIR)$(DOCDIR)" "$(DESTDIR)$(MANDIR)" \
	    "$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	for p in $(PROGRAMS); do install -m 0755 "$(BINDIR_SRC)/$$p" "$(DESTDIR)$(BINDIR)/$$p"; done
	for u in $(UNITS); do \
	    $(RELOCATE) "systemd/$$u" > "$(DESTDIR)$(UNITDIR)/$$u.tmp" && \
	    chmod 0644 "$(DESTDIR)$(UNITDIR)/$$u.tmp" && mv "$(DESTDIR)$(UNITDIR)/$$u.tmp" "$(DESTDIR)$(UNITDIR)/$$u"; \
	done
	install -m 0644 systemd/hotcold.sysusers "$(DESTDIR)$(SYSUSERSDIR)/hotcold.conf"
	@# The configuration is the administrator's once installed: never overwrite it.
	for c in $(CONFIGS); do \
	    [ -f "config/$$c" ] || continue; \
	    if [ -e "$(DESTDIR)$(CONFDIR)/$$c" ]; then \
	        $(RELOCATE) "config/$$c" > "$(DESTDIR)$(CONFDIR)/$$c.new" && chmod 0644 "$(DESTDIR)$(CONFDIR)/$$c.new"; \
	        echo "make install: kept $(DESTDIR)$(CONFDIR)/$$c; the new default is $$c.new"; \
	    else \
	        $(RELOCATE) "config/$$c" > "$(DESTDIR)$(CONFDIR)/$$c.tmp" && \
	        chmod 0644 "$(DESTDIR)$(CONFDIR)/$$c.tmp" && mv "$(DESTDIR)$(CONFDIR)/$$c.tmp" "$(DESTDIR)$(CONFDIR)/$$c"; \
	    fi; \
	done
	if [ -d data ]; then \
	    (cd data && find . -type d) | while read -r d; do install -d -m 0755 "$(DESTDIR)$(DATADIR)/$$d"; done; \
	    (cd data && find . -type f) | while read -r f; do install -m 0644 "data/$$f" "$(DESTDIR)$(DATADIR)/$$f"; done; \
	fi
	for m in man/*.1; do install -m 0644 "$$m" "$(DESTDIR)$(MANDIR)/$${m#man/}"; done
	./scripts/make-completions "$(BINDIR_SRC)/hotcold" bash "$(DESTDIR)$(BASHCOMPDIR)/hotcold"
	./scripts/make-completions "$(BINDIR_SRC)/hotcold" zsh "$(DESTDIR)$(ZSHCOMPDIR)/_hotcold"
	./scripts/make-completions "$(BINDIR_SRC)/hotcold" fish "$(DESTDIR)$(FISHCOMPDIR)/hotcold.fish"
	for d in README.md PROTOCOL.md; do [ ! -f "$$d" ] || install -m 0644 "$$d" "$(DESTDIR)$(DOCDIR)/$$d"; done
	@# On the live system (no DESTDIR) create the hotcold group now rather than at next boot.
	@if [ -z "$(DESTDIR)" ] && command -v systemd-sysusers >/dev/null 2>&1; then \
	    systemd-sysusers "$(SYSUSERSDIR)/hotcold.conf" || true; \
	    echo "make install: now run: systemctl daemon-reload && systemctl enable --now hotcoldd.socket hotcoldd.service"; \
	    echo "make install: to use the socket as yourself: usermod -aG hotcold $$SUDO_USER (or your user), then log in again"; \
	    echo "make install: for the web sync, set [api] base_url, put the token in $(CONFDIR)/api-token (0600), then: systemctl enable --now hotcold-sync.service"; \
	fi

uninstall:
	for p in $(PROGRAMS); do rm -f "$(DESTDIR)$(BINDIR)/$$p"; done
	for u in $(UNITS); do rm -f "$(DESTDIR)$(UNITDIR)/$$u"; done
	rm -f "$(DESTDIR)$(SYSUSERSDIR)/hotcold.conf"
	for m in man/*.1; do rm -f "$(DESTDIR)$(MANDIR)/$${m#man/}"; done
	rm -f "$(DESTDIR)$(BASHCOMPDIR)/hotcold" "$(DESTDIR)$(ZSHCOMPDIR)/_hotcold" "$(DESTDIR)$(FISHCOMPDIR)/hotcold.fish"
	rm -rf "$(DESTDIR)$(DATADIR)" "$(DESTDIR)$(DOCDIR)"
	@echo "make uninstall: left $(DESTDIR)$(CONFDIR) in place"
