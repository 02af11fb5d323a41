/* tracetool symbolicate: addresses to functions, source lines and inline chains
 * (spec/symbolication.md sections 7 and 8; GNU addr2line's text layout, llvm-symbolizer's
 * JSON field names). */
#include "cli_symb_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: tracetool symbolicate -e FILE [-a] [-f] [-i] [-C] [-s] [-p] [--offsets]\n"
    "                             [--return-addresses] [--nearest-symbol] [--names debug|symbol]\n"
    "                             [--build-id HEX] [--format text|json|jsonl|tsv|csv] [ADDR...]\n"
    "       tracetool symbolicate -e MACHO[:ARCH] [--dsym PATH]... [--load-address ADDR]\n"
    "                             [--swift-demangler CMD] [-a] [-f] [-i] [-C] [-s] [-p]\n"
    "                             [--format FMT] [ADDR...]\n"
    "       tracetool symbolicate --uuid HEX [--arch ARCH] [--dsym PATH]... [--symbols DIR]...\n"
    "                             [-a] [-f] [-i] [-C] [-s] [-p] [--format FMT] [ADDR...]\n"
    "       tracetool symbolicate --symbols DIR... [--kind KIND] [-e FILE]... [-s]\n"
    "                             [--resymbolize] [--format text|json|jsonl] [FILE...]\n"
    "       tracetool symbolicate [-s] [--resymbolize] [--format text|json|jsonl] FILE...\n"
    "       tracetool symbolicate --kind kscrash [--symbols DIR]... [--dsym [NAME=]PATH]...\n"
    "                             [--no-adjust] [--swift-demangler CMD]\n"
    "                             [--format text|json|jsonl] FILE...\n"
    "       tracetool symbolicate --add-to-store DIR FILE...\n"
    "\n"
    "  -e, --exe FILE          module of the raw addresses; with --kind an extra module\n"
    "                          for backtraces (repeatable)\n"
    "      --build-id HEX      find the module by build id in the symbol stores\n"
    "  -a, --addresses         print the address before each result\n"
    "  -f, --functions         print function names\n"
    "  -i, --inlines           print the whole inline chain, innermost first\n"
    "  -C, --demangle          demangle C++ and Rust names\n"
    "  -s, --basenames         print file names without directories\n"
    "  -p, --pretty-print      one line per address (\"func at file:line\")\n"
    "      --offsets           addresses are module offsets, not ELF virtual addresses\n"
    "      --return-addresses  addresses are return addresses: look up ADDR-1\n"
    "      --nearest-symbol    name padding after the preceding symbol (addr2line's way)\n"
    "      --names STYLE       debug (DWARF name, default) or symbol (ELF symbol name)\n"
    "      --format FMT        text (default), json, jsonl, tsv, csv\n"
    "      --symbols DIR       symbol store directory (repeatable; also\n"
    "                          TRACETOOL_SYMBOL_PATH)\n"
    "      --kind KIND         backtrace lines: auto (default without -e), tombstone,\n"
    "                          perf, modoff, kscrash (KSCrash / Matrix iOS JSON reports)\n"
    "      --no-adjust         with --kind kscrash: look return addresses up unchanged\n"
    "      --resymbolize       replace perf's own symbols too\n"
    "      --add-to-store DIR  copy FILEs into DIR's .build-id layout (Mach-O: DIR/uuid/)\n"
    "      --dsym [NAME=]PATH  Mach-O debug information: a .dSYM bundle, its DWARF file or a\n"
    "                          directory of them, searched first (repeatable); NAME=\n"
    "                          binds it to frames of image NAME given without UUID\n"
    "                          (NAME=PATH:ARCH: that slice of a universal file)\n"
    "      --uuid HEX          find the Mach-O image or dSYM by LC_UUID in the stores\n"
    "      --arch ARCH         with --uuid: the slice must be this architecture\n"
    "      --load-address ADDR addresses are runtime addresses of an image loaded at ADDR\n"
    "      --swift-demangler CMD  demangle Swift names with CMD, one name a line on its\n"
    "                          standard input (also TRACETOOL_SWIFT_DEMANGLE)\n"
    "  -h, --help              show this help\n";

