/* Attribute values of a DIE through libdwarf 20210528 (spec/symbolication.md 5.2, 6):
 * every attribute and error object read here is freed here (dwarf_set_de_alloc_flag(0) is
 * in effect), and the libdwarf calls that leak or mis-read on corrupt input are avoided. */
#include "dwarf_int.h"

#include <string.h>

#include <stdio.h>

/* Attributes make_node asks for, one bit each; others are always looked up. */
uint32_t tsym__dw_attr_bit(Dwarf_Half at)
{
    static const Dwarf_Half known[] = {
        DW_AT_low_pc,    DW_AT_high_pc,   DW_AT_ranges,           DW_AT_abstract_origin,
        DW_AT_specification, DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name,
        DW_AT_decl_file, DW_AT_decl_line, DW_AT_call_file, DW_AT_call_line, DW_AT_call_column};
    for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i] == at)
            return 1u << i;
    return 0;
}

/* Records the first message and frees e. Called after every libdwarf call that can set an
 * error, whatever it returned: some calls (dwarf_die_text through dwarf_attr) leave an
 * error object behind while returning DW_DLV_NO_ENTRY. */
void tsym__dw_note_error(cu_state *s, Dwarf_Error e)
{
    if (!e)
        return;
    if (!s->msg[0])
        snprintf(s->msg, sizeof s->msg, "%s", dwarf_errmsg(e));
    dwarf_dealloc_error(s->dbg, e);
}

void tsym__dw_drop(cu_state *s, Dwarf_Error *e)
{
    if (*e)
        dwarf_dealloc_error(s->dbg, *e);
    *e = NULL;
}

/* dwarf_attr with its error noted; 1 when die has the attribute */
static int find_attr(cu_state *s, Dwarf_Die die, Dwarf_Half at, Dwarf_Attribute *a)
{
    if (die == s->mask_die) {
        uint32_t bit = tsym__dw_attr_bit(at);
        if (bit && !(s->mask & bit))
            return 0;
    }
    Dwarf_Error e = NULL;
    int res = dwarf_attr(die, at, a, &e);
    tsym__dw_note_error(s, e);
    return res == DW_DLV_OK;
}

/* Unsigned value of a; GCC 12 writes call_file/call_line as DW_FORM_implicit_const, which
 * this libdwarf's dwarf_formudata rejects while dwarf_formsdata accepts (spec 5.2.7). */
static int form_udata(cu_state *s, Dwarf_Attribute a, uint64_t *out)
{
    Dwarf_Error e = NULL;
    Dwarf_Unsigned u;
    if (dwarf_formudata(a, &u, &e) == DW_DLV_OK) {
        *out = u;
        return 1;
    }
    tsym__dw_drop(s, &e);
    Dwarf_Signed v;
    if (dwarf_formsdata(a, &v, &e) == DW_DLV_OK && v >= 0) {
        *out = (uint64_t)v;
        return 1;
    }
    tsym__dw_drop(s, &e);
    return 0;
}

int tsym__dw_attr_udata(cu_state *s, Dwarf_Die die, Dwarf_Half at, uint64_t *out)
{
    Dwarf_Attribute a;
    if (!find_attr(s, die, at, &a))
        return 0;
    int ok = form_udata(s, a, out);
    dwarf_dealloc_attribute(a);
    return ok;
}

/* String attribute through dwarf_attr + dwarf_formstring. Not dwarf_die_text /
 * dwarf_diename: in 20210528 they turn a dwarf_attr error into DW_DLV_NO_ENTRY and drop
 * the error object, which leaks once dwarf_set_de_alloc_flag(0) is in effect (found by
 * fuzz_elf on corrupt abbreviations). The string points into the section data. */
int tsym__dw_attr_string(cu_state *s, Dwarf_Die die, Dwarf_Half at, const char **out)
{
    Dwarf_Attribute a;
    Dwarf_Error e = NULL;
    if (!find_attr(s, die, at, &a))
        return 0;
    char *str = NULL;
    int res = dwarf_formstring(a, &str, &e);
    tsym__dw_drop(s, &e);
    dwarf_dealloc_attribute(a);
    if (res != DW_DLV_OK || !str)
        return 0;
    /* DW_FORM_GNU_strp_alt without the dwz supplementary file: libdwarf 20210528 returns
     * a placeholder text, which must not become a function name */
    if (str[0] == '<' && !strncmp(str, "<DW_FORM_", 9))
        return 0;
    *out = str;
    return 1;
}

