/* Samples from `perf script` / simpleperf text (spec/samples.md 2.2): a header, its frames and
 * srclines become one point sample weighted by the period, on the thread of its pid and tid
 * (section 3), for the event kept; lines come in input order from import_perf.c. */
#include "perf_sample_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf's "(inlined)" in the dso place (--inline, dwarf call graphs): a function inlined into
 * the out-of-line frame below it. */
static int inlined_line(const char *s, size_t n)
{
    static const char tag[] = " (inlined)";
    return n > sizeof tag - 1 && !memcmp(s + n - (sizeof tag - 1), tag, sizeof tag - 1) &&
           (n == sizeof tag || s[n - sizeof tag] != ' ');
}

/* The frame of a frame line (s trimmed, not empty). *mapdep: its identity depends on the
 * memory maps and the sample's pid (an unnamed frame in a file path). host: for a line perf
 * marked "(inlined)", the out-of-line frame it is inlined into: the frame is in its module,
 * known by its name (samples.md 4.1), so a function inlined and called is one function. */
static int frame_id(tt__perf_asm *st, const char *s, size_t n, uint32_t *id, int *mapdep,
                    const tt_stack_frame *host)
{
    tt__perf_fline l;
    tt__perf_frame_split(&l, s, n);
    tt_stack_frame f;
    memset(&f, 0, sizeof f);
    f.has_addr = l.has_addr;
    f.addr = l.addr;
    if (!l.unnamed && l.has_addr && l.has_off && l.off <= l.addr)
        f.addr = l.addr - l.off; /* the function's start: its identity by address (4.1) */
    if (host) {
        l.dso = l.base = NULL; /* "inlined" is no module */
        l.dn = l.bn = 0;
        l.has_addr = f.has_addr = 0; /* the pc is the host's */
        l.kind = host->kind;
        f.module_file = host->module_file;
    }
    const tt_perf_map *map = NULL;
    if (l.has_vaddr) { /* simpleperf's vaddr_in_file: the ELF address libsym reads */
        f.has_rel_pc = 1;
        f.rel_pc = l.vaddr;
    }
    *mapdep = l.unnamed && !l.has_vaddr && l.has_addr && l.dso && l.dn && l.dso[0] == '/';
    if (l.dso && l.dn && l.dso[0] == '/' && l.dn < sizeof st->dso_path) {
        memcpy(st->dso_path, l.dso, l.dn);
        st->dso_path[l.dn] = 0;
        f.module_file = st->dso_path;
    }
    if (*mapdep)
        map = tt_perf_maps_find(st->maps, st->h.pid, l.dso, l.dn, l.addr, &f.file_off);
    if (map) {
        /* the same code has the same file offset in every process (symbolication.md 3.2) */
        f.has_file_off = 1;
        f.module_path = map->path;
    } else if (*mapdep && l.dn < sizeof st->path) {
        /* no mapping line: the path still locates the file; frame_loc decides what the
         * address is */
        memcpy(st->path, l.dso, l.dn);
        st->path[l.dn] = 0;
        f.module_path = st->path;
    }
    char modbuf[256];
    if (l.base && l.bn && l.bn < sizeof modbuf && !(l.bn == 9 && !memcmp(l.base, "[unknown]", 9))) {
        memcpy(modbuf, l.base, l.bn);
        modbuf[l.bn] = 0;
        f.module = modbuf;
    } else if (host && host->module && strlen(host->module) < sizeof modbuf) {
        strcpy(modbuf, host->module);
        f.module = modbuf;
    }
    f.kind = l.kind;
    if (l.deleted && !st->deleted_dso) {
        char ex[200];
        st->deleted_dso = 1;
        char snip[64];
        tt__snippet(snip, sizeof snip, l.dso, l.dn);
        snprintf(ex, sizeof ex, "a module deleted while perf recorded, e.g. \"%s (deleted)\": "
                 "its path read without the suffix", snip);
        tt_stats_add(st->stats, "perf_deleted_module", st->file, TT_SEV_INFO, 1, ex);
    }
    tt_buf *nb = &st->name;
    nb->len = 0;
    if (l.unnamed) {
        /* one frame per module, not per address; the address stays with the frame */
        tt_buf_puts(nb, "[unknown]");
        if (f.module) {
            tt_buf_puts(nb, " ");
            tt_buf_puts(nb, f.module);
        }
        f.is_unnamed = 1;
    } else {
        tt_buf_put(nb, l.sym, l.symn);
    }
    char raw[512];
    if (l.n && l.n < sizeof raw && l.symn != l.n) {
        memcpy(raw, l.sym, l.n);
        raw[l.n] = 0;
        f.raw_name = raw;
    }
    if (!nb->data)
        return TT_ENOMEM;
    f.name = nb->data;
    return tt_frame_intern(st->p, id, &f);
}

/* An inlined frame line waits for its out-of-line frame (frame_id's host). */
static int pend_inlined(tt__perf_asm *st, const char *s, size_t n)
{
    tt__perf_fline l;
    tt__perf_frame_split(&l, s, n);
    tt__perf_inl e = {.off = st->pend_text.len, .n = n, .has_addr = l.has_addr, .addr = l.addr,
                      .fid = TT_NONE};
    if (tt_buf_put(&st->pend_text, s, n) || !tt_vec_push(&st->pend, &e))
        return TT_ENOMEM;
    st->have_frame = 1;
    st->cur_run = TT_NONE;
    return 0;
}

/* Frame fid, read as out of line, as a frame inlined into host (frame_id's host): without
 * its pc, in the host's module when it names none. */
static int inlined_copy(tt__perf_asm *st, uint32_t fid, const tt_stack_frame *host,
                        uint32_t *id)
{
    tt_stack_frame f = TT_VEC_AT(&st->p->frames, tt_stack_frame, fid);
    char name[512], raw[512], mod[256];
    /* the strings are the profile's, but copied: interning may move what holds them */
    if (f.name && strlen(f.name) < sizeof name)
        f.name = strcpy(name, f.name);
    if (f.raw_name && strlen(f.raw_name) < sizeof raw)
        f.raw_name = strcpy(raw, f.raw_name);
    f.has_addr = 0;
    f.addr = 0;
    f.kind = host->kind;
    f.module_file = host->module_file;
    if (!f.module && host->module && strlen(host->module) < sizeof mod)
        f.module = strcpy(mod, host->module);
    return tt_frame_intern(st->p, id, &f);
}

/* Frame fid may be left unused (tt__perf_asm's unused): then tt__perf_asm_end drops it,
 * it is not stored. */
static int maybe_unused(tt__perf_asm *st, uint32_t fid)
{
    static const unsigned char zero = 0;
    while (st->unused.len <= fid)
        if (!tt_vec_push(&st->unused, &zero))
            return TT_ENOMEM;
    TT_VEC_AT(&st->unused, unsigned char, fid) = 1;
    return 0;
}

