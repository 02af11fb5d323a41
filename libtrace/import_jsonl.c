/* tracetool JSON-lines samples reader ("tracetool-samples" version 1), spec/samples.md
 * section 2.4: meta, thread, module and sample lines, root-first frames, exact integers. */
#include "tt.h"

#include <jansson.h>
#include <string.h>

#include "tt_int.h"
#include "json_int.h"

typedef struct jmod {
    const char *name;
    uint64_t base, size;
    int ranged;           /* base and size given: absolute addresses resolve in it */
    const char *build_id; /* lowercase hex, or NULL */
    const char *path;     /* the module file's path on the device, or NULL */
} jmod;

typedef struct jstate {
    tt_profile *p;
    const tt_import_opts *o;
    tt_stats *stats;
    const char *file;
    uint64_t lineno;
    tt_vec frames, mods;
    tt_intern *mod_names; /* module line names; id k's first line is mods[mod_first[k]] */
    tt_vec mod_first;     /* size_t */
    tt_buf name;
    int64_t pid;
    uint64_t samples, data_lines;
    tt_error *err;
} jstate;

static int fail(jstate *st, const char *fmt, const char *a)
{
    return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_LINE, st->lineno, fmt, a);
}

/* A build id member (hex digits, "0x" optional, any case): lowercased into the profile's
 * strings; *v NULL when absent. */
static int get_build_id(jstate *st, json_t *o, const char *k, const char **v)
{
    json_t *x = json_object_get(o, k);
    *v = NULL;
    if (!x || json_is_null(x))
        return 0;
    const char *s = json_string_value(x);
    if (s && (s[0] == '0' && (s[1] | 0x20) == 'x'))
        s += 2;
    size_t n = s ? strlen(s) : 0;
    char buf[129];
    if (!n || n >= sizeof buf)
        return fail(st, "\"%s\": expected a build id of 1 to 128 hex digits", k);
    for (size_t i = 0; i < n; i++) {
        char c = (char)(s[i] | 0x20);
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return fail(st, "\"%s\": expected a build id of 1 to 128 hex digits", k);
        buf[i] = c;
    }
    if (!(*v = tt_profile_str(st->p, buf, n)))
        return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    return 0;
}

/* The module line named name (the first one), or NULL. */
static const jmod *mod_named(const jstate *st, const char *name)
{
    uint32_t id;
    if (!name || !st->mod_names || tt_intern_find(st->mod_names, name, strlen(name), &id))
        return NULL;
    return &TT_VEC_AT(&st->mods, jmod, TT_VEC_AT(&st->mod_first, size_t, id));
}

/* Exact int64 member; 0 absent (*has = 0), TT_EFORMAT on a non-integer. */
static int get_int(jstate *st, json_t *o, const char *k, int64_t *v, int *has)
{
    json_t *x = json_object_get(o, k);
    *has = 0;
    if (!x || json_is_null(x))
        return 0;
    if (!json_is_integer(x))
        return fail(st, "\"%s\": expected an integer", k);
    *v = (int64_t)json_integer_value(x);
    *has = 1;
    return 0;
}

static int get_hex(jstate *st, json_t *o, const char *k, uint64_t *v, int *has)
{
    json_t *x = json_object_get(o, k);
    *has = 0;
    if (!x)
        return 0;
    if (json_is_integer(x) && json_integer_value(x) >= 0) {
        *v = (uint64_t)json_integer_value(x);
        *has = 1;
        return 0;
    }
    const char *s = json_string_value(x);
    if (!s || strncmp(s, "0x", 2) || !s[2] || strlen(s) > 18)
        return fail(st, "\"%s\": expected a hex string \"0x...\"", k);
    uint64_t r = 0;
    for (const char *c = s + 2; *c; c++) {
        int d = *c >= '0' && *c <= '9' ? *c - '0' : (*c | 0x20) >= 'a' && (*c | 0x20) <= 'f'
                                                        ? (*c | 0x20) - 'a' + 10 : -1;
        if (d < 0)
            return fail(st, "\"%s\": expected a hex string \"0x...\"", k);
        r = r * 16 + (uint64_t)d;
    }
    *v = r;
    *has = 1;
    return 0;
}

