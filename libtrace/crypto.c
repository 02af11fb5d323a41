/* SHA-256 through OpenSSL's libcrypto, loaded on first use: most runs hash nothing, and
 * mapping and relocating libcrypto at start-up cost every process about a millisecond of
 * CPU and 1.5 MB of resident memory. */
#include "tt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <openssl/evp.h>

#include "tt_int.h"

#ifndef TT_LIBCRYPTO_SONAME
#define TT_LIBCRYPTO_SONAME "libcrypto.so.3"
#endif

static tt__crypto_fns fns;
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* dlsym returns void *; the function pointer comes out of it through memcpy (ISO C has
 * no conversion between the two) */
static int sym(void *h, const char *name, void *fp, size_t size)
{
    void *p = dlsym(h, name);
    if (!p || size != sizeof p)
        return -1;
    memcpy(fp, &p, size);
    return 0;
}

#define SYM(h, f) sym(h, #f, &fns.f, sizeof fns.f)

static void load(void)
{
    void *h = dlopen(TT_LIBCRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    if (SYM(h, EVP_MD_CTX_new) || SYM(h, EVP_MD_CTX_free) || SYM(h, EVP_DigestInit_ex) ||
        SYM(h, EVP_DigestUpdate) || SYM(h, EVP_DigestFinal_ex) || SYM(h, EVP_Digest) ||
        SYM(h, EVP_sha256)) {
        dlclose(h);
        return;
    }
    loaded = 1; /* stays loaded until exit */
}

const tt__crypto_fns *tt__crypto(void)
{
    pthread_once(&once, load);
    return loaded ? &fns : NULL;
}