/* The inlined frames waiting, then frame host_id (TT_NONE: none, the chain ended with
 * them) of frame line s: perf prints the functions inlined at a pc before the one they are
 * inlined into, at the same pc, so those are in its module. Another pc: an out-of-line
 * function perf marked "(inlined)" as its DWARF name is not the symbol's (an alias), its
 * module unknown. */
static int push_frame(tt__perf_asm *st, uint32_t host_id, const char *s, size_t n)
{
    tt_stack_frame host, none;
    memset(&none, 0, sizeof none);
    none.kind = TT_FRAME_NATIVE;
    host = none;
    tt__perf_fline l = {0};
    if (host_id != TT_NONE && st->pend.len) {
        host = TT_VEC_AT(&st->p->frames, tt_stack_frame, host_id);
        tt__perf_frame_split(&l, s, n);
    }
    for (size_t i = 0; i < st->pend.len; i++) {
        const tt__perf_inl *e = &TT_VEC_AT(&st->pend, tt__perf_inl, i);
        int same = !e->has_addr || !l.has_addr || e->addr == l.addr;
        uint32_t id;
        int mapdep, rc;
        if (e->fid != TT_NONE) {
            rc = inlined_copy(st, e->fid, same ? &host : &none, &id);
            if (!rc && id != e->fid)
                rc = maybe_unused(st, e->fid); /* read out of line first */
        } else {
            rc = frame_id(st, st->pend_text.data + e->off, e->n, &id, &mapdep,
                          same ? &host : &none);
        }
        if (rc)
            return rc;
        tt_stack_frame *f = &TT_VEC_AT(&st->p->frames, tt_stack_frame, id);
        if (e->has_file && !f->file) {
            f->file = tt_profile_str(st->p, st->pend_text.data + e->file_off, e->file_n);
            f->line = e->line;
        }
        if (!tt_vec_push(&st->frames, &id))
            return TT_ENOMEM;
    }
    st->last_inl = host_id != TT_NONE ? st->pend.len : 0;
    st->pend.len = st->pend_text.len = 0;
    if (host_id != TT_NONE && !tt_vec_push(&st->frames, &host_id))
        return TT_ENOMEM;
    return 0;
}

static int add_frame(tt__perf_asm *st, const char *s, size_t n)
{
    tt__trim(&s, &n);
    if (!n)
        return 0;
    if (inlined_line(s, n))
        return pend_inlined(st, s, n);
    uint32_t id;
    int mapdep, rc = frame_id(st, s, n, &id, &mapdep, NULL);
    if (rc)
        return rc;
    st->have_frame = 1;
    st->cur_run = TT_NONE;
    st->pf_buf.len = 0;
    if (tt_buf_put(&st->pf_buf, s, n))
        return TT_ENOMEM;
    st->pf = st->pf_buf.data;
    st->pfn = n;
    return push_frame(st, id, s, n);
}

/* A srcline ending in "(inlined)" (perf script --inline -F +srcline): the frame before it,
 * and those found inlined into it (at its pc), are inlined into the next frame: they wait for
 * it again (tt__perf_inl's fid). k returned, <0 out of memory. */