static int frame_kind(const char *k)
{
    static const char *const n[] = {"java", "native", "kernel", "js", "synthetic"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(k, n[i]))
            return i;
    return -1;
}

static int frame_obj(jstate *st, json_t *fo, uint32_t *id)
{
    tt_stack_frame f;
    memset(&f, 0, sizeof f);
    f.kind = TT_FRAME_NATIVE;
    const char *name = json_string_value(json_object_get(fo, "name"));
    f.module = json_string_value(json_object_get(fo, "module"));
    f.file = json_string_value(json_object_get(fo, "file"));
    int has;
    int64_t line;
    if (get_int(st, fo, "line", &line, &has) ||
        get_hex(st, fo, "rel_pc", &f.rel_pc, &f.has_rel_pc) ||
        get_hex(st, fo, "addr", &f.addr, &f.has_addr) ||
        get_build_id(st, fo, "build_id", &f.build_id))
        return TT_EFORMAT;
    if (has && line > 0 && line <= INT32_MAX)
        f.line = (int32_t)line;
    const char *kind = json_string_value(json_object_get(fo, "kind"));
    if (kind) {
        if ((f.kind = frame_kind(kind)) < 0)
            return fail(st, "frame kind \"%s\": expected java, native, kernel, js or synthetic",
                        kind);
    } else if (name && !f.has_rel_pc && !f.has_addr && !f.module) {
        f.kind = TT_FRAME_JAVA;
    }
    if (f.has_addr && !f.has_rel_pc) {
        /* absolute address: find the module line whose range holds it */
        for (size_t i = 0; i < st->mods.len; i++) {
            jmod *m = &TT_VEC_AT(&st->mods, jmod, i);
            if (m->ranged && f.addr >= m->base && f.addr - m->base < m->size &&
                (!f.module || !strcmp(f.module, m->name))) {
                f.module = m->name;
                f.rel_pc = f.addr - m->base; /* an offset: the ELF says its vaddr (3.2) */
                f.has_rel_pc = 1;
                f.rel_pc_is_offset = 1;
                break;
            }
        }
    }
    /* the module line of the frame's module: its path and build id (storage.md 3.7) */
    const jmod *ml = mod_named(st, f.module);
    if (ml) {
        f.module_file = ml->path;
        if (!f.build_id)
            f.build_id = ml->build_id;
    }
    st->name.len = 0;
    if (name) {
        tt_buf_puts(&st->name, name);
    } else if (f.has_rel_pc) {
        /* unnamed native frame: stays an address until symbolication names it */
        tt_buf_printf(&st->name, "%s%s0x%llx", f.module ? f.module : "", f.module ? "+" : "",
                      (unsigned long long)f.rel_pc);
        f.is_unnamed = 1;
    } else if (f.has_addr) {
        tt_buf_printf(&st->name, "0x%llx", (unsigned long long)f.addr);
        f.is_unnamed = 1;
    } else {
        return fail(st, "frame object needs one of \"name\", \"rel_pc\", \"addr\"%s", "");
    }
    f.name = st->name.data;
    return tt_frame_intern(st->p, id, &f) ? tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0,
                                                         "out of memory")
                                          : 0;
}

static int thread_of(jstate *st, json_t *o, int64_t tid, uint32_t *utid)
{
    int64_t pid = st->pid;
    int has;
    if (get_int(st, o, "pid", &pid, &has))
        return TT_EFORMAT;
    if (tt_thread_intern(st->p, utid, st->o->source, pid, tid, 32))
        return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    if (pid >= 0 && pid == tid)
        tt_thread_set_main(st->p, *utid);
    return 0;
}

