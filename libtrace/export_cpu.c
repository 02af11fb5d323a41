/* The thread CPU clock check of --weight cpu (spec/samples.md 7.2), shared by export and the
 * samples and flamegraph commands: weights of a clock the samples lack would all be 0. */
#include "tt.h"

#include <stdlib.h>

#include "tt_int.h"

int tt_export_cpu_check(tt_profile *p, const tt_export_opts *o, tt_error *err)
{
    size_t nt = tt_profile_nthreads(p), ng = o->inputs ? o->n_inputs + 1 : 1;
    /* per thread and per input: bit 1 a sample of a selected thread, bit 2 one with a CPU
     * time; bit 4 marks the selected threads */
    unsigned char *seen = calloc(nt + ng, 1), *grp = seen ? seen + nt : NULL;
    if (!seen)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t t = 0; t < nt; t++)
        seen[t] = tt__export_wants(o, (uint32_t)t) ? 4 : 0;
    const tt_sample *s = p->samples.data;
    for (size_t i = 0; i < p->samples.len; i++)
        if (s[i].utid < nt && (seen[s[i].utid] & 4))
            seen[s[i].utid] |= s[i].cpu >= 0 ? 3 : 1;
    for (size_t t = 0; t < nt; t++) {
        uint32_t src = tt_profile_thread(p, (uint32_t)t)->source;
        grp[o->inputs && src < o->n_inputs ? src : ng - 1] |= seen[t] & 3;
    }
    size_t bad_t = nt, bad_g = ng; /* under --thread a thread, else an input */
    for (size_t t = 0; t < nt && o->n_threads && bad_t == nt; t++)
        if ((seen[t] & 3) == 1)
            bad_t = t;
    for (size_t g = 0; g < ng && !o->n_threads && bad_g == ng; g++)
        if (grp[g] == 1)
            bad_g = g;
    free(seen);
    if (bad_g == ng && bad_t == nt)
        return 0;
    const tt_thread *th = bad_t < nt ? tt_profile_thread(p, (uint32_t)bad_t) : NULL;
    size_t g = th ? (o->inputs && th->source < o->n_inputs ? th->source : ng - 1) : bad_g;
    const tt_export_input *in = o->inputs && g < o->n_inputs ? &o->inputs[g] : NULL;
    const char *fmt = in ? in->format : p->meta.source_format;
    tt_buf who = {0};
    if (th && (tt_buf_puts(&who, " of thread ") || tt_thread_format(&who, p, th->utid))) {
        tt_buf_free(&who);
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    }
    tt_error_set(err, TT_EUNSUPPORTED, in ? in->name : NULL, 0, 0,
                 "--weight cpu: the samples%s carry no thread CPU clock (%s): use --weight "
                 "wall or samples",
                 who.data ? who.data : "", fmt ? fmt : "unknown");
    tt_buf_free(&who);
    return TT_EUNSUPPORTED;
}