static int inlined_srcline(tt__perf_asm *st, int k)
{
    tt__perf_inl e = {.fid = TT_NONE};
    if (st->pf) { /* the frame line's pc; unknown: taken as the pc of the frame after it */
        const char *s = st->pf;
        size_t n = st->pfn, w = 0;
        while (n && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        while (w < n && s[w] != ' ' && s[w] != '\t')
            w++;
        if (w && w <= 16 && tt__perf_addr_first(s, w)) {
            e.has_addr = 1;
            for (size_t j = 0; j < w; j++)
                e.addr = e.addr * 16 +
                         (uint64_t)(s[j] <= '9' ? s[j] - '0' : (s[j] | 0x20) - 'a' + 10);
        }
    }
    size_t from = st->frames.len - 1 - st->last_inl;
    for (size_t i = from; i < st->frames.len; i++) {
        e.fid = TT_VEC_AT(&st->frames, uint32_t, i);
        if (!tt_vec_push(&st->pend, &e))
            return TT_ENOMEM;
    }
    st->frames.len = from;
    st->last_inl = 0;
    st->have_frame = 1;
    return k;
}

/* A srcline line (tt__perf_srcline_parse): 1 when it is one; its file:line goes to the frame
 * before it. */
static int srcline(tt__perf_asm *st, const char *s, size_t n)
{
    size_t fn;
    int32_t line;
    int k = tt__perf_srcline_parse(s, n, &fn, &line);
    if (k && inlined_line(s, n) && !st->pend.len && st->frames.len > st->last_inl &&
        (k = inlined_srcline(st, k)) < 0)
        return k;
    if (k == 2 && st->pend.len) { /* the line of an inlined frame waiting for its host */
        tt__perf_inl *e = &TT_VEC_AT(&st->pend, tt__perf_inl, st->pend.len - 1);
        if (!e->has_file) {
            e->file_off = st->pend_text.len;
            e->file_n = fn;
            e->line = line;
            e->has_file = tt_buf_put(&st->pend_text, s, fn) == 0;
        }
        return 1;
    }
    if (k != 2 || !st->frames.len)
        return k != 0;
    uint32_t id = TT_VEC_AT(&st->frames, uint32_t, st->frames.len - 1);
    tt_stack_frame *f = &TT_VEC_AT(&st->p->frames, tt_stack_frame, id);
    if (!f->file) {
        f->file = tt_profile_str(st->p, s, fn);
        f->line = line;
    }
    return 1;
}

/* The thread of the block (samples.md 3): one per pid and tid, named by the last comm its
 * samples carry (a thread renamed by prctl or exec stays one thread); a new one when a
 * PERF_RECORD_FORK says the tid was reused (retire_tid). Without a tid: one per comm. */
static void bad_line(tt__perf_asm *st, const char *s, size_t n, uint64_t lineno);

static int thread_of_key(tt__perf_asm *st, uint32_t *utid);

/* The cpu of a sample of a cpu's idle task (tid 0, "swapper"; one per cpu, all with pid and
 * tid 0): a thread per cpu when the header has the cpu, as the kernel's "swapper/N" are.
 * -1 for any other sample. */
static int64_t idle_cpu(const tt__perf_hdr *h)
{
    return h->tid == 0 && h->pid <= 0 && h->cpu >= 0 ? h->cpu : -1;
}

static int block_thread(tt__perf_asm *st, uint32_t *utid)
{
    const tt__perf_hdr *h = &st->h;
    if (st->last_utid != TT_NONE && h->pid == st->last_pid && h->tid == st->last_tid &&
        idle_cpu(h) == st->last_cpu &&
        h->comm.n == st->last_comm.len && !memcmp(h->comm.p, st->last_comm.data, h->comm.n)) {
        *utid = st->last_utid; /* consecutive samples of one thread */
        return 0;
    }
    st->last_comm.len = 0;
    if (tt_buf_put(&st->last_comm, h->comm.p ? h->comm.p : "", h->comm.n))
        return TT_ENOMEM;
    st->last_pid = h->pid;
    st->last_tid = h->tid;
    st->last_cpu = idle_cpu(h);
    st->last_utid = TT_NONE;
    int rc = thread_of_key(st, utid);
    if (!rc)
        st->last_utid = *utid;
    return rc;
}

/* The thread key: pid and tid, or the comm when no tid was printed; an idle task's cpu
 * (idle_cpu) after them. */
static int thread_key(tt_buf *k, int has_tid, int64_t pid, int64_t tid, const char *comm,
                      size_t n, int64_t cpu)
{
    char tag = (char)has_tid;
    k->len = 0;
    if (!has_tid)
        pid = tid = -1;
    if (tt_buf_put(k, &tag, 1) || tt_buf_put(k, (const char *)&pid, sizeof pid) ||
        tt_buf_put(k, (const char *)&tid, sizeof tid) || (!has_tid && tt_buf_put(k, comm, n)) ||
        (cpu >= 0 && tt_buf_put(k, (const char *)&cpu, sizeof cpu)))
        return TT_ENOMEM;
    return 0;
}

/* A PERF_RECORD_FORK of pid/tid: a later sample of it is a new thread when the tid had one. */
static int retire_tid(tt__perf_asm *st, int64_t pid, int64_t tid)
{
    for (int i = 0; i < 2; i++) { /* headers with pid/tid, headers with the tid alone */
        uint32_t id;
        if (thread_key(&st->key, 1, i ? -1 : pid, tid, NULL, 0, -1))
            return TT_ENOMEM;
        if (!tt_intern_find(st->tkeys, st->key.data, st->key.len, &id) && id < st->tutid.len)
            TT_VEC_AT(&st->tutid, uint32_t, id) = TT_NONE;
    }
    st->last_utid = TT_NONE;
    return 0;
}

/* The header's comm as the thread's name; an idle task's with its cpu, "swapper/3". */
static int thread_name(tt__perf_asm *st, uint32_t utid, int64_t cpu)
{
    const tt__perf_hdr *h = &st->h;
    if (!h->comm.n)
        return 0;
    int rc;
    if (cpu < 0) {
        rc = tt_thread_set_name(st->p, utid, h->comm.p, h->comm.n, 0);
    } else {
        char b[96];
        int n = snprintf(b, sizeof b, "%.*s/%lld", (int)(h->comm.n < 64 ? h->comm.n : 64),
                         h->comm.p, (long long)cpu);
        rc = tt_thread_set_name(st->p, utid, b, n > 0 ? (size_t)n : 0, 0);
    }
    return rc < 0 ? rc : 0; /* 1: renamed */
}

static int thread_of_key(tt__perf_asm *st, uint32_t *utid)
{
    const tt__perf_hdr *h = &st->h;
    tt_buf *k = &st->key;
    int64_t cpu = idle_cpu(h);
    if (thread_key(k, h->has_pid, h->pid, h->tid, h->comm.p ? h->comm.p : "", h->comm.n, cpu))
        return TT_ENOMEM;
    uint32_t id;
    if (tt_intern_get(st->tkeys, k->data, k->len, &id))
        return TT_ENOMEM;
    int rc = 0, seen = id < st->tutid.len; /* seen: a thread of the key ended (a fork) */
    if (seen && TT_VEC_AT(&st->tutid, uint32_t, id) != TT_NONE) {
        *utid = TT_VEC_AT(&st->tutid, uint32_t, id);
        return thread_name(st, *utid, cpu); /* the last name wins */
    }
    if (!seen)
        rc = tt_thread_intern(st->p, utid, st->o->source, h->pid, h->tid, 32);
    if (seen || (!rc && *utid < st->claimed.len && TT_VEC_AT(&st->claimed, unsigned char, *utid)))
        rc = tt_thread_add(st->p, utid, st->o->source, h->pid, h->tid, 32);
    if (rc)
        return rc;
    unsigned char zero = 0;
    while (st->claimed.len <= *utid)
        if (!tt_vec_push(&st->claimed, &zero))
            return TT_ENOMEM;
    TT_VEC_AT(&st->claimed, unsigned char, *utid) = 1;
    if (seen)
        TT_VEC_AT(&st->tutid, uint32_t, id) = *utid;
    else if (!tt_vec_push(&st->tutid, utid))
        return TT_ENOMEM;
    if (h->pid > 0 && h->pid == h->tid)
        tt_thread_set_main(st->p, *utid); /* pid 0, the idle tasks, is no process's */
    if (h->has_pid && h->tid < 0)
        tt_thread_set_no_thread(st->p, *utid); /* perf printed -1: a sample without a thread */
    return thread_name(st, *utid, cpu);
}

/* The block's stack: its callsite, the one of the run its frames are when known. */
static int block_callsite(tt__perf_asm *st, uint32_t *cs, uint32_t run)
{
    uint32_t *leaf = run != TT_NONE ? &TT_VEC_AT(&st->run_leaf, uint32_t, run) : NULL;
    if (leaf && *leaf != TT_NONE) {
        *cs = *leaf;
        return 0;
    }
    uint32_t *f = st->frames.data;
    size_t n = st->frames.len;
    for (size_t i = 0; i < n / 2; i++) { /* leaf first -> root first */
        uint32_t t = f[i];
        f[i] = f[n - 1 - i];
        f[n - 1 - i] = t;
    }
    int rc = tt__stack_truncate(st->p, f, &n, n);
    if (!rc)
        rc = tt__callsite_intern_cached(st->p, cs, f, n, st->cs);
    if (!rc && leaf)
        *leaf = *cs;
    return rc;
}

/* The largest sample weight a profile holds (tt_profile_add). */
#define PERIOD_MAX ((int64_t)1 << 40)

static int finish_block(tt__perf_asm *st, tt_error *err, uint64_t lineno)
{
    uint32_t run = st->cur_run;
    st->cur_run = TT_NONE;
    if (!st->in_block)
        return 0;
    st->in_block = 0;
    if (!st->keep)
        return 0;
    if (st->pend.len && push_frame(st, TT_NONE, NULL, 0)) /* no out-of-line frame after them */
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    size_t n = st->frames.len;
    if (!n) {
        if (st->comm_only) { /* a lone word is a header only when frames follow it */
            bad_line(st, st->hdr_snip, strlen(st->hdr_snip), st->hdr_line);
            return 0;
        }
        tt_stats_add(st->stats, "perf_empty_stack", st->file, TT_SEV_WARN, 1,
                     "a sample without frames was skipped");
        return 0;
    }
    if (n > TT_MAX_STACK_DEPTH) /* kept, truncated by block_callsite */
        tt__stack_truncated_note(st->stats, st->file, st->block_line, n);
    if (!st->want.data && tt_buf_put(&st->want, "", 0))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    tt_sample s;
    tt_sample_init(&s);
    tt__perf_hdr *h = &st->h;
    int rc = block_thread(st, &s.utid);
    if (!rc)
        rc = block_callsite(st, &s.callsite, run);
    if (rc)
        return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory");
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (h->pid >= 0 && h->pid == h->tid && (m->pid < 0 || m->pid == h->pid)) {
        if (tt_profile_meta_claim(st->p, st->o->source))
            return tt_error_set(err, TT_ENOMEM, st->file, TT_LOC_LINE, lineno, "out of memory");
        m->pid = h->pid;
        if (h->comm.n)
            m->process = tt_profile_str(st->p, h->comm.p, h->comm.n);
    }
    s.ts = s.end_ts = h->has_ts ? h->ts : 0;
    s.weight = h->has_period ? h->period : 1;
    if (s.weight > PERIOD_MAX) { /* the profile's weight limit: the sample stays, capped */
        char ex[200];
        if (h->period_over) /* perf's u64 ends at 2^64-1 */
            snprintf(ex, sizeof ex, "%s:%llu: period above 2^64-1 (perf's u64 maximum) "
                     "counted as 2^40", st->file, (unsigned long long)st->block_line);
        else
            snprintf(ex, sizeof ex, "%s:%llu: period %llu above 2^40 counted as 2^40",
                     st->file, (unsigned long long)st->block_line,
                     (unsigned long long)h->period_u);
        tt_stats_add(st->stats, "perf_period_capped", st->file, TT_SEV_WARN, 1, ex);
        s.weight = PERIOD_MAX;
    }
    st->with_period += h->has_period != 0;
    s.type = TT_ST_CPU;
    if (!h->has_ts) {
        if (!st->untimed++) {
            /* perf script -F without time: profiles, no timeline */
            tt_profile_meta_timeless(st->p, st->o->source);
            tt_stats_add(st->stats, "perf_no_timestamps", st->file, TT_SEV_INFO, 1,
                         "samples without the time field: flame graphs and profiles only, "
                         "no slices or Chrome JSON");
        }
    } else {
        st->timed++;
        while (st->last_ts.len <= s.utid) {
            int64_t z = INT64_MIN;
            if (!tt_vec_push(&st->last_ts, &z))
                return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        }
        int64_t *lt = &TT_VEC_AT(&st->last_ts, int64_t, s.utid);
        if (s.ts < *lt) {
            char ex[200];
            snprintf(ex, sizeof ex, "%s:%llu: a sample earlier than its thread's previous one "
                     "(time going backwards: perf script --deltatime or concatenated files?); "
                     "the thread's samples are read in time order", st->file,
                     (unsigned long long)st->block_line);
            tt_stats_add(st->stats, "perf_time_backwards", st->file, TT_SEV_WARN, 1, ex);
        }
        *lt = s.ts;
    }
    if ((rc = tt_profile_add(st->p, &s, NULL)) == TT_ELIMIT) {
        tt_stats_add(st->stats, "perf_out_of_range", st->file, TT_SEV_WARN, 1,
                     "a sample with a time beyond 2^62 ns was skipped");
        return 0;
    }
    if (rc)
        return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "cannot add sample");
    st->samples++;
    return 0;
}