static int counters_of(jstate *st, json_t *o, tt_counters *c)
{
    json_t *co = json_object_get(o, "counters");
    memset(c, 0, sizeof *c);
    if (!co)
        return 0;
    if (!json_is_object(co))
        return fail(st, "\"counters\": expected an object%s", "");
    for (int i = 0; i < TT_CTR_COUNT; i++) {
        json_t *x = json_object_get(co, tt_counter_name(i));
        if (!x)
            continue;
        if (!json_is_integer(x) || json_integer_value(x) < 0)
            return fail(st, "counter \"%s\": expected a non-negative integer",
                        tt_counter_name(i));
        c->v[i] = (uint64_t)json_integer_value(x);
        c->known |= 1u << i;
    }
    return 0;
}

static int sample_line(jstate *st, json_t *o)
{
    tt_sample s;
    tt_sample_init(&s);
    int has_ts, has_tid, has;
    int64_t tid = 0, v;
    if (get_int(st, o, "ts_ns", &s.ts, &has_ts) || get_int(st, o, "tid", &tid, &has_tid))
        return TT_EFORMAT;
    if (!has_ts)
        return fail(st, "sample line without \"ts_ns\"%s", "");
    if (!has_tid)
        return fail(st, "sample line without \"tid\"%s", "");
    json_t *fr = json_object_get(o, "frames");
    if (!json_is_array(fr) || json_array_size(fr) == 0)
        return fail(st, "\"frames\": expected a non-empty array%s", "");
    /* a deeper stack keeps its outermost frames (the first ones) under a marker leaf */
    size_t nfr = json_array_size(fr);
    if (nfr > TT_MAX_STACK_DEPTH)
        tt__stack_truncated_note(st->stats, st->file, st->lineno, nfr);
    st->frames.len = 0;
    size_t i;
    json_t *f;
    json_array_foreach(fr, i, f) {
        uint32_t id;
        if (i == TT_MAX_STACK_DEPTH)
            break;
        if (json_is_string(f)) {
            if (tt__frame_simple(st->p, &id, json_string_value(f), json_string_length(f),
                                 TT_FRAME_JAVA, NULL))
                return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        } else if (json_is_object(f)) {
            if (frame_obj(st, f, &id))
                return TT_EFORMAT;
        } else {
            return fail(st, "\"frames\": elements must be strings or objects%s", "");
        }
        if (!tt_vec_push(&st->frames, &id))
            return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    }
    if (thread_of(st, o, tid, &s.utid))
        return TT_EFORMAT;
    const char *tn = json_string_value(json_object_get(o, "thread"));
    if (tn)
        tt_thread_set_name(st->p, s.utid, tn, strlen(tn), 0);
    if (tt__stack_truncate(st->p, st->frames.data, &st->frames.len, nfr) ||
        tt_callsite_intern(st->p, &s.callsite, st->frames.data, st->frames.len))
        return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    if (get_int(st, o, "cpu_ns", &s.cpu, &has) || get_int(st, o, "end_ts_ns", &v, &has))
        return TT_EFORMAT;
    s.end_cpu = s.cpu;
    if (has) {
        if (v < s.ts)
            return fail(st, "\"end_ts_ns\" is before \"ts_ns\"%s", "");
        /* end_ts equal to ts is a point sample (samples.md 1), as btrace's end_nano == 0 */
        s.end_ts = v;
        s.is_interval = v > s.ts;
    }
    if (get_int(st, o, "end_cpu_ns", &v, &has))
        return TT_EFORMAT;
    if (has)
        s.end_cpu = v;
    const char *type = json_string_value(json_object_get(o, "type"));
    if (type) {
        int t = tt_sample_type_parse(type, strlen(type));
        if (t < 0) {
            char ex[200];
            snprintf(ex, sizeof ex, "%s:%llu: unknown type \"%.40s\" imported as other", st->file,
                     (unsigned long long)st->lineno, type);
            tt_stats_add(st->stats, "samples_unknown_type", st->file, TT_SEV_WARN, 1, ex);
            t = TT_ST_OTHER;
        }
        s.type = (uint8_t)t;
    }
    s.is_blocking = (uint8_t)tt_sample_type_blocking(s.type);
    json_t *b = json_object_get(o, "blocking");
    if (b) {
        if (!json_is_boolean(b))
            return fail(st, "\"blocking\": expected true or false%s", "");
        s.is_blocking = json_is_true(b);
    }
    if (get_int(st, o, "msg_id", &v, &has))
        return TT_EFORMAT;
    s.msg_id = has && v > 0 ? (uint64_t)v : 0;
    json_t *w = json_object_get(o, "weight");
    if (w) {
        if (json_is_integer(w))
            s.weight = (int64_t)json_integer_value(w);
        else if (json_is_real(w) && json_real_value(w) >= 0 && json_real_value(w) < 9e18)
            s.weight = (int64_t)(json_real_value(w) + 0.5);
        else
            return fail(st, "\"weight\": expected a number%s", "");
    }
    if (get_int(st, o, "waker_tid", &v, &has))
        return TT_EFORMAT;
    if (has && tt_thread_intern(st->p, &s.waker_utid, st->o->source, st->pid, v, 32))
        return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    tt_counters c;
    if (counters_of(st, o, &c))
        return TT_EFORMAT;
    int rc = tt_profile_add(st->p, &s, &c);
    if (rc == TT_ELIMIT)
        return fail(st, "a time beyond 2^62 ns, a cpu_ns below -1 or a weight outside "
                        "0..2^40%s", "");
    if (rc)
        return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    st->samples++;
    return 0;
}

