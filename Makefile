# The parallel-checkout series on top of upstream git: the one entry point.
# See README.md.  Every target is a short script in scripts/.

prefix ?= $(HOME)

all: build

build:
	@scripts/install-build-deps
	@scripts/prepare-patched
	@scripts/build-git patched

test: build
	@scripts/lint-tooling
	@scripts/run-tests
	@scripts/run-tests --casefold
	@scripts/test-timestamps
	@scripts/test-sanitized

test-full: build
	@scripts/run-tests --full

test-casefold: build
	@scripts/run-tests --casefold

test-timestamps: build
	@scripts/test-timestamps

test-sanitize: build
	@scripts/test-sanitized

stock:
	@scripts/install-build-deps
	@scripts/build-git stock

install: build
	@scripts/build-git patched install prefix='$(prefix)'

export:
	@scripts/export-patches

status:
	@scripts/series-status

check-series:
	@scripts/install-build-deps
	@scripts/prepare-patched
	@scripts/check-series $(FROM)

reset-patched:
	@scripts/reset-patched

rebase:
	@scripts/rebase-upstream '$(UPSTREAM)' '$(SHA256)'

clean:
	rm -rf stock check-series sanitize sanitize.log bin variants
	@[ ! -d patched/.git ] || { git -C patched worktree prune && \
		$(MAKE) -s -C patched clean >/dev/null; }

.PHONY: all build test test-full test-casefold test-timestamps test-sanitize stock install export status check-series reset-patched rebase clean

# The benchmark (bench/, see README.md): stock, the series and gix side by side.
bench: build stock
	@scripts/install-build-deps --bench
	@bench/run linux
	@bench/run gitgit

bench-quick: build stock
	@scripts/install-build-deps --bench
	@bench/run quick

# Git LFS: 4,000 files of 20 kB, 200 of 5 MB, and the Linux tree plus
# 2,000 LFS files (bench/lfs; needs the Linux corpus of make bench).
bench-lfs: build stock
	@scripts/install-build-deps --bench
	@bench/lfs 4000 20000
	@bench/lfs 200 5000000
	@bench/lfs 2000 20000 linux

.PHONY: bench bench-quick bench-lfs