enum { O_BUILD_ID = 256, O_FORMAT, O_OFFSETS, O_RETADDR, O_NAMES, O_KIND, O_RESYM, O_ADD };
enum { O_UUID = 300, O_ARCH, O_LOAD }; /* Mach-O (spec/ios.md 11) */

static const struct option longopts[] = {
    {"exe", required_argument, NULL, 'e'},
    {"build-id", required_argument, NULL, O_BUILD_ID},
    {"addresses", no_argument, NULL, 'a'},
    {"functions", no_argument, NULL, 'f'},
    {"inlines", no_argument, NULL, 'i'},
    {"demangle", no_argument, NULL, 'C'},
    {"basenames", no_argument, NULL, 's'},
    {"pretty-print", no_argument, NULL, 'p'},
    {"offsets", no_argument, NULL, O_OFFSETS},
    {"return-addresses", no_argument, NULL, O_RETADDR},
    {"nearest-symbol", no_argument, NULL, CLI_SYM_O_NEAREST},
    {"names", required_argument, NULL, O_NAMES},
    {"format", required_argument, NULL, O_FORMAT},
    {"symbols", required_argument, NULL, CLI_SYM_O_SYMBOLS},
    {"kind", required_argument, NULL, O_KIND},
    {"resymbolize", no_argument, NULL, O_RESYM},
    {"add-to-store", required_argument, NULL, O_ADD},
    {"dsym", required_argument, NULL, CLI_SYM_O_DSYM},
    {"swift-demangler", required_argument, NULL, CLI_SYM_O_SWIFT},
    {"uuid", required_argument, NULL, O_UUID},
    {"arch", required_argument, NULL, O_ARCH},
    {"load-address", required_argument, NULL, O_LOAD},
    {"no-adjust", no_argument, NULL, CLI_KS_O_NOADJ},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* indexed by F_* and K_* (cli_symb_int.h) */
static const char *const formats[] = {"text", "json", "jsonl", "tsv", "csv", NULL};
static const char *const names_styles[] = {"debug", "symbol", NULL};
static const char *const kinds[] = {"auto", "tombstone", "perf", "modoff", "kscrash", NULL};

static int add_to_store(const char *dir, int argc, char **argv)
{
    if (argc == 0) {
        cli_errorf("--add-to-store needs at least one FILE");
        return CLI_BAD;
    }
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        char dest[4096];
        tt_error err = {0};
        tsym_macho_slice sl[8];
        size_t n = 0;
        char df[4096];
        if (tsym_store_add(dest, sizeof dest, dir, argv[i], &err))
            rc = cli_err(&err);
        else if (!tsym_dsym_file(df, sizeof df, argv[i]) &&
                 !tsym_macho_slices(sl, 8, &n, df, &err) && n > 0) {
            /* Mach-O: one line per slice with a UUID */
            for (size_t k = 0; k < n && k < 8; k++)
                if (!tsym_store_macho_path(dest, sizeof dest, dir, sl[k].uuid))
                    cli_out_printf("%s\t%s\t%s%s%s\n", argv[i], sl[k].arch, dest,
                                   sl[k].platform[0] ? "\t" : "", sl[k].platform);
        } else {
            cli_out_printf("%s\t%s\n", argv[i], dest);
            /* split DWARF: the package beside the binary goes beside its entry */
            char pk[4200];
            int x = tsym_store_add_dwp(pk, sizeof pk, dest, argv[i], &err);
            if (x < 0)
                rc = cli_err(&err);
            else if (x == 0)
                cli_out_printf("%s.dwp\t%s\n", argv[i], pk);
        }
    }
    return rc;
}

static void run_free(run *r)
{
    tt_perf_maps_free(r->maps);
    tt_buf_free(&r->out);
    tt_buf_free(&r->qc.top);
    tt_jsonw_free(&r->json);
    cli_sym_close(r->sym);
}

/* -e FILE... --build-id HEX: one of the files must have that build id (man page); when
 * none has it, each is named with both ids (a file without an ELF build id: the search
 * decides) */