static const char *str_of(jstate *st, json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? tt_profile_str(st->p, v, strlen(v)) : NULL;
}

static int meta_line(jstate *st, json_t *o)
{
    static const char *const clocks[] = {"boottime", "monotonic", "realtime", "unknown"};
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (st->data_lines) {
        tt_stats_add(st->stats, "samples_late_meta", st->file, TT_SEV_WARN, 1,
                     "a meta line after the first line was ignored");
        return 0;
    }
    const char *fmt = json_string_value(json_object_get(o, "format"));
    if (fmt && strcmp(fmt, "tracetool-samples"))
        return fail(st, "meta \"format\": expected \"tracetool-samples\", found \"%s\"", fmt);
    int has;
    int64_t v;
    if (get_int(st, o, "version", &v, &has))
        return TT_EFORMAT;
    if (has && v != 1) {
        char num[32];
        snprintf(num, sizeof num, "%lld", (long long)v);
        return fail(st, "meta \"version\": expected 1, found %s", num);
    }
    if (get_int(st, o, "pid", &v, &has))
        return TT_EFORMAT;
    if (has) {
        if (tt_profile_meta_claim(st->p, st->o->source))
            return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        st->pid = m->pid = v;
    }
    if (get_int(st, o, "interval_ns", &v, &has))
        return TT_EFORMAT;
    if (has && v > 0)
        m->interval_ns = v;
    const char *clock = json_string_value(json_object_get(o, "clock"));
    if (clock) {
        size_t i;
        for (i = 0; i < 4 && strcmp(clock, clocks[i]); i++)
            ;
        if (i == 4)
            return fail(st, "meta \"clock\": expected boottime, monotonic, realtime or unknown, "
                            "found \"%s\"", clock);
        m->clock = clocks[i];
    }
    const char *proc = str_of(st, o, "process");
    if (proc) {
        if (tt_profile_meta_claim(st->p, st->o->source))
            return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        m->process = proc;
    }
    return 0;
}