/* Adds e to the ", "-separated list v unless it is in it or the list is long (> 200 bytes).
 * 1 when added. */
static int list_add(tt_buf *v, const char *e, size_t n)
{
    for (size_t i = 0; i < v->len;) {
        size_t j = i;
        while (j < v->len && v->data[j] != ',')
            j++;
        if (j - i == n && !memcmp(v->data + i, e, n))
            return 0;
        i = j + 2;
    }
    if (v->len > 200)
        return 0;
    if (v->len)
        tt_buf_puts(v, ", ");
    tt_buf_put(v, e, n);
    return 1;
}

static void note_variant(tt__perf_asm *st, const tt__perf_hdr *h)
{
    /* a spelling list of the kept event, e.g. "cycles:u, cycles:ppp" (short, checked once
     * per different spelling) */
    tt_buf *v = &st->variants;
    if (!list_add(v, h->event.p ? h->event.p : "", h->event.n))
        return;
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (v->data && (memchr(v->data, ',', v->len) || v->len != st->want.len))
        m->event_variants = tt_profile_str(st->p, v->data, v->len);
}

/* The events of the input, by key (tt__perf_event_key), in the order seen ("[none]" for headers
 * without one): what an --event that none of them is gets told. */
static void note_event(tt__perf_asm *st, const char *e, size_t n)
{
    char snip[64]; /* the list is told in a message: control characters escaped */
    tt__snippet(snip, sizeof snip, e, n);
    if (n)
        list_add(&st->events, snip, strlen(snip));
    else
        list_add(&st->events, "[none]", 6);
}

static int start_block(tt__perf_asm *st, const tt__perf_hdr *h, int kind, uint64_t lineno)
{
    st->tid_or_time |= h->has_ts || h->has_pid;
    st->h = *h;
    st->comm.len = 0;
    if (tt_buf_put(&st->comm, h->comm.p ? h->comm.p : "", h->comm.n))
        return TT_ENOMEM;
    st->h.comm.p = st->comm.data;
    st->in_block = 1;
    st->tracing_data = 0;
    st->block_line = lineno;
    st->have_frame = 0;
    st->frames.len = st->pend.len = st->pend_text.len = st->last_inl = 0;
    st->cur_run = TT_NONE;
    st->comm_only = h->comm_only;
    if (h->comm_only) {
        tt__snippet(st->hdr_snip, sizeof st->hdr_snip, h->comm.p, h->comm.n);
        st->hdr_line = lineno;
    }
    /* without a time or an event and with the frame on the line, every line is a sample */
    st->weak_inline = kind == TT_PERF_HDR_WEAK && h->inline_frame;
    if (kind == TT_PERF_HDR_WEAK && !h->comm.n && !h->has_pid && st->after_blank)
        st->weak_inline = 0; /* -F ip,sym with call graphs: an empty header line */
    st->oneline |= st->weak_inline;
    st->inline_only = 0;
    if (lineno == st->cut_line) {
        st->keep = 1; /* the last sample, partial: dropped with perf_truncated_input */
        return 0;
    }
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    const char *ev = h->event.p ? h->event.p : "";
    if (!st->want.data && h->comm_only) {
        st->keep = 1; /* a lone word decides nothing until frames follow it */
        return 0;
    }
    /* one profile per event as counted (2.2): "cycles:u" is not "cycles", "cycles:ppp" is */
    if (tt__perf_event_key(&st->evkey, ev, h->event.n))
        return TT_ENOMEM;
    if (!st->want.data) {
        int rc = st->o->event ? tt__perf_event_key(&st->want, st->o->event, strlen(st->o->event))
                              : tt_buf_put(&st->want, st->evkey.data, st->evkey.len);
        if (rc || !st->want.data)
            return TT_ENOMEM;
        if (st->want.len) /* perf script -F without event: no name */
            m->event = tt_profile_str(st->p, st->want.data, st->want.len);
    }
    const char *key = st->evkey.data;
    size_t keyn = st->evkey.len;
    st->keep = st->want.len == keyn && !memcmp(st->want.data, key, keyn);
    note_event(st, key, keyn);
    if (!st->keep) {
        char ex[400], snip[64], want[64];
        tt__snippet(snip, sizeof snip, ev, h->event.n);
        tt__snippet(want, sizeof want, st->want.data, st->want.len);
        snprintf(ex, sizeof ex, "%s:%llu: event \"%s\" skipped (keeping \"%s\"; pick one with "
                 "--event)", st->file, (unsigned long long)lineno, snip, want);
        tt_stats_add(st->stats, "perf_other_event", st->file, TT_SEV_WARN, 1, ex);
        return 0;
    }
    st->kept_any = 1;
    note_variant(st, h);
    if (h->has_ts) {
        if (st->first_frac < 0)
            st->first_frac = h->frac_digits;
        else if (st->first_frac != h->frac_digits && !m->ambiguous_ts) {
            char ex[300];
            m->ambiguous_ts = 1;
            snprintf(ex, sizeof ex, "%s:%llu: timestamp %.*s has %d fraction digits, the first "
                     "one %d (old report_sample.py without zero padding): the input is read "
                     "without times (no slices); aggregates stay valid", st->file,
                     (unsigned long long)lineno, (int)(h->time.n > 40 ? 40 : h->time.n),
                     h->time.p, h->frac_digits, st->first_frac);
            tt_stats_add(st->stats, "perf_ambiguous_timestamps", st->file, TT_SEV_WARN, 1, ex);
        }
    }
    /* no call graph: the frame is on the header line */
    if (h->inline_frame) {
        st->inline_only = kind == TT_PERF_HDR_STRONG;
        return add_frame(st, h->rest.p, tt__perf_inline_len(h->rest.p, h->rest.n));
    }
    return 0;
}

