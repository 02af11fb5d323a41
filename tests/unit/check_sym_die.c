/* libsym's DIE reader (die.c) against libdwarf's walk (dwarf.c) on the binaries built by
 * tests/sym/mkfixtures.sh: the same index, node for node and row for row; and the fallback
 * to libdwarf on input die.c does not handle. */
#include "unit.h"

#include <stdio.h>
#include <unistd.h>

#include "../../libsym/tsym_int.h"

static char fx[64];

static void fixtures_up(void)
{
    tsym_init();
    snprintf(fx, sizeof fx, "/tmp/tt_die_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(fx));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sh tests/sym/mkfixtures.sh %s", fx);
    ck_assert_int_eq(system(cmd), 0);
}

static void fixtures_down(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", fx);
    ck_assert_int_eq(system(cmd), 0);
}

static void ix_init(tsym__index *ix)
{
    memset(ix, 0, sizeof *ix);
    tt_vec_init(&ix->funcs, sizeof(tsym__func));
    tt_vec_init(&ix->nodes, sizeof(tsym__node));
    tt_vec_init(&ix->ranges, sizeof(tsym__range));
    tt_vec_init(&ix->rows, sizeof(tsym__row));
    tt_vec_init(&ix->rblocks, sizeof(tsym__rblock));
    tt_vec_init(&ix->syms, sizeof(tsym__sym));
    tt_vec_init(&ix->loads, sizeof(tsym__load));
    tt_vec_init(&ix->fstarts, sizeof(uint64_t));
}

/* the index of file name (in the fixture directory) built one way */
static void load(tsym__index *ix, const char *name, int use_die)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", fx, name);
    ix_init(ix);
    tsym__elf e;
    tt_error err = {0};
    ck_assert_msg(tsym__elf_read(&e, ix, 0, p, &err) == 0, "%s: %s", name, err.msg);
    ck_assert_msg(tsym__dwarf_load_with(ix, p, use_die, &err) == 0, "%s: %s", name, err.msg);
}

static int same_str(const tsym__index *a, uint32_t x, const tsym__index *b, uint32_t y)
{
    const char *s = tsym__str(&a->str, x), *t = tsym__str(&b->str, y);
    return (!s && !t) || (s && t && !strcmp(s, t));
}

static void expect_same(const char *name)
{
    tsym__index a, b;
    load(&a, name, 1);
    load(&b, name, 0);
    ck_assert_uint_eq(a.n_cus, b.n_cus);
    ck_assert_uint_eq(a.n_inlines, b.n_inlines);
    ck_assert_uint_gt(a.nodes.len, 0);
    ck_assert_uint_eq(a.funcs.len, b.funcs.len);
    ck_assert_uint_eq(a.nodes.len, b.nodes.len);
    ck_assert_uint_eq(a.ranges.len, b.ranges.len);
    ck_assert_uint_eq(a.rows.len, b.rows.len);
    for (size_t i = 0; i < a.funcs.len; i++) {
        const tsym__func *x = &TT_VEC_AT(&a.funcs, tsym__func, i);
        const tsym__func *y = &TT_VEC_AT(&b.funcs, tsym__func, i);
        ck_assert(x->lo == y->lo && x->hi == y->hi && x->node == y->node);
    }
    ck_assert(!memcmp(a.ranges.data, b.ranges.data, a.ranges.len * sizeof(tsym__range)));
    for (size_t i = 0; i < a.nodes.len; i++) {
        const tsym__node *x = &TT_VEC_AT(&a.nodes, tsym__node, i);
        const tsym__node *y = &TT_VEC_AT(&b.nodes, tsym__node, i);
        ck_assert_msg(x->parent == y->parent && x->first_range == y->first_range &&
                          x->n_ranges == y->n_ranges && x->subtree_end == y->subtree_end &&
                          x->decl_line == y->decl_line && x->call_line == y->call_line &&
                          x->call_col == y->call_col && same_str(&a, x->name, &b, y->name) &&
                          same_str(&a, x->decl_file, &b, y->decl_file) &&
                          same_str(&a, x->call_file, &b, y->call_file),
                      "%s: node %zu differs", name, i);
    }
    for (size_t i = 0; i < a.rows.len; i++) {
        const tsym__row *x = &TT_VEC_AT(&a.rows, tsym__row, i);
        const tsym__row *y = &TT_VEC_AT(&b.rows, tsym__row, i);
        ck_assert_msg(x->addr == y->addr && x->line == y->line && x->discr == y->discr &&
                          x->col == y->col && x->flags == y->flags &&
                          same_str(&a, x->file, &b, y->file),
                      "%s: row %zu differs", name, i);
    }
    tsym__index_free(&a);
    tsym__index_free(&b);
}