static int thread_line(jstate *st, json_t *o)
{
    int64_t tid;
    int has;
    if (get_int(st, o, "tid", &tid, &has))
        return TT_EFORMAT;
    if (!has)
        return fail(st, "thread line without \"tid\"%s", "");
    uint32_t utid;
    if (thread_of(st, o, tid, &utid))
        return TT_EFORMAT;
    const char *n = json_string_value(json_object_get(o, "name"));
    if (n)
        tt_thread_set_name(st->p, utid, n, strlen(n), 0);
    if (json_is_true(json_object_get(o, "is_main")))
        tt_thread_set_main(st->p, utid);
    return 0;
}

static int module_line(jstate *st, json_t *o)
{
    jmod m = {str_of(st, o, "name"), 0, 0, 0, NULL, str_of(st, o, "path")};
    int hb, hs;
    if (!m.name)
        return fail(st, "module line without \"name\"%s", "");
    json_t *path = json_object_get(o, "path");
    if (path && !json_is_null(path) && !json_is_string(path))
        return fail(st, "module line \"path\": expected a string%s", "");
    if (m.path && !m.path[0])
        m.path = NULL;
    if (get_hex(st, o, "base", &m.base, &hb) || get_hex(st, o, "size", &m.size, &hs) ||
        get_build_id(st, o, "build_id", &m.build_id))
        return TT_EFORMAT;
    m.ranged = hb && hs;
    uint32_t id;
    size_t at = st->mods.len;
    if (!tt_vec_push(&st->mods, &m) ||
        (!st->mod_names && !(st->mod_names = tt_intern_new())) ||
        tt_intern_get(st->mod_names, m.name, strlen(m.name), &id) ||
        (id == st->mod_first.len && !tt_vec_push(&st->mod_first, &at)))
        return tt_error_set(st->err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    return 0;
}

static int jsonl_line(jstate *st, const char *line, size_t n)
{
    tt__trim(&line, &n);
    if (!n)
        return 0;
    json_error_t je;
    uint64_t nul;
    json_t *o = tt__json_loadb(line, n, 0, &nul, &je);
    if (!o)
        return tt_error_set(st->err, TT_EFORMAT, st->file, TT_LOC_LINE, st->lineno,
                            "invalid JSON: %s", je.text);
    tt__json_nul_note(st->stats, st->file, nul);
    int rc;
    if (!json_is_object(o)) {
        rc = fail(st, "expected a JSON object per line%s", "");
    } else {
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (!kind || !strcmp(kind, "sample"))
            rc = sample_line(st, o);
        else if (!strcmp(kind, "meta"))
            rc = meta_line(st, o);
        else if (!strcmp(kind, "thread"))
            rc = thread_line(st, o);
        else if (!strcmp(kind, "module"))
            rc = module_line(st, o);
        else {
            tt_stats_add(st->stats, "samples_unknown_kind", st->file, TT_SEV_INFO, 1, NULL);
            rc = 0;
        }
    }
    st->data_lines++;
    json_decref(o);
    return rc;
}

int tt_jsonl_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                    tt_error *err)
{
    jstate st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.o = o;
    st.stats = stats;
    st.file = tt_input_name(in);
    st.err = err;
    st.pid = -1;
    tt_vec_init(&st.frames, sizeof(uint32_t));
    tt_vec_init(&st.mods, sizeof(jmod));
    tt_vec_init(&st.mod_first, sizeof(size_t));
    tt_profile_meta *m = tt_profile_meta_get(p);
    m->source_format = "tt_samples";
    const char *line;
    size_t n;
    int rc;
    for (;;) {
        rc = tt_input_line(in, &line, &n, &st.lineno, err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc || (rc = jsonl_line(&st, line, n)))
            break;
    }
    if (!rc && !st.samples)
        rc = tt_error_set(err, TT_EFORMAT, st.file, 0, 0, "no sample lines in JSON-lines input");
    tt_vec_free(&st.frames);
    tt_vec_free(&st.mods);
    tt_vec_free(&st.mod_first);
    tt_intern_free(st.mod_names);
    tt_buf_free(&st.name);
    return rc;
}
