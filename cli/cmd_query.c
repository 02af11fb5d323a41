/* tracetool query: run SQL against a database written by analyze (cli.md, storage.md 5.4).
 * Read-only unless --write; output as an aligned table, RFC 4180 CSV, JSON or JSON lines. */
#include "cli.h"
#include "cli_csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sqlite/tdb.h"

static const char usage[] =
    "usage: tracetool query [--format table|csv|json|jsonl] [--write] DB [SQL]\n"
    "\n"
    "      --format FMT   table (aligned, default), csv (RFC 4180), json (one array), jsonl\n"
    "      --write        allow statements that modify the database\n"
    "  -h, --help         show this help\n"
    "SQL is read from standard input when not given; several statements may follow each other.\n";

enum { O_FORMAT = 256, O_WRITE };
static const struct option longopts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"write", no_argument, NULL, O_WRITE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const char *const formats[] = {"table", "csv", "json", "jsonl", NULL};
enum { F_TABLE, F_CSV, F_JSON, F_JSONL };

typedef struct qctx {
    int format;
    int statements;   /* statements with columns printed so far */
    int json_rows;    /* rows in the json array */
    tt_vec cells;     /* table: a cell per value, row-major, header first */
    tt_vec numeric;   /* table: per column, 1 while every value is a number */
    int ncol;
    tt_vec keys;      /* json, jsonl: char* per column, unique within the object */
    tt_buf out;
} qctx;

/* Text of a value; NULL is empty. Reals use the shortest round-trip form. */
static void value_text(tt_buf *b, const tdb_value *v)
{
    char num[64];
    switch (v->type) {
    case TDB_INT: tt_buf_printf(b, "%lld", (long long)v->i); break;
    case TDB_REAL:
        /* an infinity as sqlite3 -csv writes it: JSON's null would read as the text 'null' */
        if (isinf(v->r)) {
            tt_buf_puts(b, v->r > 0 ? "Inf" : "-Inf");
            break;
        }
        tt_json_format_double(num, sizeof num, v->r);
        tt_buf_puts(b, num);
        break;
    case TDB_TEXT: tt_buf_put(b, v->s, v->n); break;
    case TDB_BLOB:
        tt_buf_puts(b, "x'");
        for (size_t i = 0; i < v->n; i++)
            tt_buf_printf(b, "%02x", (unsigned char)v->s[i]);
        tt_buf_puts(b, "'");
        break;
    default: break;
    }
}

static void json_value(tt_jsonw *w, const tdb_value *v)
{
    tt_buf t = {0};
    switch (v->type) {
    case TDB_INT: tt_jsonw_int(w, v->i); break;
    case TDB_REAL: tt_jsonw_real(w, v->r); break;
    case TDB_TEXT: tt_jsonw_strn(w, v->s, v->n); break;
    case TDB_BLOB:
        value_text(&t, v);
        tt_jsonw_strn(w, t.data, t.len);
        break;
    default: tt_jsonw_null(w);
    }
    tt_buf_free(&t);
}