static int exes_have_build_id(const cli_sym_opts *so, const char *build_id)
{
    char hex[CLI_SYM_MAX][TSYM_BUILD_ID_HEX_MAX];
    if (!so->n_exes)
        return 1;
    for (size_t i = 0; i < so->n_exes; i++) {
        tt_error err = {0};
        if (tsym_elf_build_id(hex[i], sizeof hex[i], so->exes[i], &err) ||
            !strcmp(hex[i], build_id))
            return 1;
    }
    for (size_t i = 0; i < so->n_exes; i++)
        cli_errorf("%s: file has build id %s, expected %s", so->exes[i], hex[i], build_id);
    return 0;
}

static int raw_mode(run *r, const cli_sym_opts *so, const char *build_id, int argc, char **argv)
{
    const char *why;
    if (!exes_have_build_id(so, build_id))
        return CLI_BAD;
    tsym_module *m = cli_sym_module(r->sym, NULL, build_id, CLI_SYM_FATAL, &why);
    if (!m)
        return CLI_BAD;
    const tsym_module_info *mi = tsym_module_info_get(m);
    const char *label = mi->path ? mi->path : mi->debug_path;
    if (r->arch && strcmp(mi->arch, r->arch)) {
        cli_errorf("%s: UUID %s is the %s slice, not %s", label, build_id,
                   mi->arch[0] ? mi->arch : "non-Mach-O", r->arch);
        return CLI_BAD;
    }
    return cli_symb__raw_addresses(r, m, label, argc, argv);
}

static int parse_opts(run *r, cli_sym_opts *so, const char **build_id, const char **store_dir,
                      int argc, char **argv)
{
    int c, style = 0;
    while ((c = getopt_long(argc, argv, "e:afiCsph", longopts, NULL)) != -1) {
        int s = cli_sym_opt(so, c, optarg);
        if (s < 0)
            return CLI_BAD;
        if (s)
            continue;
        switch (c) {
        case 'a': r->opt_a = 1; break;
        case 'f': r->opt_f = 1; break;
        case 'i': r->opt_i = 1; break;
        case 'C': r->flags |= TSYM_F_DEMANGLE; break;
        case 's': r->opt_s = 1; break;
        case 'p': r->opt_p = 1; break;
        case O_BUILD_ID: *build_id = optarg; break;
        case O_OFFSETS: r->offsets = 1; break;
        case O_RETADDR: r->retaddr = 1; break;
        case CLI_SYM_O_NEAREST: r->flags |= TSYM_F_NEAREST; break;
        case O_RESYM: r->resym = 1; break;
        case O_ADD: *store_dir = optarg; break;
        case O_UUID: r->uuid = optarg; break;
        case O_ARCH: r->arch = optarg; break;
        case O_LOAD:
            if (tsym_addr_parse(&r->load, optarg, strlen(optarg))) {
                cli_errorf("option --load-address: expected a hexadecimal address, got \"%s\"",
                           optarg);
                return CLI_BAD;
            }
            r->load_set = 1;
            break;
        case CLI_KS_O_NOADJ:
            if (cli_ks_opt(&r->ks, c, optarg) < 0)
                return CLI_BAD;
            r->ks_opt = 1;
            break;
        case O_NAMES:
            if ((style = cli_opt_enum("--names", optarg, names_styles)) < 0)
                return CLI_BAD;
            r->flags = style ? r->flags | TSYM_F_SYMBOL_NAMES : r->flags & ~TSYM_F_SYMBOL_NAMES;
            break;
        case O_FORMAT:
            if ((r->fmt = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_KIND:
            if ((r->kind = cli_opt_enum("--kind", optarg, kinds)) < 0)
                return CLI_BAD;
            r->kind_set = 1;
            break;
        case 'h': return cli_usage(usage, 0) + 100;
        default: return cli_usage(usage, 1);
        }
    }
    return 0;
}

static int normalise_build_id(char *dst, size_t cap, const char *s)
{
    size_t k = 0;
    for (; *s; s++) {
        char ch = *s;
        if (ch == '-')
            continue;
        if (ch >= 'A' && ch <= 'F')
            ch = (char)(ch - 'A' + 'a');
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) || k + 1 >= cap)
            return -1;
        dst[k++] = ch;
    }
    dst[k] = 0;
    return k >= 2 ? 0 : -1;
}

