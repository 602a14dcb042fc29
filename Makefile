# SPDX-License-Identifier: GPL-2.0-only
# Thin wrapper around Meson. `make demo` and `make check` install missing
# Debian packages first (tools/install-deps.sh).
BUILD      ?= build
ASAN_BUILD ?= build-asan
BENCH_BUILD ?= build-bench
FUZZ_BUILD ?= build-fuzz
COVERAGE_BUILD ?= build-coverage
MESON_OPTS ?= -Dwerror=true
TEST_SUMMARY = rc=$$?; sh tools/test-summary.sh

.PHONY: all deps build validate demo check check-quick check-real asan coverage bench fuzz \
	fuzz-smoke install clean

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

# Every test (< 2 min here); check-quick leaves out the suite 'slow' (< 20 s);
# check-real runs the tests that touch this machine (tracefs, cpuidle, PM
# QoS; as root), which the other two skip.
check: build
	meson test -C $(BUILD) --print-errorlogs; $(TEST_SUMMARY) $(BUILD); exit $$rc

check-quick: build
	meson test -C $(BUILD) --print-errorlogs --no-suite slow; $(TEST_SUMMARY) $(BUILD); exit $$rc

check-real: build
	PMLAB_TEST_REAL_MACHINE=1 meson test -C $(BUILD) --print-errorlogs host trace_cli; \
		$(TEST_SUMMARY) $(BUILD); exit $$rc

$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) $(MESON_OPTS) -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

# A debug build under ASan and UBSan runs 3-5 times slower than the release
# build the timeouts are set for, hence the multiplier.
asan: deps $(ASAN_BUILD)/build.ninja
	meson compile -C $(ASAN_BUILD)
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
		meson test -C $(ASAN_BUILD) --print-errorlogs --timeout-multiplier 3; $(TEST_SUMMARY) $(ASAN_BUILD); exit $$rc

# Line and branch coverage of src/ by the whole suite (gcovr), in
# $(COVERAGE_BUILD)/coverage/index.html; the summary goes to the terminal.
$(COVERAGE_BUILD)/build.ninja:
	meson setup $(COVERAGE_BUILD) $(MESON_OPTS) -Db_coverage=true -Dbuildtype=debug

coverage: deps $(COVERAGE_BUILD)/build.ninja
	@sh tools/install-deps.sh coverage
	meson compile -C $(COVERAGE_BUILD)
	find $(COVERAGE_BUILD) -name '*.gcda' -delete
	meson test -C $(COVERAGE_BUILD) --print-errorlogs; $(TEST_SUMMARY) $(COVERAGE_BUILD); \
		[ $$rc = 0 ] || exit $$rc
	mkdir -p $(COVERAGE_BUILD)/coverage
	gcovr -r . --filter src/ --exclude-unreachable-branches --print-summary \
		--html-details $(COVERAGE_BUILD)/coverage/index.html $(COVERAGE_BUILD)

# The benchmarks measure the optimised build: release, with link-time
# optimisation (the engine's small accessors inline across files); only
# the programs they run are linked.
$(BENCH_BUILD)/build.ninja:
	meson setup $(BENCH_BUILD) $(MESON_OPTS) -Dbuildtype=release -Db_lto=true

bench: deps $(BENCH_BUILD)/build.ninja
	meson configure $(BENCH_BUILD) -Dbuildtype=release -Db_lto=true
	meson compile -C $(BENCH_BUILD) src/cli/pmlab bench/bench_sim bench/bench_monitor \
		bench/bench_trace
	$(BENCH_BUILD)/bench/bench_sim
	$(BENCH_BUILD)/bench/bench_monitor
	$(BENCH_BUILD)/bench/bench_trace
	sh bench/bench_compare.sh $(BENCH_BUILD)/src/cli/pmlab

# Every libFuzzer target for FUZZ_SECONDS (default 30) each, then a
# summary: runs, runs/s, coverage and corpus per target.
fuzz: deps
	@sh tools/install-deps.sh fuzz
	sh fuzz/build.sh $(FUZZ_BUILD)
	bash fuzz/run.sh $(FUZZ_BUILD) $${FUZZ_SECONDS:-30}

# CI's smoke test: 3000 runs per target from a fixed seed (deterministic).
fuzz-smoke: deps
	@sh tools/install-deps.sh fuzz
	sh fuzz/build.sh $(FUZZ_BUILD)
	bash fuzz/run.sh $(FUZZ_BUILD) smoke

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(BENCH_BUILD) $(COVERAGE_BUILD) $(FUZZ_BUILD)