/* die.c itself read the file (no silent fallback) */
static void expect_die(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", fx, name);
    tsym__index ix;
    ix_init(&ix);
    tsym__elf e;
    ck_assert_int_eq(tsym__elf_read(&e, &ix, 0, p, NULL), 0);
    tsym__dsecs s;
    ck_assert_int_eq(tsym__dsecs_open(&s, p, NULL), 0);
    ck_assert_msg(tsym__die_index(&ix, &s, 1) == 0, "%s: die.c fell back", name);
    tsym__dsecs_close(&s);
    tsym__index_free(&ix);
}

static const char *const fixtures[] = {"g5", "g4", "g64", "libfx.so", "libb.so", "z5", "zg5",
                                       "t5", "t6", "c5", "c4", "tc"};

START_TEST(same_index)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", fx, fixtures[_i]);
    if (access(p, R_OK)) /* clang fixtures need clang */
        return;
    expect_die(fixtures[_i]);
    expect_same(fixtures[_i]);
}
END_TEST

/* cut or damaged units, relocatable objects: die.c gives up, libdwarf indexes (and reports) */
START_TEST(fallback)
{
    char p[256];
    snprintf(p, sizeof p, "%s/g5", fx);
    tsym__dsecs s;
    ck_assert_int_eq(tsym__dsecs_open(&s, p, NULL), 0);
    tsym__index ix;
    ix_init(&ix);
    ck_assert_int_eq(tsym__elf_read(&(tsym__elf){0}, &ix, 0, p, NULL), 0);
    tsym__dsecs cut = s;
    cut.size[TSYM_DS_INFO] /= 2;
    ck_assert_int_eq(tsym__die_index(&ix, &cut, 1), TSYM__DIE_FALLBACK);
    cut = s;
    cut.size[TSYM_DS_ABBREV] = 3;
    ck_assert_int_eq(tsym__die_index(&ix, &cut, 1), TSYM__DIE_FALLBACK);
    unsigned char *copy = malloc(s.size[TSYM_DS_INFO]);
    ck_assert_ptr_nonnull(copy);
    for (size_t off = 11; off < s.size[TSYM_DS_INFO]; off += 97) {
        memcpy(copy, s.data[TSYM_DS_INFO], s.size[TSYM_DS_INFO]);
        copy[off] ^= 0xff; /* no crash, no read outside the sections (asan) */
        cut = s;
        cut.data[TSYM_DS_INFO] = copy;
        tsym__index_free(&ix);
        ix_init(&ix);
        ck_assert_int_eq(tsym__elf_read(&(tsym__elf){0}, &ix, 0, p, NULL), 0);
        int rc = tsym__die_index(&ix, &cut, 1);
        ck_assert(rc == 0 || rc == TSYM__DIE_FALLBACK);
    }
    free(copy);
    tsym__dsecs_close(&s);
    tsym__index_free(&ix);
    /* a relocatable object is left to libdwarf */
    snprintf(p, sizeof p, "%s/le32.o", fx);
    if (!access(p, R_OK)) {
        ck_assert_int_eq(tsym__dsecs_open(&s, p, NULL), 0);
        ck_assert(s.no_die);
        tsym__dsecs_close(&s);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sym_die");
    TCase *tc = tcase_create("die");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, fixtures_up, fixtures_down);
    tcase_add_loop_test(tc, same_index, 0, sizeof fixtures / sizeof fixtures[0]);
    tcase_add_test(tc, fallback);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
