/* Shared helpers for the Check unit tests: one suite per module, default fork mode. */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../libtrace/tt.h"

#define UNIT_MAIN(suite_fn)                                                                  \
    int main(void)                                                                           \
    {                                                                                        \
        SRunner *sr = srunner_create(suite_fn());                                            \
        const char *tap = getenv("CK_TAP_LOG_FILE_NAME");                                    \
        if (tap)                                                                             \
            srunner_set_tap(sr, tap);                                                        \
        srunner_run_all(sr, CK_NORMAL);                                                      \
        int failed = srunner_ntests_failed(sr);                                              \
        srunner_free(sr);                                                                    \
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;                                         \
    }

/* Opens a memory input over a string. */
static inline tt_input *unit_mem(const char *name, const char *s, size_t n)
{
    tt_input *in = NULL;
    tt_error err;
    ck_assert_int_eq(tt_input_open_mem(&in, name, s, n, &err), 0);
    return in;
}

/* Parses "I(D,0) O(1,10) ..." into records (D = 1048574). */
static inline size_t unit_recs(const char *s, uint64_t *out, size_t cap)
{
    size_t n = 0;
    while (*s) {
        if (*s == 'I' || *s == 'O') {
            int entry = *s == 'I';
            s += 2;
            uint32_t id;
            if (*s == 'D') {
                id = TT_BEAT_DISPATCH;
                s++;
            } else {
                id = (uint32_t)strtoul(s, (char **)&s, 10);
            }
            s++; /* , */
            long long t = strtoll(s, (char **)&s, 10);
            s++; /* ) */
            ck_assert_uint_lt(n, cap);
            out[n++] = tt_beat_encode(entry, id, t);
        } else {
            s++;
        }
    }
    return n;
}

/* The PID of a child that has exited and been reaped: no live process (as a killed run's). */
static inline long unit_dead_pid(void)
{
    pid_t p = fork();
    if (!p)
        _exit(0);
    ck_assert_int_gt(p, 0);
    ck_assert_int_eq(waitpid(p, NULL, 0), p);
    return (long)p;
}

#endif
