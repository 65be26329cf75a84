# tbrd — the only entry points a new user needs.
#   make deps    install the Debian packages the build and the tests need (idempotent)
#   make build   build every target (debug)
#   make test    deps + build + the whole test suite (fails, never skips, when a real component is missing)
#   make matter-server  python-matter-server from PyPI in .build/matter-server-venv (make test does it)
#   make demo    the main job end to end on simulated border routers
#   make bench   benchmarks (never part of make test)
#   make bench-quick  each benchmark once with small counts on the debug build: do they still run? (CI)
#   make fuzz    run each fuzz target for FUZZ_SECONDS
#   make stress  the HTTP server and API suites 6 times in a row (the load suite once) under stress-ng --cpu 2 (CI)
#   make tsan    the D-Bus, otbr-agent client, device model and daemon suites under ThreadSanitizer
#   make install binaries and config into DESTDIR/PREFIX
#   make deb     the Debian packages tbrd and otbr-sim (dpkg-buildpackage, checked by lintian); prints the .deb
#   make deb-check  installs them on this machine, checks what a user gets, purges them (CI; changes the machine)
#   make link-order  remake scripts/link-order.txt, the functions the release link packs together (valgrind, perf)
#   make link-order-check  fail when that list has rotted (> 5% of its Swift functions gone from the release build; CI)

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
SYSCONFDIR   ?= /etc
UNITDIR      ?= $(PREFIX)/lib/systemd/system
SWIFT_FLAGS  ?=
FUZZ_SECONDS ?= 300
# The one release build, make install's and the packages' (scripts/release-build: how it is compiled
# and linked, scripts/release-link-flags; docs/performance.md). Its products are in .build/deb/release.
RELEASE_BUILD = SWIFT="$(SWIFT)" scripts/release-build

# Every Debian package the project uses: C libraries for the build, real daemons and tools for the tests.
DEB_PACKAGES = pkg-config libdbus-1-dev libavahi-client-dev libssl-dev libsqlite3-dev libcurl4-openssl-dev libmicrohttpd-dev libstdc++-12-dev \
               dbus-daemon dbus-bin systemd avahi-daemon avahi-utils nftables iproute2 iputils-ping \
               python3 python3-venv python3-dbus python3-gi util-linux procps sqlite3 \
               libnl-route-3-200 libglib2.0-0 openssl groff-base fish zsh \
               debhelper dpkg-dev lintian binutils graphviz curl chromium prometheus \
               libmosquitto-dev mosquitto mosquitto-clients
# And what the benchmarks need besides: a C compiler for bench/dbus-raw.c (libnl-route-3-200, which the
# CHIP SDK's library links, is in DEB_PACKAGES already: the tests run python-matter-server).
BENCH_PACKAGES = gcc
# And what make link-order needs.
LINK_ORDER_PACKAGES = valgrind linux-perf

.PHONY: all deps mbedtls bench-deps build link-order-check test stress tsan fuzz-smoke fuzz bench bench-quick demo install deb deb-check clean matter-server amqtt link-order

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" -ne 0 ]; then \
	    echo "tbrd needs these Debian packages; run:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	  echo "installing:$$missing"; \
	  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q$$missing >/dev/null; \
	fi

# mbedTLS with EC-JPAKE from Debian's source package, private to the build (.build/mbedtls; the ePSKc's
# DTLS needs it and Debian's libmbedtls lacks it; scripts/mbedtls.sh, docs/architecture.md).
mbedtls: deps
	scripts/mbedtls.sh

build: mbedtls
	$(SWIFT) build $(SWIFT_FLAGS)

# python-matter-server (PyPI) for the tests that run the real commissioner; cached in .build.
matter-server: deps
	scripts/matter-server-venv.sh

# amqtt (PyPI), a broker of MQTT 3.1.1 only, for the test of tbrd's fallback from MQTT 5; cached in .build.
amqtt: deps
	scripts/amqtt-venv.sh

