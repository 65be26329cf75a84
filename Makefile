# tbrd — the only entry points a new user needs.
#   make deps    install the Debian packages the build and the tests need (idempotent)
#   make build   build every target (debug)
#   make test    deps + build + the whole test suite (fails, never skips, when a real component is missing)
#   make demo    the main job end to end on simulated border routers
#   make bench   benchmarks (never part of make test)
#   make fuzz    run each fuzz target for FUZZ_SECONDS
#   make install binaries and config into DESTDIR/PREFIX

SWIFT        ?= swift
PREFIX       ?= /usr/local
DESTDIR      ?=
SWIFT_FLAGS  ?=
FUZZ_SECONDS ?= 300

# Every Debian package the project uses: C libraries for the build, real daemons and tools for the tests.
DEB_PACKAGES = pkg-config libdbus-1-dev libavahi-client-dev libssl-dev libsqlite3-dev \
               dbus-daemon dbus-bin systemd avahi-daemon avahi-utils nftables iproute2 \
               python3 python3-venv python3-dbus util-linux procps

.PHONY: all deps build test fuzz-smoke fuzz bench demo install clean

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

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

test: build
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_FLAGS)
	$(MAKE) --no-print-directory fuzz-smoke

bench: deps
	bench/dbus.sh
	bench/meshcop.sh

demo: deps
	@echo "make demo arrives with the daemon (issue 6); nothing to demonstrate yet." >&2; exit 1

install: build
	@echo "make install arrives with the daemon (issue 6)." >&2; exit 1

clean:
	rm -rf .build fuzz/build bench/build

fuzz-smoke:
	fuzz/run.sh dataset 20 && fuzz/run.sh txt 20

fuzz:
	fuzz/run.sh dataset $(FUZZ_SECONDS) && fuzz/run.sh txt $(FUZZ_SECONDS)
