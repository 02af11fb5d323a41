/* The kinds of the startup event stream (startup.md 4.2): their names and the detection of
 * a stream by its first line's kind, shared by the reader, the native stack and detect.c. */
#include "tt.h"

#include <string.h>

#include "tt_int.h"

static const char *const kind_names[TT_SU_NKINDS] = {
    "launch_intent", "process_start", "first_method", "bind_application_begin",
    "bind_application_end", "app_create_end", "activity_create", "activity_start",
    "activity_resume", "activity_stop", "activity_destroy", "window_focus", "first_frame",
    "fully_drawn", "time_base",
};

const char *tt_su_kind_name(int kind)
{
    return kind >= 0 && kind < TT_SU_NKINDS ? kind_names[kind] : NULL;
}

/* The first line is an event object whose "kind" is one of the event kinds (startup.md 4.2),
 * or any string with an event's time (ts_ms or ts_ns): a mistyped kind on line 1 is then
 * the reader's error naming the line, not an unknown input. */
int tt__looks_startup_events(const char *p, size_t n)
{
    const char *e = memchr(p, '\n', n);
    size_t ln = e ? (size_t)(e - p) : n;
    const char *k = tt__memmem(p, ln, "\"kind\"", 6);
    if (!k)
        return 0;
    size_t i = (size_t)(k - p) + 6;
    while (i < ln && (p[i] == ' ' || p[i] == '\t'))
        i++;
    if (i >= ln || p[i++] != ':')
        return 0;
    while (i < ln && (p[i] == ' ' || p[i] == '\t'))
        i++;
    if (i >= ln || p[i++] != '"')
        return 0;
    const char *q = memchr(p + i, '"', ln - i);
    if (!q)
        return 0;
    for (int j = 0; j < TT_SU_NKINDS; j++)
        if ((size_t)(q - (p + i)) == strlen(kind_names[j]) &&
            !memcmp(p + i, kind_names[j], strlen(kind_names[j])))
            return 1;
    return tt__memmem(p, ln, "\"ts_ms\"", 7) || tt__memmem(p, ln, "\"ts_ns\"", 7);
}