static void bad_line(tt__perf_asm *st, const char *s, size_t n, uint64_t lineno)
{
    char snip[64];
    tt__snippet(snip, sizeof snip, s, n);
    if (!st->bad_lines++) {
        st->bad_first = lineno;
        snprintf(st->bad_example, sizeof st->bad_example, "%s", snip);
    }
    char ex[200];
    snprintf(ex, sizeof ex, "%s:%llu: not a sample header (no <sec>.<frac>: timestamp, "
             "<tid> or <event>:): %s", st->file, (unsigned long long)lineno, snip);
    tt_stats_add(st->stats, "perf_unparsable_line", st->file, TT_SEV_WARN, 1, ex);
}

static void not_a_frame(tt__perf_asm *st, const char *s, size_t n, uint64_t lineno)
{
    char snip[64], ex[200];
    tt__snippet(snip, sizeof snip, s, n);
    snprintf(ex, sizeof ex, "%s:%llu: a line inside a stack that is no frame was skipped: %s",
             st->file, (unsigned long long)lineno, snip);
    tt_stats_add(st->stats, "perf_not_a_frame", st->file, TT_SEV_WARN, 1, ex);
}

/* "PERF_RECORD_FORK(<pid>:<tid>):(<ppid>:<ptid>)" (perf script --show-task-events): the new
 * thread's pid and tid. */
static int fork_record(const char *line, size_t n, int64_t *pid, int64_t *tid)
{
    static const char tag[] = "PERF_RECORD_FORK(";
    const char *r = tt__memmem(line, n, tag, sizeof tag - 1);
    if (!r)
        return 0;
    size_t i = (size_t)(r - line) + sizeof tag - 1, a = i;
    while (i < n && line[i] >= '0' && line[i] <= '9')
        i++;
    size_t c = i++, b = i;
    while (i < n && line[i] >= '0' && line[i] <= '9')
        i++;
    uint64_t p, t;
    if (c >= n || line[c] != ':' || i >= n || line[i] != ')' || tt__parse_u64(line + a, c - a, &p) ||
        tt__parse_u64(line + b, i - b, &t) || p > INT64_MAX || t > INT64_MAX)
        return 0;
    *pid = (int64_t)p;
    *tid = (int64_t)t;
    return 1;
}

static int sideband(tt__perf_asm *st, const char *line, size_t n, uint64_t lineno, tt_error *err)
{
    tt_perf_mmap mm;
    if (tt_perf_mmap_parse(&mm, line, n) == 0) {
        int rc = tt_perf_maps_add(st->maps, &mm);
        if (rc)
            return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno,
                                rc == TT_ELIMIT ? "too many memory maps" : "out of memory");
        st->have_maps = 1;
        tt_stats_add(st->stats, "perf_mmap_records", st->file, TT_SEV_INFO, 1, NULL);
        return 0;
    }
    int64_t pid, tid;
    if (fork_record(line, n, &pid, &tid) && retire_tid(st, pid, tid))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    tt_stats_add(st->stats, "perf_sideband_records", st->file, TT_SEV_INFO, 1, NULL);
    return 0;
}

/* A sample header with a time or a tid (as tt__perf_stdout_line sees one), not a frame line:
 * where a sample starts even after a line that is none. */
static int header_line(tt__perf_asm *st, const char *line, size_t n)
{
    const char *s;
    size_t sn;
    if (!n || line[0] == '\t' || tt__perf_blank(&st->line, line, n, &s, &sn) ||
        tt__perf_frame_text(s, sn))
        return 0;
    tt__perf_hdr h;
    return tt__perf_hdr_parse(&h, s, sn, &st->lay) != TT_PERF_HDR_BAD && (h.has_ts || h.has_pid);
}

/* One line inside a block: a frame, a srcline, the next header, or something skipped.
 * 1 when the block ended and the line must be read as a header. tab: the line was
 * tab-indented (a call-chain line). */