/* A reference; *in_sup = 1 when it points into the dwz supplementary file
 * (DW_FORM_GNU_ref_alt, DW_FORM_ref_sup4/8), which is only followed when s->sup is open:
 * the offset means nothing in the file itself. */
int tsym__dw_attr_ref_any(cu_state *s, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *out,
                          int *in_sup)
{
    Dwarf_Attribute a;
    Dwarf_Error e = NULL;
    Dwarf_Half form = 0;
    if (!find_attr(s, die, at, &a))
        return 0;
    int res = dwarf_whatform(a, &form, &e);
    tsym__dw_drop(s, &e);
    *in_sup = form == DW_FORM_GNU_ref_alt || form == DW_FORM_ref_sup4 ||
              form == DW_FORM_ref_sup8;
    if (res == DW_DLV_OK && (!*in_sup || s->sup))
        res = dwarf_global_formref(a, out, &e);
    else
        res = DW_DLV_NO_ENTRY;
    tsym__dw_drop(s, &e);
    dwarf_dealloc_attribute(a);
    return res == DW_DLV_OK;
}

int tsym__dw_attr_ref(cu_state *s, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *out)
{
    int in_sup = 0;
    return tsym__dw_attr_ref_any(s, die, at, out, &in_sup) && !in_sup;
}

/* A section offset: DW_FORM_sec_offset, or data4/data8 before DWARF 4 */
int tsym__dw_form_offset(cu_state *s, Dwarf_Attribute a, Dwarf_Off *off)
{
    Dwarf_Error e = NULL;
    if (dwarf_global_formref(a, off, &e) == DW_DLV_OK)
        return 1;
    tsym__dw_drop(s, &e);
    Dwarf_Unsigned u;
    if (dwarf_formudata(a, &u, &e) != DW_DLV_OK) {
        tsym__dw_note_error(s, e);
        return 0;
    }
    *off = u;
    return 1;
}

int tsym__dw_attr_offset(cu_state *s, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *out)
{
    Dwarf_Attribute a;
    if (!find_attr(s, die, at, &a))
        return 0;
    int res = tsym__dw_form_offset(s, a, out);
    dwarf_dealloc_attribute(a);
    return res;
}

/* DW_AT_low_pc / DW_AT_high_pc by hand (dwarf_attr, dwarf_formaddr, dwarf_formudata)
 * instead of dwarf_lowpc / dwarf_highpc_b: in 20210528 dwarf_highpc_b drops the error
 * object of a failed inner read when it reports DW_DLE_HIGHPC_WRONG_FORM, a leak under
 * dwarf_set_de_alloc_flag(0) (found by fuzz_elf). dwarf_formaddr resolves DW_FORM_addrx
 * through .debug_addr. A constant-class high_pc is a length (spec 5.2.5). */
int tsym__dw_attr_addr(cu_state *s, Dwarf_Die die, Dwarf_Half at, uint64_t *out, int *is_const)
{
    Dwarf_Attribute a;
    Dwarf_Error e = NULL;
    if (!find_attr(s, die, at, &a))
        return 0;
    Dwarf_Half form = 0;
    int ok = 0;
    int res = dwarf_whatform(a, &form, &e);
    tsym__dw_note_error(s, e);
    if (res == DW_DLV_OK) {
        switch (form) {
        case DW_FORM_addr:
        case DW_FORM_addrx:
        case DW_FORM_addrx1:
        case DW_FORM_addrx2:
        case DW_FORM_addrx3:
        case DW_FORM_addrx4:
        case DW_FORM_GNU_addr_index: {
            Dwarf_Addr v = 0;
            res = dwarf_formaddr(a, &v, &e);
            tsym__dw_note_error(s, e);
            if (res == DW_DLV_OK) {
                *out = v;
                *is_const = 0;
                ok = 1;
            }
            break;
        }
        default:
            if (form_udata(s, a, out)) {
                *is_const = 1;
                ok = 1;
            }
        }
    }
    dwarf_dealloc_attribute(a);
    return ok;
}
