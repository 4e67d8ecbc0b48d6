# attnstep - a teaching calculator for one attention layer.
# User settings: override on the command line, e.g. `make CC=clang PREFIX=/usr`.
CC      ?= cc
CFLAGS  ?= -O2 -g
LDFLAGS ?=
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share

# Warnings and language: always on, never -ffast-math (output is compared to 10 places).
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS_ALL = -pthread -D_POSIX_C_SOURCE=200809L -Iinclude $(CPPFLAGS)
LIBS    = -lm -pthread

BUILD   = build
# the sources, in one folder per layer (src/base … src/cli): the folder is the layer
LAYERS  = base steps read model run render teach cli
SRCS    = $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
LIBOBJS = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(filter-out src/cli/main.c,$(SRCS)))
TESTS   = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
# the fuzz entry points (tests/fuzz/fuzz_NAME.c), also built as plain replay programs
FUZZ_NAMES = $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SEEDS = examples tests/bad tests/bad/loaded tests/fuzz/corpus
REPLAYS    = $(patsubst %,$(BUILD)/fuzz-replay/%,$(FUZZ_NAMES))
# test programs run at once by check-run: 1 streams each program's output as it runs;
# more (make valgrind: 2) runs them side by side via tests/parallel.sh
CHECK_JOBS = 1

.PHONY: all run test check-run check-latex check-html install uninstall clean

all: $(BUILD)/attnstep

$(BUILD)/attnstep: $(BUILD)/obj/cli/main.o $(BUILD)/libattnstep.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libattnstep.a: $(LIBOBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -MMD -MP -c -o $@ $<

run: all
	./$(BUILD)/attnstep trace examples/f11.txt

# `make test` first makes sure cmocka is there (installing it when it can), then builds
# and runs every test program, as many at once as the machine has cores (their logs
# printed in order when all have ended); a failing one is named at the end.
TEST_JOBS := $(shell nproc 2>/dev/null || echo 1)
test:
	@sh tests/ensure-cmocka.sh
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) CHECK_JOBS=$(TEST_JOBS) check-run

# `make check-latex` makes every kind of worksheet and compiles each LaTeX one (pdflatex
# for English, xelatex with ctex for Chinese), installing TeX with apt-get when missing.
check-latex: all
	@sh tests/check-latex.sh $(BUILD)/attnstep

# `make check-html` makes the --format html pages and tests them in headless chromium
# (tests/html/check.mjs), installing Debian's chromium and npm's playwright-core (into
# build/html-tools) when missing; screenshots and a PDF stay in build/html.
check-html: all
	@sh tests/check-html.sh $(BUILD)/attnstep

CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(BUILD)/libattnstep.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) $(CMOCKA_CFLAGS) $(TEST_LDFLAGS) -o $@ $< $(BUILD)/libattnstep.a $(CMOCKA_LIBS) $(LIBS)

# test_alloc fails the Nth allocation: the library's calls to the allocator go through
# the test's wrappers.
$(BUILD)/tests/test_alloc: TEST_LDFLAGS = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=free
# test_output makes link() and renameat2() fail as a file system without them does.
$(BUILD)/tests/test_output: TEST_LDFLAGS = -Wl,--wrap=link,--wrap=renameat2

