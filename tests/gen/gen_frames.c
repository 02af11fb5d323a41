/* gen_frames: synthetic frame data (spec/frames.md 7.2 and 7.3) for tests, samples and
 * benchmarks. The same seed gives the same frames in both formats, so a JSON-lines file
 * and a framestats dump of one run describe identical frames and must give identical
 * per-scene figures (apart from the flagged first row of each framestats window).
 *
 *   gen_frames [--format jsonl|framestats] [--android 11|12] [--scenes K] [--frames N]
 *              [--seed S] [--shuffle] [--messages] [--pause] [--repeat]
 *
 * --format      jsonl (default): one frame object per line; framestats: a whole
 *               `dumpsys gfxinfo <pkg> framestats` output, one window per scene
 * --android     12 (default): Android 12 columns, scenes at 60/90/120 Hz with
 *               FrameInterval and FrameDeadline; 11: Android 6-11 columns, 60 Hz only
 * --scenes K    scenes (activities), one after the other (default 3)
 * --frames N    frames per scene (default 100)
 * --seed S      PRNG seed (default 1)
 * --shuffle     jsonl: shuffle the lines (frames are re-ordered by the reader)
 * --messages    jsonl: add plain Looper messages ("vsync": false) between frames
 * --pause       jsonl: a "pause" record after each scene (for the matrix-c replay)
 *
 * Frame times: 90 % within the period, 8.5 % up to 2.5 periods, 1.4 % 3-12 periods,
 * 0.1 % frozen (720-900 ms); one frame in 20 is followed by 1-30 idle vsyncs.
 * --repeat      framestats: print every window's block twice (overlapping dumps) */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct frame {
    int scene;
    int64_t iv, vsync, p;
    int64_t ph[8]; /* unknown delay, input, animation, layout, draw, sync, command, swap */
    int64_t total;
} frame;

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64*: deterministic across platforms */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static int64_t range(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

static const char *const activities[] = {"FeedActivity", "DetailActivity", "SearchActivity",
                                         "ProfileActivity", "SettingsActivity", "CartActivity"};
static const int64_t periods[3] = {16666667, 11111111, 8333333}; /* 60, 90, 120 Hz */

static void scene_name(char *dst, size_t cap, int s)
{
    snprintf(dst, cap, "com.example.shop/com.example.shop.ui.%s%s", activities[s % 6],
             s >= 6 ? "2" : "");
}

/* Total frame time: mostly within the period, some long, rare very long frames. */
static void make_phases(frame *f)
{
    int64_t p = f->p;
    uint64_t k = rnd() % 1000;
    int64_t total = k < 900 ? range(p * 3 / 10, p * 9 / 10)
                    : k < 985 ? range(p * 11 / 10, p * 5 / 2)
                    : k < 999 ? range(p * 3, p * 12)
                              : range(720000000, 900000000);
    /* split: UI thread ~60 %, render thread the rest */
    int64_t w[8] = {2, 1, 3, 12, 20, 4, 10, 8}, ws = 60, acc = 0;
    for (int i = 0; i < 7; i++) {
        f->ph[i] = total * w[i] / ws;
        acc += f->ph[i];
    }
    f->ph[7] = total - acc;
    f->total = total;
}

static frame *make_frames(int scenes, int n, int android, size_t *count)
{
    frame *fr = calloc((size_t)scenes * (size_t)n, sizeof *fr);
    if (!fr)
        exit(2);
    int64_t iv = 5000000000LL;
    size_t k = 0;
    for (int s = 0; s < scenes; s++) {
        int64_t p = android >= 12 ? periods[s % 3] : periods[0];
        for (int i = 0; i < n; i++) {
            frame *f = &fr[k++];
            f->scene = s;
            f->p = p;
            f->iv = iv;
            f->vsync = iv + range(0, 200000);
            make_phases(f);
            /* the next frame is due after this one's busy slots, sometimes after idle */
            int64_t slots = (f->total + p - 1) / p;
            if (slots < 1)
                slots = 1;
            if (rnd() % 20 == 0)
                slots += range(1, 30);
            iv += slots * p;
        }
        iv += 700000000; /* activity transition */
    }
    *count = k;
    return fr;
}

static void print_jsonl_frame(FILE *o, const frame *f, int android)
{
    char sc[96];
    scene_name(sc, sizeof sc, f->scene);
    static const char *const names[8] = {"UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION",
                                         "ANIMATION_DURATION", "LAYOUT_MEASURE_DURATION",
                                         "DRAW_DURATION", "SYNC_DURATION",
                                         "COMMAND_ISSUE_DURATION", "SWAP_BUFFERS_DURATION"};
    fprintf(o, "{\"scene\":\"%s\",\"start_ns\":%lld,\"end_ns\":%lld,\"intended_vsync_ns\":%lld,"
           "\"vsync_ns\":%lld",
           sc, (long long)f->iv, (long long)(f->iv + f->total + 100000), (long long)f->iv,
           (long long)f->vsync);
    if (android >= 12)
        fprintf(o, ",\"frame_interval_ns\":%lld", (long long)f->p);
    fprintf(o, ",\"frame_metrics\":{");
    for (int i = 0; i < 8; i++)
        fprintf(o, "\"%s\":%lld,", names[i], (long long)f->ph[i]);
    fprintf(o, "\"TOTAL_DURATION\":%lld", (long long)(f->total + 100000));
    if (android >= 12)
        fprintf(o, ",\"DEADLINE\":%lld", (long long)f->p);
    fprintf(o, "}}\n");
}

/* Framestats timestamps of a frame; SyncStart follows SyncQueued by 0.1 ms (that gap is
 * part of TOTAL but of no phase). */
static void timestamps(const frame *f, int64_t t[10])
{
    t[0] = f->iv;
    for (int i = 0; i < 5; i++) /* HandleInputStart AnimationStart PerformTraversals Draw SyncQueued */
        t[i + 1] = t[i] + f->ph[i];
    t[6] = t[5] + 100000;        /* SyncStart */
    t[7] = t[6] + f->ph[5];      /* IssueDrawCommandsStart */
    t[8] = t[7] + f->ph[6];      /* SwapBuffers */
    t[9] = t[8] + f->ph[7];      /* FrameCompleted */
}

static void print_row(const frame *f, int android, int flags, int64_t vsync_id)
{
    int64_t t[10];
    timestamps(f, t);
    if (android >= 12)
        printf("%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,"
               "%lld,%d,%d,%lld,%lld,%lld,\n",
               flags, (long long)vsync_id, (long long)t[0], (long long)f->vsync, 0LL,
               (long long)t[1], (long long)t[2], (long long)t[3], (long long)t[4],
               (long long)(t[0] + f->p), (long long)f->vsync, (long long)f->p, (long long)t[5],
               (long long)t[6], (long long)t[7], (long long)t[8], (long long)t[9], 120000,
               45000, (long long)(t[9] - 300000), (long long)t[9],
               (long long)(t[0] + 2 * f->p));
    else
        printf("%d,%lld,%lld,9223372036854775807,0,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,"
               "%lld,%d,%d,\n",
               flags, (long long)t[0], (long long)f->vsync, (long long)t[1], (long long)t[2],
               (long long)t[3], (long long)t[4], (long long)t[5], (long long)t[6],
               (long long)t[7], (long long)t[8], (long long)t[9], 120000, 45000);
}

static void print_window(const frame *fr, size_t a, size_t b, int android, int64_t *vid)
{
    char sc[96];
    scene_name(sc, sizeof sc, fr[a].scene);
    printf("\n\t%s/android.view.ViewRootImpl@%x (visibility=0)\n", sc,
           (unsigned)(0x5a7ef0b + fr[a].scene * 0x111));
    if (android >= 12)
        printf("Window: %s\n", sc);
    printf("Stats since: %lldns\nTotal frames rendered: %zu\nJanky frames: 0 (0.00%%)\n"
           "50th percentile: 9ms\n90th percentile: 17ms\n95th percentile: 25ms\n"
           "99th percentile: 150ms\n",
           (long long)(fr[a].iv - 1000000), b - a + 1);
    printf("---PROFILEDATA---\n");
    if (android >= 12)
        printf("Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart,"
               "AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameStartTime,"
               "FrameInterval,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,"
               "FrameCompleted,DequeueBufferDuration,QueueBufferDuration,GpuCompleted,"
               "SwapBuffersCompleted,DisplayPresentTime,\n");
    else
        printf("Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,HandleInputStart,"
               "AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
               "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,"
               "QueueBufferDuration,\n");
    /* the window's first frame (layout of a new window) is flagged by the platform */
    frame first = fr[a];
    first.iv -= 3 * first.p;
    first.vsync = first.iv;
    print_row(&first, android, 1, (*vid)++);
    for (size_t i = a; i < b; i++)
        print_row(&fr[i], android, 0, (*vid)++);
    printf("---PROFILEDATA---\n");
}

static void print_framestats(const frame *fr, size_t n, int android, int repeat)
{
    printf("Applications Graphics Acceleration Info:\nUptime: 30918925 Realtime: 30918925\n\n"
           "** Graphics info for pid 4242 [com.example.shop] **\n\n"
           "Stats since: 4990000000ns\nTotal frames rendered: %zu\n"
           "Pipeline=Skia (OpenGL)\n\nProfile data in ms:\n",
           n);
    int64_t vid = 1000;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && fr[b].scene == fr[a].scene)
            b++;
        for (int r = 0; r <= repeat; r++) {
            int64_t v = vid;
            print_window(fr, a, b, android, &v);
            if (r == repeat)
                vid = v;
        }
        a = b;
    }
    printf("\nView hierarchy:\n\n  com.example.shop/com.example.shop.ui.FeedActivity/"
           "android.view.ViewRootImpl@5a7ef0b\n  42 views, 61.21 kB of render nodes\n\n"
           "Total ViewRootImpl: %d\n",
           1);
}