static int block_line(tt__perf_asm *st, const char *line, size_t n, const char *s, size_t sn,
                      int tab, uint64_t lineno, tt_error *err)
{
    if (st->tracing_data) /* its "<field> : <value>" lines ("fd : 3") up to the blank line */
        return !tab && header_line(st, line, n);
    if (sn == 13 && !memcmp(s, "tracing data:", 13)) {
        st->tracing_data = 1; /* simpleperf report_sample.py --show_tracing_data */
        return 0;
    }
    int addr = tt__perf_addr_first(s, sn); /* a srcline never starts with hex digits alone */
    int sl = !addr && (st->have_frame || !st->keep) ? srcline(st, s, sn) : 0;
    if (sl < 0)
        return tt_error_set(err, sl, st->file, TT_LOC_LINE, lineno, "out of memory");
    if (sl)
        return 0;
    if (tt__perf_colon_blank(s, sn)) {
        tt__perf_hdr h;
        if (tt__memmem(line, n, "PERF_RECORD_", 12))
            return 1;
        if (sn > 5 && !memcmp(s, "insn:", 5))
            return 0; /* -F +insn: the instruction bytes after a call chain */
        if (tt__perf_hdr_parse(&h, s, sn, &st->lay) == TT_PERF_HDR_STRONG &&
            (h.has_ts || h.has_pid ||
             (!st->tid_or_time && (h.comm.n || !(st->h.has_ts || st->h.has_pid || st->h.comm.n)))))
            return 1; /* a lone "word:" is a header only in files whose headers are that;
                       * "tracing data:" none in files whose headers have a tid or time */
    }
    if (st->weak_inline)
        return 1; /* the next one-line sample */
    if (st->oneline && !tab && !st->have_frame) {
        /* a header without a frame in a file of one-line samples, then a line that is one
         * ("cc1plus  733384" of -F comm,ip): perf's call chains are tab-indented, this is none */
        tt__perf_hdr h;
        if (tt__perf_hdr_parse(&h, s, sn, &st->lay) == TT_PERF_HDR_WEAK && h.inline_frame)
            return 1;
    }
    if (!addr && (line[0] != ' ' || st->addr_frames == 1 || !st->keep)) {
        if (st->comm_only && !st->have_frame) {
            /* the lone word before was no header either */
            st->in_block = 0;
            bad_line(st, st->hdr_snip, strlen(st->hdr_snip), st->hdr_line);
            return 2;
        }
        if (st->keep)
            not_a_frame(st, s, sn, lineno);
        return 0;
    }
    if (st->addr_frames < 0)
        st->addr_frames = addr;
    if (!st->keep)
        return 0;
    if (st->inline_only) {
        /* perf prints the ip on the header line or a call chain below it, never both: the
         * header's hex field was another one (-F +addr) */
        st->frames.len = st->pend.len = st->pend_text.len = st->last_inl = 0;
        st->inline_only = 0;
    }
    int rc = add_frame(st, s, sn);
    return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory") : 0;
}

/* The header at line when it is the last one kept (keep_header) at another time: st->hlast is
 * then it, with that time. */
static int same_header(tt__perf_asm *st, const char *line, size_t n)
{
    size_t a = st->htime_off, b = a + st->htime_n;
    if (!st->hvalid || n != st->hline.len || memcmp(line, st->hline.data, a) ||
        memcmp(line + b, st->hline.data + b, n - b))
        return 0;
    int64_t ts;
    int frac;
    if (tt_perf_parse_ts(line + a, b - a, &ts, &frac))
        return 0;
    st->hlast.ts = ts; /* the same number of digits: the same fraction length */
    return 1;
}

/* Keeps a header with a time and nothing after its event: line its raw text, time_off where
 * the time is in it. */
static int keep_header(tt__perf_asm *st, const tt__perf_hdr *h, const char *line, size_t n,
                       size_t time_off)
{
    st->hvalid = 0;
    st->hline.len = st->hcomm.len = st->hevent.len = 0;
    if (tt_buf_put(&st->hline, line, n) || tt_buf_put(&st->hcomm, h->comm.p, h->comm.n) ||
        tt_buf_put(&st->hevent, h->event.p, h->event.n))
        return TT_ENOMEM;
    st->hlast = *h;
    st->hlast.comm.p = st->hcomm.data;
    st->hlast.event.p = st->hevent.data;
    st->hlast.time.p = NULL;
    st->htime_off = time_off;
    st->htime_n = h->time.n;
    st->hvalid = 1;
    return 0;
}

/* A line of the file's stdout as perf writes it: a sample header (a time or a tid) or a frame
 * line of a call chain (tab-indented), or a side-band record. */
static int sample_line(tt__perf_asm *st, const char *line, size_t n)
{
    const char *s;
    size_t sn;
    if (tt__perf_blank(&st->line, line, n, &s, &sn))
        return 0;
    return tt__perf_stdout_line(line, s, sn, &st->lay);
}

/* The text before a warning that started inside a line, then line: the line perf wrote around
 * the warning, in st->warn_join. */
static int warn_joined(tt__perf_asm *st, const char *line, size_t n)
{
    st->warn_join.len = 0;
    return tt_buf_put(&st->warn_join, st->warn_hold.data, st->warn.pre) ||
           tt_buf_put(&st->warn_join, line, n) || !st->warn_join.data;
}

/* tt__perf_warn_sample of the reader. */
static int warn_sample(void *ctx, const char *line, size_t n, int joined)
{
    tt__perf_asm *st = ctx;
    if (!joined)
        return sample_line(st, line, n);
    return !warn_joined(st, line, n) && sample_line(st, st->warn_join.data, st->warn_join.len);
}

/* Counts the warning whose message starts with line s. */
static void warn_count(tt__perf_asm *st, const char *s, size_t sn)
{
    char snip[64], ex[200];
    tt__trim(&s, &sn);
    tt__snippet(snip, sizeof snip, s, sn);
    snprintf(ex, sizeof ex, "%s:%llu: perf's own warning (its stderr, in the text by 2>&1) "
             "skipped: %s", st->file, (unsigned long long)st->warn_line,
             sn ? snip : "a lone \"Warning:\" (its message not in the text)");
    tt_stats_add(st->stats, "perf_stderr_warning", st->file, TT_SEV_WARN, 1, ex);
}

/* A line ending in "Warning:" (tt__perf_warn_start): held until the line after it says
 * whether a warning starts there. 1 when held. */
static int warning_start(tt__perf_asm *st, const char *line, size_t n, uint64_t lineno)
{
    tt__perf_warn w;
    if (!tt__perf_warn_start(&w, line, n))
        return 0;
    st->warn_hold.len = 0;
    if (tt_buf_put(&st->warn_hold, line, n) || !st->warn_hold.data)
        return 0; /* out of memory: read as any line */
    st->warn = w;
    st->warn_line = st->warn_pre_line = lineno;
    return 1;
}

/* A line while perf's warning may be read (tt__perf_warn_step, as the layout scan reads it):
 * 1 when it is part of it; 0 when the warning ended before it (the text before the warning,
 * st->warn.pre, is then joined with it); 2 when the held line was no warning (read it, then
 * line). */
static int warning_line(tt__perf_asm *st, const char *line, size_t n, uint64_t lineno)
{
    switch (tt__perf_warn_step(&st->warn, line, n, st->tid_or_time, warn_sample, st)) {
    case TT__PERF_WARN_NOT:
        return 2;
    case TT__PERF_WARN_LONE:
        warn_count(st, "", 0);
        return 0;
    case TT__PERF_WARN_MSG:
        warn_count(st, line, n);
        return 1;
    case TT__PERF_WARN_HEAD:
        st->warn_line = lineno;
        return 1;
    case TT__PERF_WARN_IN:
        return 1;
    default:
        return 0;
    }
}

static int asm_line(tt__perf_asm *st, const char *line, size_t n, uint64_t lineno, tt_error *err);