check-run: $(TESTS) $(REPLAYS) $(BUILD)/attnstep
	@sh tests/layers.sh . $(BUILD)/obj && CC=$(CC) sh tests/layers-test.sh && ATTNSTEP_BIN=$(BUILD)/attnstep sh tests/readme-test.sh
	@set -e; if [ "$(CHECK_JOBS)" -gt 1 ]; then \
	    { for t in $(TESTS); do case " $(UNWRAPPED) " in *" $${t##*/} "*) w="ATTNSTEP_WRAP= ";; \
	      *) w="";; esac; echo "$${w}ATTNSTEP_BIN=$(BUILD)/attnstep $(TEST_RUNNER) $$t"; done; \
	      for r in $(REPLAYS); do echo "$(TEST_RUNNER) $$r $(FUZZ_SEEDS)" \
	          $$(ls -d tests/fuzz/corpus-$${r##*/} 2>/dev/null); done; } | \
	    sh tests/parallel.sh $(CHECK_JOBS) $(BUILD)/tests/logs; else \
	    for t in $(TESTS); do echo "== $$t"; ATTNSTEP_BIN=$(BUILD)/attnstep $(TEST_RUNNER) $$t; done; \
	    for r in $(REPLAYS); do echo "== $$r"; $(TEST_RUNNER) $$r $(FUZZ_SEEDS) \
	        $$(ls -d tests/fuzz/corpus-$${r##*/} 2>/dev/null); done; fi
	@echo "all test programs passed"

# What `make install` puts where; `make uninstall` removes exactly these.
COMPDIR  = $(DATADIR)/bash-completion/completions
EXDIR    = $(DATADIR)/attnstep/examples
EXAMPLES = $(shell find examples -maxdepth 1 -type f | LC_ALL=C sort)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/zh_CN/man1 \
	    $(DESTDIR)$(COMPDIR) $(DESTDIR)$(EXDIR)
	install -m 755 $(BUILD)/attnstep $(DESTDIR)$(BINDIR)/attnstep
	install -m 644 doc/attnstep.1 $(DESTDIR)$(MANDIR)/man1/attnstep.1
	install -m 644 doc/attnstep.zh_CN.1 $(DESTDIR)$(MANDIR)/zh_CN/man1/attnstep.1
	install -m 644 doc/attnstep.bash $(DESTDIR)$(COMPDIR)/attnstep
	install -m 644 $(EXAMPLES) $(DESTDIR)$(EXDIR)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/attnstep $(DESTDIR)$(MANDIR)/man1/attnstep.1
	rm -f $(DESTDIR)$(MANDIR)/zh_CN/man1/attnstep.1
	rm -f $(DESTDIR)$(COMPDIR)/attnstep
	rm -f $(addprefix $(DESTDIR)$(EXDIR)/,$(notdir $(EXAMPLES)))
	rmdir $(DESTDIR)$(EXDIR) $(DESTDIR)$(DATADIR)/attnstep 2>/dev/null || true

clean:
	rm -rf $(BUILD)

-include $(wildcard $(BUILD)/obj/*/*.d)

# ---- Warnings as errors (issue 11) ----
# `make werror` builds everything (the program, every test program and the fuzz replays)
# with -Werror, under gcc and under clang, into build/werror-CC; it runs nothing. CI
# runs it first.
.PHONY: werror
WERROR_CCS = gcc clang

werror:
	@sh tests/ensure-cmocka.sh
	@set -e; for cc in $(WERROR_CCS); do echo "== -Werror with $$cc"; \
	    $(MAKE) --no-print-directory -s BUILD=build/werror-$$cc CC=$$cc CFLAGS="-O2 -Werror" \
	        $(subst $(BUILD)/,build/werror-$$cc/,$(BUILD)/attnstep $(TESTS) $(REPLAYS)); done

# ---- Performance (issue 8) ----
# `make bench` times `attnstep run --only O` on GPT-2-sized layers of 128 to 4096 tokens
# (and `run --only Y` on a GPT-2-small block of 512 and 4096 tokens, BENCH_BLOCK_SIZES)
# against numpy on OpenBLAS, torch float64 and numpy on reference BLAS
# (tests/bench/bench.sh; BENCH_SIZES, BENCH_RUNS); `make parser-stress` checks as_strtod_fast against strtod on
# 10 million strings; `make numfmt-stress` checks as_fmt_roundtrip against printf on 10
# million doubles; `make pow5-table` and `make numfmt-table` regenerate the tables of
# powers of five, src/base/fastfloat_pow5.h and src/base/numfmt_pow5.h.
.PHONY: bench parser-stress numfmt-stress pow5-table numfmt-table

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libattnstep.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -o $@ $< $(BUILD)/libattnstep.a $(LIBS)

$(BUILD)/bench/gen_pow5: tests/bench/gen_pow5.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -o $@ $<

bench: all $(BUILD)/bench/gen_layer $(BUILD)/bench/parse_only $(BUILD)/bench/decode_only \
       $(BUILD)/bench/tensor_load
	@sh tests/bench/bench.sh
	@sh tests/bench/npy.sh

# `make bench-npy` times the binary loaders alone (issue 32): a GPT-2-sized layer from
# float32 .npy files against numpy at 512 and 4096 tokens (BENCH_NPY_SIZES), and the load
# rate of a 503 MB float32 .safetensors (tests/bench/npy.sh).
.PHONY: bench-npy
bench-npy: all $(BUILD)/bench/gen_layer $(BUILD)/bench/tensor_load
	@sh tests/bench/npy.sh

# `make bench-memory` prints the peak resident memory of run (text, JSON), grad, decode
# and trace --tiles 1 --row all against 512 to 16384 tokens (tests/bench/memory.sh;
# MEMBENCH_SIZES, MEMBENCH_LIMIT_MB, MEMBENCH_WALK_MAX): it must grow linearly (issue 30).
.PHONY: bench-memory
bench-memory: all
	@sh tests/bench/memory.sh

# `make bench-exp` times libm's exp() per element against as_exp_many() (issue 19).
.PHONY: bench-exp
bench-exp: $(BUILD)/bench/exp_many
	./$(BUILD)/bench/exp_many

# `make bench-check` times `attnstep check` on a generated class of 1000 answers files
# (issue 13: under a second).
.PHONY: bench-check
$(BUILD)/bench/gen_class: tests/bench/gen_class.c tests/class_gen.h tests/class_roster.h
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -o $@ $< -lm

bench-check: all $(BUILD)/bench/gen_class
	@sh tests/bench/bench_check.sh

parser-stress: $(BUILD)/tests/test_fastfloat
	@sh tests/ensure-cmocka.sh
	time env ATTNSTEP_FUZZ_N=10000000 ./$(BUILD)/tests/test_fastfloat

numfmt-stress: $(BUILD)/tests/test_numfmt
	@sh tests/ensure-cmocka.sh
	time env ATTNSTEP_FUZZ_N=10000000 ./$(BUILD)/tests/test_numfmt

pow5-table: $(BUILD)/bench/gen_pow5
	./$(BUILD)/bench/gen_pow5 > src/base/fastfloat_pow5.h

numfmt-table: $(BUILD)/bench/gen_pow5
	./$(BUILD)/bench/gen_pow5 ryu > src/base/numfmt_pow5.h

# ---- Hostile input: sanitizers, valgrind, fuzzing (issue 5) ----
# `make sanitize` builds everything again into build/san with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the whole test suite on that build; `make valgrind`
# builds it into build/valgrind (DWARF 4, which valgrind 3.19 reads from gcc and clang
# alike) and runs every test program under valgrind, and every run of the binary they
# make too ($ATTNSTEP_WRAP); `make fuzz` builds the libFuzzer targets of tests/fuzz/
# with clang into build/fuzz and, with FUZZ_SECONDS=N, runs each for N seconds from a
# seed corpus of examples/, tests/bad/, tests/fuzz/corpus/ and the target's own
# tests/fuzz/corpus-NAME/ (fuzz_cli: command lines, fuzz_answers: ANSWERS files, fuzz_class:
# a roster or a class's answers after a mode line; fuzz_chapter: a chapter's text for
# verify); one
# dictionary, tests/fuzz/attnstep.dict, holds the input format, every option, command
# and setting, and the names an answer may take). A crash is saved as
# build/fuzz/crash-*: it goes into tests/fuzz/corpus/ with its fix. `make test` replays
# the same seeds through the fuzz entry points built as plain programs
# (tests/fuzz/replay_main.c).
.PHONY: sanitize valgrind fuzz

SAN_FLAGS    = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
VG_FLAGS     = -O1 -g -gdwarf-4
VALGRIND     = valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect
FUZZ_CC      = clang
FUZZ_FLAGS   = -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
               -DAS_LOAD_CHUNK=64 -DAS_LOAD_SPLIT_MIN=512
FUZZ_SECONDS = 0
# Targets left out of the timed runs while they have open findings. Name one here, with
# its finding, rather than let CI fail on what is known (none: the round trip's last, a
# title holding "D = [[…" read back as a table, is fixed and in tests/fuzz/corpus).
FUZZ_SMOKE_SKIP =
FUZZ_LINK    = -Wl,--wrap=as_lex_read_file tests/fuzz/vfs.c
# -timeout: an input that runs 25 s is a hang (the slowest honest one, exercise giving up
# on sizes no exercise of its level fits, takes about 1.5 s here under ASan, and more
# on a loaded machine)
FUZZ_OPTIONS = -dict=tests/fuzz/attnstep.dict -max_len=16384 -timeout=25 -rss_limit_mb=4096 \
               -artifact_prefix=build/fuzz/ -print_final_stats=1

$(BUILD)/fuzz-replay/%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c tests/fuzz/vfs.c \
                        tests/fuzz/vfs.h tests/fuzz/fuzz_util.h $(BUILD)/libattnstep.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -o $@ $< tests/fuzz/replay_main.c $(FUZZ_LINK) \
	    $(BUILD)/libattnstep.a $(LIBS)

# The CLI tests keep their output files in build/tests, whatever BUILD is.
sanitize:
	@sh tests/ensure-cmocka.sh
	@mkdir -p build/tests
	@$(MAKE) --no-print-directory BUILD=build/san CFLAGS="$(SAN_FLAGS)" check-run

# Under valgrind every program runs about 40 times slower, and each run of the binary a
# test makes costs half a second of valgrind's start at least (some 1500 runs): the CI
# budget of 45 minutes on 2 shared cores (issue 30) had it at more than 30. What valgrind
# adds to make test and make sanitize is memory read before it was written and leaks on
# every path, which the first thousands of a loop's random draws reach as well as its
# millions: the loops of random numbers run with VG_SIZES (test_numfmt's and
# test_fastfloat's random doubles and strings: 20000 instead of 200000 and a million;
# test_expvec's ranges: 20000 inputs instead of 4 Mi each), every other test as in make
# test. VG_UNWRAPPED names the test programs whose runs of the binary are not each put
# under valgrind (the program itself still is): test_ascii runs every example through
# every command a second time, only to read each byte of the output for --ascii; the
# same runs are under valgrind in test_book, test_cli, test_trace and test_check, and
# test_ascii's own under ASan and UBSan in make sanitize. test_bad runs each input of
# tests/bad under valgrind once, in English, and its Chinese twin (the same path, other
# words from the message table) alone. Counted with a wrapper that only counts: 1500
# runs of the binary under valgrind before, 1190 now; on 2 cores that loaded (load
# average 15-20) that one took 10 s and 0.46 s of CPU.
VG_SIZES     = ATTNSTEP_FUZZ_N=20000 ATTNSTEP_EXP_INPUTS=20000
VG_UNWRAPPED = test_ascii
valgrind:
	@sh tests/ensure-cmocka.sh
	@command -v valgrind >/dev/null || { echo "make valgrind needs valgrind" >&2; exit 1; }
	@mkdir -p build/tests
	@env $(VG_SIZES) ATTNSTEP_WRAP="$(VALGRIND)" ATTNSTEP_TIMEOUT_MS=120000 $(MAKE) \
	    --no-print-directory BUILD=build/valgrind CFLAGS="$(VG_FLAGS)" TEST_RUNNER="$(VALGRIND)" \
	    CHECK_JOBS=2 UNWRAPPED="$(VG_UNWRAPPED)" check-run

fuzz:
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=$(FUZZ_CC) \
	    CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" build/fuzz/libattnstep.a
	@set -e; for n in $(FUZZ_NAMES); do echo "$(FUZZ_CC) ... -o build/fuzz/fuzz_$$n"; \
	    $(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer $(CPPFLAGS_ALL) -o build/fuzz/fuzz_$$n \
	        tests/fuzz/fuzz_$$n.c $(FUZZ_LINK) build/fuzz/libattnstep.a $(LIBS); done
	@rm -rf build/fuzz/seed && mkdir -p build/fuzz/seed
	@find $(FUZZ_SEEDS) -maxdepth 1 -type f ! -name '*.expect' -exec cp {} build/fuzz/seed/ \;
	@set -e; if [ "$(FUZZ_SECONDS)" -gt 0 ]; then for n in $(filter-out $(FUZZ_SMOKE_SKIP),$(FUZZ_NAMES)); do \
	    mkdir -p build/fuzz/corpus-$$n; \
	    build/fuzz/fuzz_$$n $(FUZZ_OPTIONS) -max_total_time=$(FUZZ_SECONDS) \
	        build/fuzz/corpus-$$n build/fuzz/seed $$(ls -d tests/fuzz/corpus-$$n 2>/dev/null); \
	    done; fi

# ---- The backward pass at model size (issue 17) ----
# `make test-gpt2` runs grad on the GPT-2-sized layer of `make bench` (generated once
# into build/bench/) and compares dWq and dX with PyTorch's (tests/data/grad/gpt2.expected);
# `make bench-grad` times `grad --only dX` against `run --only O` on that layer
# (tests/bench/grad.sh; the goal is at most 3x).
.PHONY: test-gpt2 bench-grad

$(BUILD)/gpt2/grad_gpt2: tests/gpt2/grad_gpt2.c $(BUILD)/libattnstep.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -o $@ $< $(BUILD)/libattnstep.a $(LIBS)

$(BUILD)/bench/layer.txt: tests/bench/gen_layer.c | $(BUILD)/bench/gen_layer
	$(BUILD)/bench/gen_layer $(BUILD)/bench

test-gpt2: $(BUILD)/gpt2/grad_gpt2 $(BUILD)/bench/gen_layer $(BUILD)/bench/layer.txt
	./$(BUILD)/gpt2/grad_gpt2 $(BUILD)/bench

bench-grad: all $(BUILD)/bench/gen_layer $(BUILD)/bench/layer.txt
	@sh tests/bench/grad.sh

# ---- Coverage (issue 20) ----
# `make coverage` builds everything again into build/cov with gcc --coverage, runs the
# whole of `make test` on that build, and reports the line and branch coverage of src/
# with lcov (installed from Debian when missing, as cmocka is): the summary on standard
# output, the annotated source in build/cov/html/index.html. (-O0 is slow: the limit of
# one second per hostile input becomes twenty, as under valgrind.)
.PHONY: coverage
COV_FLAGS = -O0 -g --coverage
LCOV      = lcov --quiet --rc lcov_branch_coverage=1

coverage:
	@sh tests/ensure-cmocka.sh
	@command -v lcov >/dev/null 2>&1 || { \
	    echo "attnstep: make coverage needs lcov; installing it" >&2; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lcov; }
	@mkdir -p build/tests
	@find build/cov -name '*.gcda' -delete 2>/dev/null || true
	@ATTNSTEP_TIMEOUT_MS=20000 $(MAKE) --no-print-directory BUILD=build/cov CC=gcc \
	    CFLAGS="$(COV_FLAGS)" check-run
	@$(LCOV) --capture --directory build/cov/obj --output-file build/cov/all.info 2>/dev/null || \
	    { sleep 2; $(LCOV) --capture --directory build/cov/obj --output-file build/cov/all.info; }
	@$(LCOV) --extract build/cov/all.info '*/src/*' --output-file build/cov/src.info
	@genhtml --quiet --branch-coverage -o build/cov/html build/cov/src.info >/dev/null
	@lcov --rc lcov_branch_coverage=1 --summary build/cov/src.info 2>&1 | grep -E 'lines|branches'