static int kscrash(run *r, const cli_sym_opts *so, int argc, char **argv, cli_ctx *ctx)
{
    if (r->kind != K_KSCRASH) {
        cli_errorf("--no-adjust needs --kind kscrash");
        return CLI_BAD;
    }
    if (r->fmt == F_TSV) {
        cli_errorf("--format tsv is for raw addresses (-e FILE)");
        return CLI_BAD;
    }
    if (!argc) {
        cli_errorf("symbolicate: --kind kscrash needs FILE...");
        return CLI_BAD;
    }
    cli_ks_opts *o = &r->ks;
    o->format = r->fmt == F_JSON ? CLI_KS_JSON : r->fmt == F_JSONL ? CLI_KS_JSONL : CLI_KS_TEXT;
    o->interval_ms = 50;
    o->full_path = !r->opt_s;
    for (size_t i = 0; i < so->n_dirs && o->sym.n_dirs < CLI_SYM_MAX; i++)
        o->sym.dirs[o->sym.n_dirs++] = so->dirs[i];
    for (size_t i = 0; i < so->n_exes; i++)
        o->sym.exes[o->sym.n_exes++] = so->exes[i];
    for (size_t i = 0; i < so->n_dsyms; i++) /* --dsym as report takes it */
        if (cli_ks_opt(o, CLI_KS_O_DSYM, so->dsyms[i]) < 0)
            return CLI_BAD;
    o->sym.flags = r->flags;
    o->sym.swift = so->swift;
    int rc = cli_ks_run(o, argv, argc, ctx);
    cli_stats_report(ctx->stats);
    return rc;
}

/* --kind auto reading files (not raw addresses): KSCrash / Matrix iOS reports are detected
 * by content (cli.md "Inputs") and read as --kind kscrash. Standard input and pipes stay
 * streamed backtraces (a filter is never held back to look at its input). */
static int auto_kscrash(run *r, const cli_sym_opts *so, const char *bid_opt, int argc,
                        char **argv)
{
    if (r->kind_set || bid_opt || (so->n_exes > 0 && !r->kind_set) || !argc)
        return 0;
    int ios = 0;
    for (int i = 0; i < argc; i++) {
        int k = cli_input_is_stream(argv[i]) ? 0 : cli_ks_file_kind(argv[i], 0);
        if (k < 0)
            return CLI_BAD; /* an Apple crash report (ios.md 2.1), said */
        ios += k;
    }
    if (ios && ios < argc) {
        for (int i = 0; i < argc; i++)
            if (cli_input_is_stream(argv[i]) || !cli_ks_file_is_ios(argv[i])) {
                cli_errorf("%s: not a KSCrash or Matrix iOS report: iOS reports are "
                           "symbolicated on their own (--kind kscrash), not with other "
                           "backtraces", argv[i]);
                break;
            }
        return CLI_BAD;
    }
    if (ios)
        r->kind = K_KSCRASH;
    return 0;
}