int tt__perf_asm_line(tt__perf_asm *st, const char *line, size_t n, uint64_t lineno, tt_error *err)
{
    if (st->warn.state) {
        int w = warning_line(st, line, n, lineno);
        if (w == 1)
            return 0;
        if (w == 2) { /* the held line was no warning's start: read it, then this one */
            tt_buf *h = &st->warn_join;
            h->len = 0;
            if (tt_buf_put(h, st->warn_hold.data, st->warn_hold.len) || !h->data)
                return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
            st->warn.pre = 0;
            int rc = asm_line(st, h->data, h->len, st->warn_pre_line, err);
            if (rc)
                return rc;
        } else if (st->warn.pre) { /* the line perf's warning was written into: whole again */
            if (warn_joined(st, line, n))
                return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
            st->warn.pre = 0;
            return tt__perf_asm_line(st, st->warn_join.data, st->warn_join.len,
                                     st->warn_pre_line, err);
        }
    }
    if (warning_start(st, line, n, lineno))
        return 0;
    return asm_line(st, line, n, lineno, err);
}

static int asm_line(tt__perf_asm *st, const char *line, size_t n, uint64_t lineno, tt_error *err)
{
    if (tt__perf_srccode_line(line, n))
        return 0; /* -F +srccode: the source line, after a sample or between two */
    if (st->skipping && header_line(st, line, n))
        st->skipping = 0; /* a sample after a line that was none: read it */
    if (!st->in_block && !st->skipping && same_header(st, line, n)) {
        int rc = start_block(st, &st->hlast, TT_PERF_HDR_STRONG, lineno);
        st->after_blank = 0;
        return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory") : 0;
    }
    const char *raw = line;
    int tab = n && line[0] == '\t'; /* perf's call chain lines, never a header */
    const char *s;
    size_t sn;
    if (tt__perf_blank(&st->line, line, n, &s, &sn))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    line = st->line.data;
    if (!sn) {
        st->skipping = st->tracing_data = 0;
        st->after_blank = 1;
        st->have_frame = 0;
        return finish_block(st, err, lineno);
    }
    if (st->skipping)
        return 0;
    if (st->in_block) {
        int rc = block_line(st, line, n, s, sn, tab, lineno, err);
        if (rc == 2) {
            st->skipping = 1;
            return 0;
        }
        if (rc <= 0)
            return rc;
        if ((rc = finish_block(st, err, lineno)))
            return rc;
    }
    int after_blank = st->after_blank;
    st->after_blank = 0;
    if (s[0] == '#')
        return 0;
    if (tt__memmem(line, n, "PERF_RECORD_", 12))
        return sideband(st, line, n, lineno, err);
    if (sn == 7 && !memcmp(s, "sample:", 7))
        st->report_sample = 1;
    tt__perf_hdr h;
    if (lineno == st->cut_line) {
        /* the input ends inside this header: its fields are partial, so it names no event
         * and fits or breaks no layout; it stands for the last sample, which
         * perf_truncated_input reports dropped (tt__perf_asm_end) */
        memset(&h, 0, sizeof h);
        h.pid = h.tid = h.cpu = -1;
        int rc = start_block(st, &h, TT_PERF_HDR_WEAK, lineno);
        return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory") : 0;
    }
    int kind = tt__perf_hdr_parse(&h, s, sn, &st->lay);
    if (tab && kind != TT_PERF_HDR_STRONG && tt__perf_addr_first(s, sn)) {
        memset(&h, 0, sizeof h); /* frames after an empty header line (-F ip,sym) */
        h.pid = h.tid = h.cpu = -1;
        h.rest.p = s;
        h.rest.n = sn;
        h.inline_frame = 1;
        kind = TT_PERF_HDR_WEAK;
    }
    if (kind == TT_PERF_HDR_STRONG && !h.has_ts && !h.has_pid && st->tid_or_time)
        kind = TT_PERF_HDR_BAD; /* "Warning:" (perf's stderr) in a file of tids or times */
    if (kind == TT_PERF_HDR_BAD) {
        bad_line(st, s, sn, lineno);
        st->skipping = 1;
        return 0;
    }
    st->after_blank = after_blank;
    if (h.layout_miss) {
        char ex[400], snip[64];
        tt__snippet(snip, sizeof snip, s, sn);
        snprintf(ex, sizeof ex, "%s:%llu: a sample header that does not fit the layout of the "
                 "file's first headers (%d number%s before the time or event), read by its own "
                 "shape: \"%s\"", st->file, (unsigned long long)lineno,
                 st->lay.tail, st->lay.tail == 1 ? "" : "s",
                 snip);
        tt_stats_add(st->stats, "perf_layout_mismatch", st->file, TT_SEV_WARN, 1, ex);
    }
    if (kind == TT_PERF_HDR_STRONG && h.has_ts && !h.rest.n &&
        keep_header(st, &h, raw, n, (size_t)(h.time.p - line)))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    int rc = start_block(st, &h, kind, lineno);
    st->after_blank = 0;
    return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory") : 0;
}


int tt__perf_asm_frame(tt__perf_asm *st, const char *line, size_t n, uint32_t *fid, int *mapdep,
                       uint64_t lineno, tt_error *err)
{
    *mapdep = 0;
    if (st->addr_frames < 0)
        st->addr_frames = 1;
    if (!st->keep)
        return 0;
    if (st->inline_only) {
        st->frames.len = st->pend.len = st->pend_text.len = st->last_inl = 0;
        st->inline_only = 0;
    }
    st->pf = line;
    st->pfn = n;
    uint32_t id = *fid;
    if (id == TT_NONE) {
        const char *s;
        size_t sn;
        int rc = tt__perf_blank(&st->line, line, n, &s, &sn);
        if (!rc && inlined_line(s, sn)) {
            *mapdep = 1; /* its frame depends on the line after it: never cached */
            rc = pend_inlined(st, s, sn);
            return rc ? tt_error_set(err, rc, st->file, 0, 0, "out of memory") : 0;
        }
        if (!rc)
            rc = frame_id(st, s, sn, &id, mapdep, NULL);
        if (rc)
            return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory");
        if (!*mapdep || !st->have_maps)
            *fid = id;
    }
    st->have_frame = 1;
    st->cur_run = TT_NONE;
    const char *s = NULL;
    size_t sn = 0;
    if (st->pend.len && tt__perf_blank(&st->line, line, n, &s, &sn))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    if (push_frame(st, id, s, sn))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    return 0;
}

