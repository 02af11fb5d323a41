/* Loading mappings for commands: methodMapping.txt or ignoreMethodMapping.txt detected by
 * content (-m, repeatable) and an optional ProGuard/R8 retrace (--proguard). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_load.h"

int cli_load_mapping_input(tt_mapping *m, tt_input *in, tt_stats *stats)
{
    tt_error err = {0};
    const unsigned char *p;
    size_t pn;
    int rc = tt_input_peek(in, &p, &pn, 4096, &err);
    if (!rc) {
        if (tt_mapping_looks_ignore((const char *)p, pn))
            rc = tt_mapping_load_ignore(m, in, &err);
        else
            rc = tt_mapping_load(m, in, stats, &err);
    }
    return rc ? cli_err(&err) : 0;
}

int cli_retrace_mapping(tt_mapping *m, const tt_proguard *pg, const char *path,
                        tt_stats *stats)
{
    size_t amb = 0;
    if (tt_mapping_retrace(m, pg, &amb)) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (amb)
        tt_stats_add(stats, "retrace_ambiguous", path, TT_SEV_WARN, (int64_t)amb, NULL);
    return 0;
}

int cli_load_mappings(tt_mapping **out, char **paths, size_t n, const char *proguard,
                      tt_stats *stats)
{
    *out = NULL;
    if (n == 0 && !proguard)
        return 0;
    tt_mapping *m = tt_mapping_new();
    if (!m) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    tt_error err = {0};
    for (size_t i = 0; i < n; i++) {
        tt_input *in;
        if (cli_input_path(paths[i])) {
            tt_mapping_free(m);
            return CLI_BAD;
        }
        if (cli_input_open(&in, paths[i], 0, &err)) {
            tt_mapping_free(m);
            return cli_err(&err);
        }
        int rc = cli_load_mapping_input(m, in, stats);
        tt_input_close(in);
        if (rc) {
            tt_mapping_free(m);
            return rc;
        }
    }
    if (proguard) {
        tt_proguard *pg;
        int rc = cli_load_proguard(&pg, proguard, NULL);
        if (!rc)
            rc = cli_retrace_mapping(m, pg, proguard, stats);
        tt_proguard_free(pg);
        if (rc) {
            tt_mapping_free(m);
            return rc;
        }
    }
    *out = m;
    return 0;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

void cli_check_ids(const tt_mapping *m, const tt_mitem *items, size_t n, const char *what,
                   tt_stats *stats)
{
    if (!m || tt_mapping_count(m) == 0)
        return;
    size_t lines = 0;
    uint32_t maxid = 0, first = 0;
    uint32_t *ids = NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t id = (uint32_t)items[i].id;
        if (id != TT_BEAT_DISPATCH && id > maxid)
            maxid = id;
        if (tt_mapping_get(m, id))
            continue;
        if (!lines) {
            first = id;
            ids = malloc((n - i) * sizeof *ids);
        }
        if (ids)
            ids[lines] = id;
        lines++;
    }
    if (!lines)
        return;
    /* 4.7: the count is of distinct ids (one unknown method called often is one id) */
    size_t distinct = lines;
    if (ids) {
        qsort(ids, lines, sizeof *ids, cmp_u32);
        distinct = 1;
        for (size_t i = 1; i < lines; i++)
            distinct += ids[i] != ids[i - 1];
        free(ids);
    }
    char ex[300];
    snprintf(ex, sizeof ex,
             "%s: %zu distinct id%s missing from the mapping (first <unknown id %u>, on %zu stack "
             "line%s; largest id %u, the mapping's %u): the mapping probably belongs to another "
             "build",
             what, distinct, distinct == 1 ? "" : "s", first, lines, lines == 1 ? "" : "s",
             maxid, tt_mapping_max_id(m));
    tt_stats_add(stats, "unknown_method_id", what, TT_SEV_WARN, (int64_t)distinct, ex);
}

int cli_load_proguard(tt_proguard **out, const char *path, char sha[65])
{
    *out = NULL;
    if (!path)
        return 0;
    tt_error err = {0};
    tt_input *in;
    if (cli_input_path(path))
        return CLI_BAD;
    if (cli_input_open(&in, path, 0, &err))
        return cli_err(&err);
    int rc = sha ? tt_input_hash_begin(in, &err) : 0;
    if (!rc)
        rc = tt_proguard_load(out, in, &err);
    if (!rc && sha)
        rc = tt_input_hash_end(in, sha, NULL, &err);
    tt_input_close(in);
    if (rc) {
        tt_proguard_free(*out);
        *out = NULL;
        return cli_err(&err);
    }
    return 0;
}

const char *cli_beat_empty_reason(int r)
{
    switch (r) {
    case TT_EMPTY_NO_RECORDS: return "no method completed in the slice";
    case TT_EMPTY_NEGATIVE: return "a negative duration discards the whole slice (Matrix rule)";
    case TT_EMPTY_FIRST_DEPTH:
        return "the newest completion is not an outermost method (Matrix's "
               "\"first node depth != 0\" rule)";
    default: return "";
    }
}