test: build matter-server amqtt
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_FLAGS)
	@echo "make demo (checked as part of make test; its output: .build/demo.log)"
	@demo/run.sh > .build/demo.log 2>&1 || { cat .build/demo.log; echo "make demo failed" >&2; exit 1; }
	$(MAKE) --no-print-directory fuzz-smoke

# The HTTP server's and the API's suites again and again with both cores kept busy (scripts/stress.sh);
# on the debug build and tests make test made (built here if missing).
stress: build
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_PACKAGES) stress-ng"
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	scripts/stress.sh

# ThreadSanitizer over the suites that drive the DBus layer from many tasks at once. Its own scratch
# path, so the debug build is left alone; the binaries the tests spawn (tbrd, otbr-sim) are built there
# with TSan too. Reports of every process, children included, go to $(TSAN_REPORTS); any report fails.
TSAN_SCRATCH = .build/tsan
TSAN_REPORTS = $(TSAN_SCRATCH)/reports
# The API's load suite measures capacity (1,000 connections, 100 requests a second for 30 s), not races;
# under TSan's slowdown it would measure TSan. Its server code runs under TSan in HTTPAPITests. The web
# page's suite drives headless Chromium against the same API routes HTTPAPITests covers: minutes under TSan
# for no code of tbrd's that HTTPAPITests does not already run.
TSAN_SKIP ?= HTTPAPILoadTests|WebPageTests
TSAN_SUITES ?= DBusTests|OpenThreadBRTests|DeviceModelTests|RouterFleetTests|InternetAccessPolicyTests|MatterCommissioningTests|TBRDaemonTests

tsan: mbedtls
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH) $(SWIFT_FLAGS)
	rm -rf $(TSAN_REPORTS) && mkdir -p $(TSAN_REPORTS)
	@status=0; \
	TSAN_OPTIONS="log_path=$(CURDIR)/$(TSAN_REPORTS)/tsan $$TSAN_OPTIONS" \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --filter '$(TSAN_SUITES)' --skip '$(TSAN_SKIP)' $(SWIFT_FLAGS) \
	  || status=$$?; \
	if ls $(TSAN_REPORTS)/tsan.* >/dev/null 2>&1; then \
	  cat $(TSAN_REPORTS)/tsan.*; echo "ThreadSanitizer reported the problems above" >&2; exit 1; \
	fi; \
	[ $$status -eq 0 ] || exit $$status; \
	echo "ThreadSanitizer: no reports"

bench-deps: mbedtls
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_PACKAGES) $(BENCH_PACKAGES)"

# Remakes scripts/link-order.txt from the current code (a few minutes: a release build, tbrd and tbrctl
# under callgrind, then the page faults of the ordered tbrd); commit the list it writes.
link-order: deps
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_PACKAGES) $(LINK_ORDER_PACKAGES)"
	scripts/link-order.sh

# Every script under bench/ (bench/run.sh lists them); fails when one fails or prints no ratio.
bench: bench-deps
	bench/run.sh

# The same scripts with small counts, on the debug build make test made (built here if missing): proves
# that each still runs to the end and prints its ratios, in about a minute; asserts no speed.
bench-quick: bench-deps
	bench/run.sh --quick

demo: build
	demo/run.sh