int cmd_symbolicate(int argc, char **argv, cli_ctx *ctx)
{
    /* results to a file or pipe go out in 32 KiB writes (stdio's default is one write
     * per 4 KiB; a JSON result is about 700 bytes) */
    static char out_buf[1 << 15];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);
    run r = {.fmt = F_TEXT, .kind = K_AUTO};
    cli_sym_opts so = {0};
    const char *bid_opt = NULL, *store_dir = NULL;
    tt_jsonw_init(&r.json, 0);
    int rc = parse_opts(&r, &so, &bid_opt, &store_dir, argc, argv);
    if (rc) {
        tt_jsonw_free(&r.json);
        return rc >= 100 ? rc - 100 : rc;
    }
    argc -= optind;
    argv += optind;
    /* files: backtraces and --add inputs; with -e or --build-id the arguments are addresses */
    if ((!so.n_exes || r.kind_set || store_dir) && !bid_opt && cli_stdin_once(argv, argc)) {
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    if ((!so.n_exes || r.kind_set || store_dir) && !bid_opt)
        for (int i = 0; i < argc; i++)
            if (!(store_dir && cli_is_dsym(argv[i])) && cli_input_path(argv[i])) {
                tt_jsonw_free(&r.json);
                return CLI_BAD;
            }
    if (store_dir) {
        tt_jsonw_free(&r.json);
        return add_to_store(store_dir, argc, argv);
    }
    if ((rc = auto_kscrash(&r, &so, bid_opt, argc, argv))) {
        tt_jsonw_free(&r.json);
        return rc;
    }
    if (r.kind == K_KSCRASH || r.ks_opt) { /* KSCrash / Matrix iOS reports (ios.md 11) */
        tt_jsonw_free(&r.json);
        return kscrash(&r, &so, argc, argv, ctx);
    }
    char bid[TSYM_BUILD_ID_HEX_MAX];
    if (r.uuid && !bid_opt) {
        if (normalise_build_id(bid, sizeof bid, r.uuid) || strlen(bid) != 32) {
            cli_errorf("option --uuid: expected 32 hexadecimal digits, got \"%s\"", r.uuid);
            tt_jsonw_free(&r.json);
            return CLI_BAD;
        }
        bid_opt = r.uuid;
    } else if (r.arch) {
        cli_errorf("--arch goes with --uuid; with -e write -e FILE:ARCH");
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    if (bid_opt && bid_opt != r.uuid && normalise_build_id(bid, sizeof bid, bid_opt)) {
        cli_errorf("option --build-id: expected a hexadecimal build id, got \"%s\"", bid_opt);
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    /* raw addresses with -e or --build-id; --kind (or neither) reads backtraces */
    int raw = (so.n_exes > 0 && !r.kind_set) || bid_opt;
    if (so.n_exes > 1 && raw && !bid_opt) {
        cli_errorf("several -e modules: give --symbols DIR for backtraces, or one -e");
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    /* backtrace files alone are read as --kind auto, their modules found by the paths the
     * frames name; no file and no option at all is most likely a mistake (a terminal would
     * wait for input) */
    if (!raw && !argc && so.n_dirs == 0 && so.n_exes == 0 && !r.kind_set &&
        !getenv("TRACETOOL_SYMBOL_PATH")) {
        cli_errorf("symbolicate: give FILE..., -e FILE, --build-id HEX, --symbols DIR or --kind "
                   "KIND");
        tt_jsonw_free(&r.json);
        return cli_usage(usage, 1);
    }
    if (!raw && r.fmt >= F_TSV) {
        cli_errorf("--format %s is for raw addresses (-e FILE)", formats[r.fmt]);
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    so.flags = r.flags;
    if ((rc = cli_sym_open(&r.sym, &so, ctx))) {
        tt_jsonw_free(&r.json);
        return rc;
    }
    if (tt_perf_maps_new(&r.maps))
        r.maps = NULL; /* out of memory: runtime addresses stay unmapped */
    if (!raw)
        r.flags |= TSYM_F_DEMANGLE; /* backtraces are for people: always demangled */
    if (r.fmt == F_JSON)
        tt_jsonw_arr_begin(&r.json);
    if (r.fmt == F_CSV)
        tt_buf_puts(&r.out, "address,frames\n");
    if (raw && !bid_opt) {
        /* NULL for a universal file without :ARCH (said so): raw addresses carry no UUID */
        tsym_module *m = cli_sym_module(r.sym, so.exes[0], NULL, 1, NULL);
        rc = m ? cli_symb__raw_addresses(&r, m, so.exes[0], argc, argv) : CLI_BAD;
    } else if (raw) {
        rc = raw_mode(&r, &so, bid, argc, argv);
    } else {
        for (int i = 0; i < (argc ? argc : 1) && !rc; i++)
            rc = cli_symb__text_file(&r, argc ? argv[i] : "-");
        if (!rc)
            cli_symb__summary(&r);
    }
    if (r.fmt == F_JSON && !rc) {
        tt_jsonw_arr_end(&r.json);
        tt_buf_puts(&r.json.buf, "\n");
        tt_buf_put(&r.out, r.json.buf.data, r.json.buf.len);
    }
    cli_symb__flush(&r);
    run_free(&r);
    cli_stats_report_prefix(ctx->stats, "swift_"); /* counted when the demangler was closed */
    if (!rc) /* corrupt Mach-O files passed over while scanning the stores, named once */
        cli_stats_report_prefix(ctx->stats, "macho_bad_");
    return rc;
}
