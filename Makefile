# tracetool - see README.md. `make` builds ./tracetool; `make check` runs every test
# (plain and under ASan+UBSan) and the fuzz smoke run, in parallel; `make demo` runs the main
# job on samples/. Both install missing Debian packages through scripts/deps.sh.
# Build lines are short (`  CC  build/cli/cmd_beat.o`); `make V=1` shows the full commands.

CC ?= cc
BUILD ?= build
PREFIX ?= /usr/local
SAN ?=
# `make check` and the test runners use every core (JOBS=1 for a serial run)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
export JOBS

V ?= 0
ifeq ($(V),1)
Q :=
E := @:
else
Q := @
E := @printf '  %-6s %s\n'
endif

WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
CSTD = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
OPT ?= -O2 -g
PKGS = jansson zlib libzstd sqlite3 libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libcrypto is not linked: libtrace/crypto.c loads it on first use (start-up cost)
PKG_LIBS := $(shell pkg-config --libs $(filter-out libcrypto,$(PKGS)) 2>/dev/null) -ldl
DWARF_CFLAGS = -I/usr/include/libdwarf
SYS_LIBS = -ldwarf -lelf -liberty -lm

ifneq ($(SAN),)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
CFLAGS_ALL = $(CSTD) -pthread $(OPT) $(WARN) $(SANFLAGS) $(PKG_CFLAGS) $(DWARF_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = -pthread $(SANFLAGS) $(LDFLAGS)

LIBTRACE_SRC := $(sort $(wildcard libtrace/*.c))
LIBSYM_SRC := $(sort $(wildcard libsym/*.c))
SQLITE_SRC := $(sort $(wildcard sqlite/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIBTRACE_SRC) $(LIBSYM_SRC) $(SQLITE_SRC))
CLI_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
SQL_FILES := $(sort $(wildcard sqlite/*.sql sqlite/migrate/*.sql))
UNIT_SRC := $(sort $(wildcard tests/unit/check_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
GEN_SRC := $(sort $(wildcard tests/gen/*.c))
GEN_BIN := $(patsubst tests/gen/%.c,$(BUILD)/gen/%,$(GEN_SRC))
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)

.PHONY: all deps deps-test deps-bench clean check test asan fuzz fuzz-smoke demo bench install \
	check-layers check-headers check-man check-clang update-golden gen fuzz-bins check-oracle cycles

all: $(BUILD)/tracetool $(GEN_BIN)
ifeq ($(BUILD),build)
all: tracetool
tracetool: $(BUILD)/tracetool
	$(Q)cp $< $@
endif

deps:
	@sh scripts/deps.sh build
deps-test:
	@sh scripts/deps.sh all
deps-bench:
	@sh scripts/deps.sh bench

$(BUILD)/%.o: %.c $(wildcard libtrace/*.h libsym/*.h sqlite/*.h cli/*.h) $(BUILD)/sqlite/sql_blobs.h
	@mkdir -p $(dir $@)
	$(E) CC $@
	$(Q)$(CC) $(CFLAGS_ALL) -I$(BUILD)/sqlite -c $< -o $@

# SQL files compiled into the binary as C strings
$(BUILD)/sqlite/sql_blobs.h: $(SQL_FILES) scripts/embed.sh
	@mkdir -p $(dir $@)
	$(E) GEN $@
	$(Q)sh scripts/embed.sh $(SQL_FILES) > $@.tmp && mv $@.tmp $@

# Script and style sheet of the flame graphs (libtrace/assets/) compiled in as C strings
ASSET_FILES := $(sort $(wildcard libtrace/assets/*.js libtrace/assets/*.css))
$(BUILD)/libtrace/tt_assets.h: $(ASSET_FILES) scripts/embed-assets.sh
	@mkdir -p $(dir $@)
	$(E) GEN $@
	$(Q)sh scripts/embed-assets.sh $(ASSET_FILES) > $@.tmp && mv $@.tmp $@
$(BUILD)/libtrace/export_svg.o: $(BUILD)/libtrace/tt_assets.h
$(BUILD)/libtrace/export_svg.o: CFLAGS_ALL += -I$(BUILD)/libtrace
$(BUILD)/libtrace/html.o: $(BUILD)/libtrace/tt_assets.h
$(BUILD)/libtrace/html.o: CFLAGS_ALL += -I$(BUILD)/libtrace

$(BUILD)/libtracetool.a: $(LIB_OBJ)
	@rm -f $@
	$(E) AR $@
	$(Q)ar rcs $@ $^

$(BUILD)/tracetool: $(CLI_OBJ) $(BUILD)/libtracetool.a
	$(E) LINK $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJ) $(BUILD)/libtracetool.a $(PKG_LIBS) $(SYS_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libtracetool.a tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(E) LINK $@
	$(Q)$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -I$(BUILD)/sqlite $(LDFLAGS_ALL) -o $@ $< \
		$(BUILD)/libtracetool.a $(CHECK_LIBS) $(PKG_LIBS) $(SYS_LIBS)

$(BUILD)/gen/%: tests/gen/%.c $(BUILD)/libtracetool.a
	@mkdir -p $(dir $@)
	$(E) LINK $@
	$(Q)$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes $(LDFLAGS_ALL) -o $@ $< \
		$(BUILD)/libtracetool.a $(PKG_LIBS) $(SYS_LIBS)

gen: $(GEN_BIN)

# ---- tests ----
# `make test` runs the suites of one build (unit binaries and CLI test shards on JOBS cores);
# `make check` runs the plain, sanitizer and fuzz passes at the same time, each building its
# own object set once (the flags differ), with -j$(JOBS) shared through make's job server
# and each pass's output printed as one block (-O). From a clean tree: about 2.5 minutes of
# CPU time (user + sys), under 4 minutes of wall time on an idle 2-core machine.
test: $(BUILD)/tracetool $(UNIT_BIN) $(GEN_BIN)
	@sh tests/run-tests.sh $(BUILD)

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan SAN=1 OPT="-O1 -g" test

check: deps-test
	@rm -f build/results.txt build-asan/results.txt build-fuzz/results.txt
	@$(MAKE) --no-print-directory -k -j$(JOBS) -Otarget check-passes; a=$$?; \
	 sh tests/summary.sh build/results.txt build-asan/results.txt build-fuzz/results.txt; d=$$?; \
	 [ $$a = 0 ] && [ $$d = 0 ]

.PHONY: check-passes check-plain
check-passes: check-layers check-headers check-man check-clang check-plain asan fuzz-smoke
check-plain:
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory test
	@$(MAKE) --no-print-directory cycles

# headless Chromium checks of the pictures (tests/browser.sh; not part of `make check`)
.PHONY: check-visual
check-visual: $(BUILD)/tracetool
	@sh tests/browser.sh $(BUILD)
# reference tools as oracles, each skipped with a notice when it is not installed:
# dmtracedump for `tracetool art` (`make test` runs it too) and llvm-symbolizer-14 for Mach-O
# inline chains (run live here; the recorded answers are golden tests)
.PHONY: check-oracle
check-oracle: $(BUILD)/tracetool $(GEN_BIN)
	@python3 tests/check-oracle-art.py $(BUILD)
	@sh tests/sym/macho-oracle.sh $(BUILD)

update-golden: $(BUILD)/tracetool $(GEN_BIN)
	@UPDATE_GOLDEN=1 sh tests/run-cli-tests.sh $(BUILD)

check-layers:
	@sh scripts/check-layers.sh

# file-level call cycles inside a module, from the objects' symbols (scripts/check-cycles.sh);
# the pairs still allowed, with their reasons, are in scripts/cycles.allow
cycles: $(LIB_OBJ) $(CLI_OBJ)
	@CC="$(CC)" sh tests/check-cycles-test.sh
	@sh scripts/check-cycles.sh $(BUILD)

# every public header of libtrace: tt.h, its concept headers and tt_art.h/tt_kscrash.h
# (internal *_int.h headers are included by the library's .c files only)
TT_PUBLIC_HEADERS = $(filter-out %_int.h,$(sort $(wildcard libtrace/tt.h libtrace/tt_*.h)))
check-headers:
	@for h in $(TT_PUBLIC_HEADERS) $(wildcard libsym/tsym.h sqlite/tdb.h); do \
		echo "#include \"$$h\"" | $(CC) $(CSTD) $(WARN) $(PKG_CFLAGS) $(DWARF_CFLAGS) -I. -x c -fsyntax-only - \
		|| { echo "check-headers: $$h does not compile alone"; exit 1; }; done

# the brief asks for no warnings on gcc and clang: fuzz-smoke compiles the library with clang,
# this compiles the rest (the CLI, unit tests, generators, fuzz targets) with clang's warnings
CLANG_CHECK_SRC = $(CLI_SRC) $(UNIT_SRC) $(GEN_SRC) $(FUZZ_SRC)
check-clang: $(BUILD)/sqlite/sql_blobs.h
	@command -v clang >/dev/null || { echo "check-clang: clang not installed (make deps-test)"; exit 1; }
	@for f in $(CLANG_CHECK_SRC); do \
		clang $(CSTD) -pthread $(WARN) $(PKG_CFLAGS) $(DWARF_CFLAGS) -I$(BUILD)/sqlite -I. \
			$$(case $$f in fuzz/*) echo -Wno-missing-prototypes;; esac) -fsyntax-only $$f \
		|| { echo "check-clang: $$f"; exit 1; }; done

check-man:
	@if command -v mandoc >/dev/null; then \
		mandoc -Tlint -Wwarning $(wildcard man/*.[1-9]) 2>/dev/null | grep -v 'STYLE' | grep . \
		&& { echo "check-man: mandoc -Tlint reported problems"; exit 1; } || true; fi

# ---- fuzzing (libFuzzer via clang) ----
# Every fuzz/fuzz_<name>.c is one target (LLVMFuzzerTestOneInput) linked against the
# library built with clang, ASan+UBSan and fuzzer instrumentation in build-fuzz/; its seed
# corpus is fuzz/corpus/<name>/. `make fuzz-smoke` runs each briefly (fuzz/smoke.sh).
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN := $(patsubst fuzz/%.c,$(BUILD)/%,$(FUZZ_SRC))
fuzz:
	@sh scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang SAN=1 OPT="-O1 -g" \
		CFLAGS="-fsanitize=fuzzer-no-link" fuzz-bins

fuzz-bins: $(FUZZ_BIN)

$(BUILD)/fuzz_%: fuzz/fuzz_%.c $(wildcard fuzz/*.h) $(BUILD)/libtracetool.a
	$(E) LINK $@
	$(Q)$(CC) $(CFLAGS_ALL) -Wno-missing-prototypes -I$(BUILD)/sqlite -fsanitize=fuzzer $(LDFLAGS_ALL) \
		-o $@ $< $(BUILD)/libtracetool.a $(PKG_LIBS) $(SYS_LIBS)

fuzz-smoke: fuzz
	@sh fuzz/smoke.sh build-fuzz

# ---- demo and bench ----
demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@sh scripts/demo.sh

bench: deps-bench
	@$(MAKE) --no-print-directory all
	@sh bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 tracetool $(DESTDIR)$(PREFIX)/bin/tracetool
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/

clean:
	rm -rf build build-asan build-fuzz build-bench tracetool