static void print_jsonl(const frame *fr, size_t n, int android, int shuffle, int messages,
                        int pause)
{
    char *buf = NULL;
    size_t blen = 0;
    FILE *o = shuffle ? open_memstream(&buf, &blen) : stdout;
    if (!o)
        exit(2);
    for (size_t i = 0; i < n; i++) {
        print_jsonl_frame(o, &fr[i], android);
        if (messages && rnd() % 4 == 0) {
            char sc[96];
            scene_name(sc, sizeof sc, fr[i].scene);
            int64_t s = fr[i].iv + fr[i].total + 200000;
            fprintf(o, "{\"scene\":\"%s\",\"start_ns\":%lld,\"end_ns\":%lld,\"vsync\":false}\n",
                    sc, (long long)s, (long long)(s + range(100000, 30000000)));
        }
        if (pause && (i + 1 == n || fr[i + 1].scene != fr[i].scene))
            fprintf(o, "{\"type\":\"pause\",\"ts_ns\":%lld}\n",
                    (long long)(fr[i].iv + fr[i].total + 300000000));
    }
    if (!shuffle)
        return;
    fclose(o);
    char **lines = NULL;
    size_t nl = 0, cap = 0;
    for (char *p = buf; p < buf + blen;) {
        char *e = memchr(p, '\n', (size_t)(buf + blen - p));
        if (!e)
            break;
        if (nl == cap) {
            cap = cap ? cap * 2 : 1024;
            char **nlines = realloc(lines, cap * sizeof *lines);
            if (!nlines)
                exit(2);
            lines = nlines;
        }
        *e = 0;
        lines[nl++] = p;
        p = e + 1;
    }
    for (size_t i = nl; i > 1; i--) { /* Fisher-Yates */
        size_t j = (size_t)(rnd() % i);
        char *t = lines[i - 1];
        lines[i - 1] = lines[j];
        lines[j] = t;
    }
    for (size_t i = 0; i < nl; i++)
        printf("%s\n", lines[i]);
    free(lines);
    free(buf);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'}, {"android", required_argument, NULL, 'a'},
        {"scenes", required_argument, NULL, 's'}, {"frames", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 'S'},   {"shuffle", no_argument, NULL, 'x'},
        {"messages", no_argument, NULL, 'm'},     {"pause", no_argument, NULL, 'p'},
        {"repeat", no_argument, NULL, 'r'},       {NULL, 0, NULL, 0}};
    int framestats = 0, android = 12, scenes = 3, n = 100, shuffle = 0, messages = 0,
        pause = 0, repeat = 0, c;
    unsigned long long seed = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'f': framestats = !strcmp(optarg, "framestats"); break;
        case 'a': android = atoi(optarg); break;
        case 's': scenes = atoi(optarg); break;
        case 'n': n = atoi(optarg); break;
        case 'S': seed = strtoull(optarg, NULL, 10); break;
        case 'x': shuffle = 1; break;
        case 'm': messages = 1; break;
        case 'p': pause = 1; break;
        case 'r': repeat = 1; break;
        default:
            fprintf(stderr, "usage: gen_frames [--format jsonl|framestats] [--android 11|12] "
                            "[--scenes K] [--frames N] [--seed S] [--shuffle] [--messages] "
                            "[--pause] [--repeat]\n");
            return 2;
        }
    }
    if (scenes < 1 || scenes > 12 || n < 1 || n > 100000000) {
        fprintf(stderr, "gen_frames: --scenes 1..12, --frames 1..100000000\n");
        return 2;
    }
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    size_t count;
    frame *fr = make_frames(scenes, n, android, &count);
    if (framestats)
        print_framestats(fr, count, android, repeat);
    else
        print_jsonl(fr, count, android, shuffle, messages, pause);
    free(fr);
    return ferror(stdout) ? 2 : 0;
}