static char *dup_text(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* A table cell: the value's bytes, whole (a NUL inside a text does not end it), and its
 * width on the terminal as the output's escaper writes it (\xNN is 4 characters). */
typedef struct cell {
    char *s;
    size_t n, width;
} cell;

static int count_chars(void *ctx, const char *p, size_t n)
{
    size_t *w = ctx;
    for (size_t i = 0; i < n; i++) /* UTF-8 continuation bytes do not count */
        *w += ((unsigned char)p[i] & 0xC0) != 0x80;
    return 0;
}

static int cell_push(qctx *q, const char *s, size_t n)
{
    cell c = {dup_text(s, n), n, 0};
    if (!c.s)
        return 1;
    tt_textesc e;
    tt_textesc_init(&e, count_chars, &c.width);
    tt_textesc_put(&e, s, n);
    tt_textesc_flush(&e);
    if (!tt_vec_push(&q->cells, &c)) {
        free(c.s);
        return 1;
    }
    return 0;
}

static void cells_free(qctx *q)
{
    for (size_t i = 0; i < q->cells.len; i++)
        free(TT_VEC_AT(&q->cells, cell, i).s);
    q->cells.len = 0;
}

static void table_flush(qctx *q)
{
    size_t nc = (size_t)q->ncol, nrows = q->cells.len / nc;
    cell *cells = q->cells.data;
    size_t *wd = calloc(nc, sizeof *wd);
    if (!wd)
        return;
    for (size_t r = 0; r < nrows; r++)
        for (size_t c = 0; c < nc; c++)
            if (cells[r * nc + c].width > wd[c])
                wd[c] = cells[r * nc + c].width;
    if (q->statements > 1)
        tt_buf_puts(&q->out, "\n");
    for (size_t r = 0; r < nrows; r++) {
        for (size_t c = 0; c < nc; c++) {
            const cell *s = &cells[r * nc + c];
            size_t pad = wd[c] - s->width;
            int right = r > 0 && TT_VEC_AT(&q->numeric, int, c);
            if (c)
                tt_buf_puts(&q->out, "  ");
            if (right)
                tt_buf_printf(&q->out, "%*s", (int)pad, "");
            tt_buf_put(&q->out, s->s, s->n);
            if (!right && c + 1 < nc)
                tt_buf_printf(&q->out, "%*s", (int)pad, "");
        }
        tt_buf_puts(&q->out, "\n");
        if (r == 0) {
            for (size_t c = 0; c < nc; c++) {
                if (c)
                    tt_buf_puts(&q->out, "  ");
                for (size_t k = 0; k < wd[c]; k++)
                    tt_buf_puts(&q->out, "-");
            }
            tt_buf_puts(&q->out, "\n");
        }
        cli_out_buf(&q->out);
    }
    cells_free(q);
    free(wd);
}

static void keys_free(qctx *q)
{
    for (size_t i = 0; i < q->keys.len; i++)
        free(TT_VEC_AT(&q->keys, char *, i));
    q->keys.len = 0;
}

/* The JSON keys of a statement's columns: a name that an earlier column has gets ":N", its
 * N-th occurrence (select i.id, t.id: "id", "id:2"), so that no value is lost to a parser
 * that keeps one of two equal keys (RFC 8259 4). */
static int json_keys(qctx *q, int ncol, const char *const *names)
{
    keys_free(q);
    for (int c = 0; c < ncol; c++) {
        tt_buf k = {0};
        for (int n = 1;; n++) {
            k.len = 0;
            if (tt_buf_puts(&k, names[c]) || (n > 1 && tt_buf_printf(&k, ":%d", n))) {
                tt_buf_free(&k);
                return 1;
            }
            size_t i = 0;
            while (i < q->keys.len && strcmp(TT_VEC_AT(&q->keys, char *, i), k.data))
                i++;
            if (i == q->keys.len)
                break;
        }
        char *key = dup_text(k.data, k.len);
        tt_buf_free(&k);
        if (!key || !tt_vec_push(&q->keys, &key)) {
            free(key);
            return 1;
        }
    }
    return 0;
}

static int on_row(void *ctx, int event, int ncol, const char *const *names,
                  const tdb_value *vals)
{
    qctx *q = ctx;
    tt_buf t = {0};
    if (event == TDB_EV_BEGIN) {
        q->statements++;
        q->ncol = ncol;
        if (q->format == F_TABLE) {
            q->numeric.len = 0;
            for (int c = 0; c < ncol; c++) {
                int one = 1;
                if (cell_push(q, names[c], strlen(names[c])) || !tt_vec_push(&q->numeric, &one))
                    return 1;
            }
        } else if (q->format == F_CSV) {
            if (q->statements > 1)
                tt_buf_puts(&q->out, "\n");
            for (int c = 0; c < ncol; c++) {
                if (c)
                    tt_buf_puts(&q->out, ",");
                cli_csv_field(&q->out, names[c], strlen(names[c]), 0);
            }
            tt_buf_puts(&q->out, "\n");
        } else if (json_keys(q, ncol, names)) {
            return 1;
        }
    } else if (event == TDB_EV_ROW) {
        if (q->format == F_TABLE) {
            for (int c = 0; c < ncol; c++) {
                t.len = 0;
                value_text(&t, &vals[c]);
                if (cell_push(q, t.data ? t.data : "", t.len)) {
                    tt_buf_free(&t);
                    return 1;
                }
                if (vals[c].type == TDB_TEXT || vals[c].type == TDB_BLOB)
                    TT_VEC_AT(&q->numeric, int, c) = 0;
            }
        } else if (q->format == F_CSV) {
            for (int c = 0; c < ncol; c++) {
                if (c)
                    tt_buf_puts(&q->out, ",");
                t.len = 0;
                value_text(&t, &vals[c]);
                cli_csv_field(&q->out, t.data ? t.data : "", t.len, 0);
            }
            tt_buf_puts(&q->out, "\n");
        } else {
            tt_jsonw w;
            tt_jsonw_init(&w, 0);
            tt_jsonw_obj_begin(&w);
            for (int c = 0; c < ncol; c++) {
                tt_jsonw_key(&w, TT_VEC_AT(&q->keys, char *, c));
                json_value(&w, &vals[c]);
            }
            tt_jsonw_obj_end(&w);
            if (q->format == F_JSON)
                tt_buf_puts(&q->out, q->json_rows++ ? ",\n" : "\n");
            tt_buf_put(&q->out, w.buf.data, w.buf.len);
            if (q->format == F_JSONL)
                tt_buf_puts(&q->out, "\n");
            tt_jsonw_free(&w);
        }
        if (q->out.len > 65536)
            cli_out_buf(&q->out);
    } else if (event == TDB_EV_END && q->format == F_TABLE) {
        table_flush(q);
    }
    tt_buf_free(&t);
    return 0;
}

/* SQL from the argument or standard input. Owned by the caller. */
static char *read_sql(const char *arg)
{
    if (arg)
        return strdup(arg);
    if (isatty(STDIN_FILENO)) { /* a CI job must not wait silently for typed SQL */
        cli_errorf("query: no SQL: expected as an argument after DB or on standard input, "
                   "which is a terminal");
        return NULL;
    }
    tt_input *in;
    tt_error err = {0};
    if (tt_input_open(&in, "-", &err)) {
        cli_err(&err);
        return NULL;
    }
    char *data = NULL;
    size_t n;
    if (tt_input_slurp(in, &data, &n, &err))
        cli_err(&err);
    tt_input_close(in);
    return data;
}

/* 1 when a is one of query's options as getopt_long takes it (an unambiguous prefix of a
 * long name, with or without =value); *takes_next when its value is the next argument. */
static int is_option(const char *a, int *takes_next)
{
    *takes_next = 0;
    if (!strcmp(a, "-h"))
        return 1;
    if (strncmp(a, "--", 2) || !a[2])
        return 0;
    size_t n = strcspn(a + 2, "=");
    for (const struct option *o = longopts; o->name; o++)
        if (!strncmp(a + 2, o->name, n)) {
            *takes_next = o->has_arg == required_argument && !a[2 + n];
            return 1;
        }
    return 0;
}

/* Options may come before DB, between DB and SQL and after SQL (getopt_long permutes), but
 * the argument after DB that is no option of query is SQL even when it begins with '-' (a
 * saved query starting with a "--" comment line): it is taken out of argv before getopt_long
 * sees it. Returns it, or NULL (then SQL, if any, is an ordinary operand). */
static char *take_sql(int *argc, char **argv)
{
    int db = 0, next;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--"))
            return NULL; /* the operands that follow are operands for getopt_long too */
        if (is_option(argv[i], &next)) {
            i += next;
            continue;
        }
        if (!db) {
            db = argv[i][0] != '-' || !argv[i][1]; /* DB, or an unknown option before it */
            continue;
        }
        if (argv[i][0] != '-')
            return NULL;
        char *sql = argv[i];
        for (; i + 1 < *argc; i++)
            argv[i] = argv[i + 1];
        argv[--*argc] = NULL;
        return sql;
    }
    return NULL;
}

