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
CPPFLAGS_ALL = -D_POSIX_C_SOURCE=200809L -Iinclude $(CPPFLAGS)
LIBS    = -lm -lpthread

BUILD   = build
SRCS    = $(wildcard src/*.c)
LIBOBJS = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(filter-out src/main.c,$(SRCS)))
TESTS   = $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))

.PHONY: all run test check-run install uninstall clean

all: $(BUILD)/attnstep

$(BUILD)/attnstep: $(BUILD)/obj/main.o $(BUILD)/libattnstep.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libattnstep.a: $(LIBOBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -MMD -MP -c -o $@ $<

run: all
	./$(BUILD)/attnstep trace examples/f11.txt

# `make test` first makes sure cmocka is there (installing it when it can), then runs
# every test program; a failing one stops the run with its name.
test: all
	@sh tests/ensure-cmocka.sh
	@$(MAKE) --no-print-directory check-run

CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(BUILD)/libattnstep.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) $(CMOCKA_CFLAGS) -o $@ $< $(BUILD)/libattnstep.a $(CMOCKA_LIBS) $(LIBS)

check-run: $(TESTS) $(BUILD)/attnstep
	@set -e; for t in $(TESTS); do echo "== $$t"; ATTNSTEP_BIN=$(BUILD)/attnstep $$t; done
	@echo "all test programs passed"

# What `make install` puts where; `make uninstall` removes exactly these.
COMPDIR  = $(DATADIR)/bash-completion/completions
EXDIR    = $(DATADIR)/attnstep/examples
EXAMPLES = $(shell find examples -maxdepth 1 -type f | LC_ALL=C sort)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR) $(DESTDIR)$(EXDIR)
	install -m 755 $(BUILD)/attnstep $(DESTDIR)$(BINDIR)/attnstep
	install -m 644 doc/attnstep.1 $(DESTDIR)$(MANDIR)/man1/attnstep.1
	install -m 644 doc/attnstep.bash $(DESTDIR)$(COMPDIR)/attnstep
	install -m 644 $(EXAMPLES) $(DESTDIR)$(EXDIR)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/attnstep $(DESTDIR)$(MANDIR)/man1/attnstep.1
	rm -f $(DESTDIR)$(COMPDIR)/attnstep
	rm -f $(addprefix $(DESTDIR)$(EXDIR)/,$(notdir $(EXAMPLES)))
	rmdir $(DESTDIR)$(EXDIR) $(DESTDIR)$(DATADIR)/attnstep 2>/dev/null || true

clean:
	rm -rf $(BUILD)

-include $(wildcard $(BUILD)/obj/*.d)

# ---- Performance (issue 8) ----
# `make bench` times `attnstep run --only O` on a GPT-2-sized layer against numpy
# (tests/bench/bench.sh); `make parser-stress` checks as_strtod_fast against strtod on
# 10 million strings; `make pow5-table` regenerates src/fastfloat_pow5.h.
.PHONY: bench parser-stress pow5-table

$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libattnstep.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_ALL) -o $@ $< $(BUILD)/libattnstep.a $(LIBS)

$(BUILD)/bench/gen_pow5: tests/bench/gen_pow5.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -o $@ $<

bench: all $(BUILD)/bench/gen_layer $(BUILD)/bench/parse_only
	@sh tests/bench/bench.sh

parser-stress: $(BUILD)/tests/test_fastfloat
	@sh tests/ensure-cmocka.sh
	time env ATTNSTEP_FUZZ_N=10000000 ./$(BUILD)/tests/test_fastfloat

pow5-table: $(BUILD)/bench/gen_pow5
	./$(BUILD)/bench/gen_pow5 > src/fastfloat_pow5.h
