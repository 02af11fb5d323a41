/* Synthesises a slow cold start (startup.md 4.2, 4.5): `gen_startup events`, `beat` (text
 * method-beat buffer, one 0x-hex word per line, time base = first_method) or `mapping`. */
#include <stdio.h>
#include <string.h>

#include "../../libtrace/tt.h"

#define D TT_BEAT_DISPATCH

typedef struct rec {
    int entry;
    uint32_t id;
    int64_t t;
} rec;

/* Relative ms: Application.onCreate with SDK init, a launch dispatch inflating the splash,
 * the main activity's onCreate, and a dispatch still open when the main window gets focus. */
static const rec beat[] = {
    {1, 1, 0},     {1, 2, 100},    {1, 3, 200},    {0, 3, 2600},   {0, 2, 2800},
    {1, 9, 2800},  {0, 9, 2805},   {1, 9, 2805},   {0, 9, 2810},   {0, 1, 3000},
    {1, D, 3100},  {1, 4, 3100},   {1, 5, 3200},   {1, 6, 3300},   {0, 6, 8700},
    {0, 5, 8800},  {0, 4, 9000},   {0, D, 9000},   {1, D, 9100},   {1, 7, 9100},
    {0, 7, 11800}, {0, D, 11800},  {1, D, 11900},  {1, 8, 11900},  {0, 8, 12500},
    {0, D, 12500},
};

static const char *const events[] = {
    "{\"kind\":\"launch_intent\",\"ts_ms\":9500,\"component\":\"com.example.shop/.SplashActivity\"}",
    "{\"kind\":\"process_start\",\"ts_ms\":9620}",
    "{\"kind\":\"bind_application_begin\",\"ts_ms\":9800}",
    "{\"kind\":\"first_method\",\"ts_ms\":10000}",
    "{\"kind\":\"bind_application_end\",\"ts_ms\":13050}",
    "{\"kind\":\"app_create_end\",\"ts_ms\":13100,\"scene\":159}",
    "{\"kind\":\"activity_create\",\"ts_ms\":13150,\"activity\":\"com.example.shop.SplashActivity\",\"instance\":\"com.example.shop.SplashActivity@5d1a\"}",
    "{\"kind\":\"first_frame\",\"ts_ms\":18950,\"activity\":\"com.example.shop.SplashActivity\"}",
    "{\"kind\":\"window_focus\",\"ts_ms\":19000,\"activity\":\"com.example.shop.SplashActivity\",\"instance\":\"com.example.shop.SplashActivity@5d1a\"}",
    "{\"kind\":\"activity_create\",\"ts_ms\":19100,\"activity\":\"com.example.shop.MainActivity\",\"instance\":\"com.example.shop.MainActivity@77e0\"}",
    "{\"kind\":\"activity_destroy\",\"ts_ms\":21000,\"activity\":\"com.example.shop.SplashActivity\",\"instance\":\"com.example.shop.SplashActivity@5d1a\"}",
    "{\"kind\":\"first_frame\",\"ts_ms\":21950,\"activity\":\"com.example.shop.MainActivity\"}",
    "{\"kind\":\"window_focus\",\"ts_ms\":22000,\"activity\":\"com.example.shop.MainActivity\",\"instance\":\"com.example.shop.MainActivity@77e0\"}",
    "{\"kind\":\"fully_drawn\",\"ts_ms\":22600,\"activity\":\"com.example.shop.MainActivity\"}",
};

static const char *const mapping[] = {
    "1,1,com.example.shop.ShopApp onCreate ()V",
    "2,9,com.example.shop.sdk.Sdk init (Landroid.content.Context;)V",
    "3,10,com.example.shop.sdk.Config load ()Lcom.example.shop.sdk.Config;",
    "4,1,com.example.shop.SplashActivity onCreate (Landroid.os.Bundle;)V",
    "5,2,com.example.shop.SplashActivity inflate ()V",
    "6,10,com.example.shop.ui.Images decode (Ljava.lang.String;)Landroid.graphics.Bitmap;",
    "7,1,com.example.shop.MainActivity onCreate (Landroid.os.Bundle;)V",
    "8,2,com.example.shop.MainActivity bindFeed ()V",
    "9,10,com.example.shop.sdk.Log d (Ljava.lang.String;)V",
};

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (!strcmp(what, "events")) {
        for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
            puts(events[i]);
    } else if (!strcmp(what, "beat")) {
        for (size_t i = 0; i < sizeof beat / sizeof beat[0]; i++)
            printf("0x%016llx\n",
                   (unsigned long long)tt_beat_encode(beat[i].entry, beat[i].id, beat[i].t));
    } else if (!strcmp(what, "mapping")) {
        for (size_t i = 0; i < sizeof mapping / sizeof mapping[0]; i++)
            puts(mapping[i]);
    } else {
        fputs("usage: gen_startup events|beat|mapping\n", stderr);
        return 2;
    }
    return ferror(stdout) ? 1 : 0;
}