int cmd_query(int argc, char **argv, cli_ctx *ctx)
{
    (void)ctx;
    int format = F_TABLE, writable = 0, c;
    char *dash_sql = take_sql(&argc, argv);
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case O_FORMAT:
            if ((format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_WRITE: writable = 1; break;
        case 'h': return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
    }
    int nargs = argc - optind + (dash_sql != NULL);
    if (nargs < 1 || nargs > 2) {
        cli_errorf(nargs ? "query takes a DB and at most one SQL argument" : "query: missing DB");
        return cli_usage(usage, 1);
    }
    const char *path = argv[optind];
    if (cli_input_path(path))
        return CLI_BAD;
    char *sql = read_sql(dash_sql ? dash_sql : nargs == 2 ? argv[optind + 1] : NULL);
    if (!sql)
        return CLI_BAD;
    tt_error err = {0};
    tdb_db *db;
    int newer;
    /* --write takes its turn with analyze (the lock file beside the database) */
    char *target = writable ? cli_out_resolve(path) : NULL;
    cli_out_lock *lock = target ? cli_out_lock_take(target) : NULL;
    free(target);
    if (writable && !lock) {
        free(sql);
        return CLI_BAD;
    }
    if (tdb_open_read(&db, path, writable, &newer, &err)) {
        cli_out_lock_release(lock);
        free(sql);
        return cli_err(&err);
    }
    if (newer)
        cli_warnf("%s: written by a newer tracetool (schema > %d): views may differ", path,
                  TDB_SCHEMA_VERSION);
    qctx q = {.format = format};
    tt_vec_init(&q.cells, sizeof(cell));
    tt_vec_init(&q.numeric, sizeof(int));
    tt_vec_init(&q.keys, sizeof(char *));
    if (format == F_JSON)
        tt_buf_puts(&q.out, "[");
    int rc = tdb_exec_user(db, sql, on_row, &q, &err);
    if (format == F_JSON)
        tt_buf_puts(&q.out, q.json_rows ? "\n]\n" : "]\n");
    if (format == F_TABLE && q.cells.len)
        table_flush(&q); /* a statement that failed midway still shows its rows */
    cli_out_buf(&q.out);
    cells_free(&q);
    tt_vec_free(&q.cells);
    tt_vec_free(&q.numeric);
    keys_free(&q);
    tt_vec_free(&q.keys);
    tt_buf_free(&q.out);
    tdb_close(db);
    cli_out_lock_release(lock);
    free(sql);
    if (rc) {
        if (strstr(err.msg, "readonly") || strstr(err.msg, "query_only") ||
            strstr(err.msg, "read-only"))
            snprintf(err.msg + strlen(err.msg), sizeof err.msg - strlen(err.msg),
                     " (query is read-only; use --write to modify the database)");
        return cli_err(&err);
    }
    return CLI_OK;
}