int tt__perf_asm_init(tt__perf_asm *st, tt_profile *p, const tt_import_opts *o, tt_stats *stats,
                      const char *file)
{
    memset(st, 0, sizeof *st);
    st->p = p;
    st->o = o;
    st->stats = stats;
    st->file = file;
    st->base = tt_profile_nsamples(p);
    st->first_frac = -1;
    st->addr_frames = -1;
    st->lay.tail = -1;
    st->last_utid = TT_NONE;
    st->cur_run = TT_NONE;
    tt_vec_init(&st->run_leaf, sizeof(uint32_t));
    tt_vec_init(&st->frames, sizeof(uint32_t));
    tt_vec_init(&st->pend, sizeof(tt__perf_inl));
    tt_vec_init(&st->unused, 1);
    tt_vec_init(&st->last_ts, sizeof(int64_t));
    tt_vec_init(&st->tutid, sizeof(uint32_t));
    tt_vec_init(&st->claimed, 1);
    st->tkeys = tt_intern_new();
    st->cs = calloc(1, sizeof *st->cs);
    if (!st->tkeys || !st->cs || tt_perf_maps_new(&st->maps))
        return TT_ENOMEM;
    tt_profile_meta_get(p)->source_format = "perf_script";
    return 0;
}

/* Times of varying precision (2.2, old report_sample.py): "12.5678" may be 12.005678 s, so
 * the order and gaps of samples are unknown; the samples are read without times, in input
 * order, as from perf script without the time field. */
static void drop_times(tt__perf_asm *st)
{
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (!m->ambiguous_ts)
        return;
    tt_profile_meta_timeless(st->p, st->o->source);
    for (size_t i = st->base, n = tt_profile_nsamples(st->p); i < n; i++) {
        tt_sample *s = tt_profile_sample(st->p, (uint32_t)i);
        s->ts = s->end_ts = 0;
    }
}

int tt__perf_asm_end(tt__perf_asm *st, uint64_t lineno, tt_error *err)
{
    int cut_partial = 0, rc = 0;
    if (st->warn.state == 1 && !st->warn.pre && st->tid_or_time) {
        warn_count(st, "", 0); /* a last "Warning:" line */
    } else if (st->warn.state == 1 || st->warn.pre) {
        /* a last line ending in "Warning:" that is none, or the text before a warning that
         * the input ends in: read as it is */
        size_t len = st->warn.state == 1 ? st->warn_hold.len : st->warn.pre;
        st->warn_join.len = 0;
        if (tt_buf_put(&st->warn_join, st->warn_hold.data, len) || !st->warn_join.data)
            return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        memset(&st->warn, 0, sizeof st->warn);
        rc = asm_line(st, st->warn_join.data, len, st->warn_pre_line, err);
        if (rc)
            return rc;
    }
    st->warn.state = 0;
    if (st->cut_line) {
        /* perf ends every line, and a sample with a blank line: a last line without a
         * newline is a file cut (a copy or a recording interrupted), its sample partial */
        char ex[240];
        int partial = st->in_block && st->keep && !st->skipping;
        snprintf(ex, sizeof ex, "%s:%llu: the input ends inside a line (no newline): cut "
                 "short%s", st->file, (unsigned long long)st->cut_line,
                 partial ? "; its last sample, partial, was dropped" : "");
        if (partial)
            snprintf(ex + strlen(ex), sizeof ex - strlen(ex), " (line %llu)",
                     (unsigned long long)st->block_line);
        tt_stats_add(st->stats, "perf_truncated_input", st->file, TT_SEV_WARN, 1, ex);
        if (partial) {
            st->in_block = 0;
            for (size_t i = 0; i < st->frames.len && !rc; i++)
                rc = maybe_unused(st, TT_VEC_AT(&st->frames, uint32_t, i));
            for (size_t i = 0; i < st->pend.len && !rc; i++) {
                uint32_t fid = TT_VEC_AT(&st->pend, tt__perf_inl, i).fid;
                if (fid != TT_NONE)
                    rc = maybe_unused(st, fid);
            }
        }
        cut_partial = partial;
    }
    if (rc)
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    rc = finish_block(st, err, lineno);
    if (!rc)
        drop_times(st);
    if (!rc && st->unused.len && tt__profile_drop_frames(st->p, st->unused.data, st->unused.len))
        rc = tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    if (!rc && st->timed && st->untimed) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s: %llu of %llu samples have no time field: the input is read "
                 "without times (no slices)", st->file, (unsigned long long)st->untimed,
                 (unsigned long long)(st->timed + st->untimed));
        tt_stats_add(st->stats, "perf_some_timestamps", st->file, TT_SEV_WARN,
                     (int64_t)st->untimed, ex);
    }
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (!rc && st->samples) /* every sample with a period: the default weight (2.2) */
        m->periods = st->with_period == st->samples && m->periods >= 0 ? 1 : -1;
    if (!rc && st->samples == 0) {
        if (st->o->event && st->events.len && !st->kept_any)
            rc = tt_error_set(err, TT_ENOTFOUND, st->file, 0, 0,
                              "no sample of event \"%s\" (--event): the input's events are %.*s%s",
                              st->o->event, (int)st->events.len, st->events.data,
                              strcmp(st->events.data, "[none]") ? ""
                              : " (perf script -F without event)");
        else if (st->report_sample)
            rc = tt_error_set(err, TT_EFORMAT, st->file, 0, 0, TT__SIMPLEPERF_REPORT_SAMPLE_MSG);
        else if (st->bad_lines)
            rc = tt_error_set(err, TT_EFORMAT, st->file, TT_LOC_LINE, st->bad_first,
                              "not perf script output: expected a sample header "
                              "\"<comm> <pid>/<tid> <sec>.<frac>: <period> <event>:\", found "
                              "\"%s\"", st->bad_example);
        else if (st->cut_line) /* the warning is not shown with an error: said here */
            rc = tt_error_set(err, TT_EFORMAT, st->file, TT_LOC_LINE, st->cut_line,
                              "no samples with frames in perf script output; "
                              "perf_truncated_input: the input ends inside line %llu (no "
                              "newline): cut short%s",
                              (unsigned long long)st->cut_line,
                              cut_partial ? ", its last sample, partial, was dropped" : "");
        else
            rc = tt_error_set(err, TT_EFORMAT, st->file, 0, 0,
                              "no samples with frames in perf script output");
    }
    return rc;
}

void tt__perf_asm_free(tt__perf_asm *st)
{
    tt_vec_free(&st->frames);
    tt_vec_free(&st->pend);
    tt_vec_free(&st->unused);
    tt_buf_free(&st->pend_text);
    tt_vec_free(&st->run_leaf);
    tt_vec_free(&st->last_ts);
    tt_vec_free(&st->tutid);
    tt_vec_free(&st->claimed);
    free(st->cs);
    tt_intern_free(st->tkeys);
    tt_perf_maps_free(st->maps);
    tt_buf_free(&st->line);
    tt_buf_free(&st->name);
    tt_buf_free(&st->comm);
    tt_buf_free(&st->key);
    tt_buf_free(&st->last_comm);
    tt_buf_free(&st->want);
    tt_buf_free(&st->evkey);
    tt_buf_free(&st->variants);
    tt_buf_free(&st->events);
    tt_buf_free(&st->hline);
    tt_buf_free(&st->hcomm);
    tt_buf_free(&st->hevent);
    tt_buf_free(&st->pf_buf);
    tt_buf_free(&st->warn_hold);
    tt_buf_free(&st->warn_join);
}
