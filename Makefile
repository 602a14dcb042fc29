# SPDX-License-Identifier: GPL-2.0-only
# Thin wrapper around Meson. `make demo` and `make check` install missing
# Debian packages first (tools/install-deps.sh).
BUILD      ?= build
ASAN_BUILD ?= build-asan
BENCH_BUILD ?= build-bench
FUZZ_BUILD ?= build-fuzz
MESON_OPTS ?= -Dwerror=true

.PHONY: all deps build validate demo check asan bench fuzz fuzz-smoke install clean

all: build

deps:
	@sh tools/install-deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

build: deps $(BUILD)/build.ninja
	meson compile -C $(BUILD)

validate: build
	$(BUILD)/src/cli/pmlab validate --write docs/validation.md

demo: build
	@sh tools/demo.sh $(BUILD)/src/cli/pmlab

check: build
	meson test -C $(BUILD) --print-errorlogs; rc=$$?; sh tools/test-summary.sh $(BUILD); exit $$rc

$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) $(MESON_OPTS) -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

asan: deps $(ASAN_BUILD)/build.ninja
	meson compile -C $(ASAN_BUILD)
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
		meson test -C $(ASAN_BUILD) --print-errorlogs; rc=$$?; sh tools/test-summary.sh $(ASAN_BUILD); exit $$rc

$(BENCH_BUILD)/build.ninja:
	meson setup $(BENCH_BUILD) $(MESON_OPTS) -Dbuildtype=release

bench: deps $(BENCH_BUILD)/build.ninja
	meson compile -C $(BENCH_BUILD)
	$(BENCH_BUILD)/bench/bench_sim
	$(BENCH_BUILD)/bench/bench_monitor
	$(BENCH_BUILD)/bench/bench_trace
	sh bench/bench_compare.sh $(BENCH_BUILD)/src/cli/pmlab

# Every libFuzzer target for FUZZ_SECONDS (default 30) each, then a
# summary: runs, runs/s, coverage and corpus per target.
fuzz: deps
	sh fuzz/build.sh $(FUZZ_BUILD)
	bash fuzz/run.sh $(FUZZ_BUILD) $${FUZZ_SECONDS:-30}

# CI's smoke test: 3 s per target.
fuzz-smoke: deps
	sh fuzz/build.sh $(FUZZ_BUILD)
	bash fuzz/run.sh $(FUZZ_BUILD) 3

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(BENCH_BUILD) $(FUZZ_BUILD)