# Installs the release binaries (the Swift runtime linked in, so they run without the toolchain), the
# D-Bus policy, the systemd unit, the user and groups (sysusers), the default configuration (never over
# an existing one), the manual pages, the shell completions and the docs. PREFIX, DESTDIR, SYSCONFDIR
# and UNITDIR are honoured.
install: mbedtls
	@# Every binary position-independent, as Debian builds them (tbrctl reads datasets, TXT records and
	@# REST answers from the network, often as root: it keeps ASLR).
	$(RELEASE_BUILD) $(SWIFT_FLAGS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(SYSCONFDIR)/dbus-1/system.d $(DESTDIR)$(SYSCONFDIR)/tbrd \
	  $(DESTDIR)$(SYSCONFDIR)/sysusers.d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(PREFIX)/share/doc/tbrd \
	  $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/man/man8 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	bin=$$($(RELEASE_BUILD) $(SWIFT_FLAGS) --show-bin-path); \
	  install -s -m 0755 $$bin/tbrd $$bin/tbrctl $$bin/otbr-sim $$bin/matter-sim $(DESTDIR)$(PREFIX)/bin/ && \
	  scripts/generate-docs.sh $$bin .build/release-docs
	install -m 0644 .build/release-docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 .build/release-docs/man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 0644 .build/release-docs/man/*.8 $(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 0644 .build/release-docs/completions/tbrctl.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tbrctl
	install -m 0644 .build/release-docs/completions/_tbrctl $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tbrctl
	install -m 0644 .build/release-docs/completions/tbrctl.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tbrctl.fish
	install -m 0644 config/dbus/io.tbrd.conf $(DESTDIR)$(SYSCONFDIR)/dbus-1/system.d/io.tbrd.conf
	install -m 0644 config/sysusers/tbrd.conf $(DESTDIR)$(SYSCONFDIR)/sysusers.d/tbrd.conf
	[ -n "$(DESTDIR)" ] || ! command -v systemd-sysusers >/dev/null || systemd-sysusers $(SYSCONFDIR)/sysusers.d/tbrd.conf
	sed 's|@TBRD@|$(PREFIX)/bin/tbrd|g' config/systemd/tbrd.service > $(DESTDIR)$(UNITDIR)/tbrd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/tbrd.service
	[ -e $(DESTDIR)$(SYSCONFDIR)/tbrd/tbrd.conf ] || install -m 0644 config/tbrd.conf $(DESTDIR)$(SYSCONFDIR)/tbrd/tbrd.conf
	install -m 0644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/tbrd/

# The Debian packages, built by dpkg-buildpackage with debian/ (debhelper) into .build/deb/out and checked
# by lintian (no error, no warning); the last line printed is the path of tbrd_VERSION_ARCH.deb.
deb: mbedtls
	SWIFT="$$(command -v $(SWIFT))" scripts/build-deb.sh .build/deb/out

deb-check: deb
	scripts/check-deb.sh .build/deb/out

# The release build make deb leaves (.build/deb/release; run after make deb or make deb-check) against
# scripts/link-order.txt: the list may not rot unseen (docs/performance.md, "Remaking the link order").
link-order-check:
	scripts/link-order-check.sh .build/deb/release

clean:
	rm -rf .build fuzz/build bench/build

fuzz-smoke:
	fuzz/run.sh dataset 5 && fuzz/run.sh txt 5 && fuzz/run.sh matter 5 && fuzz/run.sh websocket 5 \
	  && fuzz/run.sh json 5 && fuzz/run.sh rest 5 && fuzz/run.sh routes 5 && fuzz/run.sh coap 5 && fuzz/run.sh dtls 5 && fuzz/run.sh api 5 && fuzz/run.sh backup 5 \
	  && fuzz/run.sh mqtt 5

fuzz:
	fuzz/run.sh dataset $(FUZZ_SECONDS) && fuzz/run.sh txt $(FUZZ_SECONDS) && fuzz/run.sh matter $(FUZZ_SECONDS) \
	  && fuzz/run.sh websocket $(FUZZ_SECONDS) && fuzz/run.sh json $(FUZZ_SECONDS) && fuzz/run.sh rest $(FUZZ_SECONDS) \
	  && fuzz/run.sh routes $(FUZZ_SECONDS) && fuzz/run.sh coap $(FUZZ_SECONDS) && fuzz/run.sh dtls $(FUZZ_SECONDS) \
	  && fuzz/run.sh api $(FUZZ_SECONDS) && fuzz/run.sh backup $(FUZZ_SECONDS) && fuzz/run.sh mqtt $(FUZZ_SECONDS)
