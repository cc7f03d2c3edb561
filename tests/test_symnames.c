/* test_symnames.c: --binary's parts (census/symnames, read/elfsyms, census/closuretypes).
 *
 * GHC's z-decoding, table-driven over every escape GHC.Utils.Encoding writes (and what
 * it never writes, refused); symbols into names (constructors, closures, the program's
 * own unit, distinct constructor tables, the runtime's stg_ tables, packages with a
 * version suffix or a hash, shapes GHC does not write); the address rule (two words,
 * four profiled, by ELF class) on ELF files written here with libelf, 64- and 32-bit:
 * exact addresses only (no nearest symbol), aliases in one order, undefined symbols
 * left out; the files that cannot name (not ELF, stripped, no _info symbol); the
 * closure type names per GHC version. Then the assembler with --binary, on eventlogs
 * written here: an IPE event's name comes first, a symbol names the rest (by the runtime
 * the RTS_IDENTIFIER says: four words for rts_p), an IPE event after the symbol's name
 * replaces it, what neither names stays an address and is said once.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "census/closuretypes.h"
#include "census/input.h"
#include "census/ipe.h"
#include "census/symnames.h"
#include "model/bands.h"
#include "read/elfsyms.h"
#include "read/evdefs.h"
#include "evwriter.h"
#include "testkit.h"

static void zdecode_escapes(void **state)
{
    (void)state;
    static const struct { const char *z, *text; } cases[] = {
        { "ZC", ":" }, { "ZL", "(" }, { "ZR", ")" }, { "ZM", "[" }, { "ZN", "]" },
        { "ZZ", "Z" }, { "zz", "z" }, { "za", "&" }, { "zb", "|" }, { "zc", "^" },
        { "zd", "$" }, { "ze", "=" }, { "zg", ">" }, { "zh", "#" }, { "zi", "." },
        { "zl", "<" }, { "zm", "-" }, { "zn", "!" }, { "zp", "+" }, { "zq", "'" },
        { "zr", "\\" }, { "zs", "/" }, { "zt", "*" }, { "zu", "_" }, { "zv", "%" },
        { "ZMZN", "[]" }, { "Izh", "I#" }, { "ghczmprim", "ghc-prim" },
        { "GHCziTypes", "GHC.Types" }, { "zdwmain", "$wmain" }, { "mainzugo15", "main_go15" },
        { "containerszm0zi7zminplace", "containers-0.7-inplace" },
        { "Z0T", "()" }, { "Z2T", "(,)" }, { "Z3T", "(,,)" }, { "Z1H", "(# #)" },
        { "Z2H", "(#,#)" }, { "Z0H", "(##)" },
        { "z2200U", "\xe2\x88\x80" },          /* U+2200 FOR ALL */
        { "z3bbU", "\xce\xbb" },               /* U+03BB lambda */
        { "z1f600U", "\xf0\x9f\x98\x80" },     /* U+1F600 */
        { "z0aU", "\n" }, { "plain", "plain" }, { "", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[64];
        long n = symnames_zdecode(cases[i].z, strlen(cases[i].z), out, sizeof out);
        if (n < 0 || strcmp(out, cases[i].text) != 0)
            fail_msg("%s: got %s (%ld), wanted %s", cases[i].z, n < 0 ? "(refused)" : out,
                     n, cases[i].text);
        assert_int_equal(n, (long)strlen(cases[i].text));
    }
    /* what GHC never writes */
    static const char *const refused[] = { "z", "Z", "zx", "ZX", "zA", "z12", "z12T",
                                           "Z1U", "z0d800U", "z110000U", "Z12aT", "z0ffffffffU" };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char out[64];
        if (symnames_zdecode(refused[i], strlen(refused[i]), out, sizeof out) >= 0)
            fail_msg("%s: decoded as %s", refused[i], out);
    }
    char small[3];
    assert_true(symnames_zdecode("ZMZN", 4, small, sizeof small) == 2);
    assert_true(symnames_zdecode("abc", 3, small, sizeof small) < 0);   /* no room for NUL */
}

static void parse_symbols(void **state)
{
    (void)state;
    static const struct {
        const char *symbol;
        enum sym_kind kind;
        const char *name, *package, *module;
    } cases[] = {
        { "ghczmprim_GHCziTypes_ZC_con_info", SYM_CONSTRUCTOR, "ghc-prim:GHC.Types.:",
          "ghc-prim", "GHC.Types" },
        { "containerszm0zi7zminplace_DataziMapziInternal_Bin_con_info", SYM_CONSTRUCTOR,
          "containers-0.7:Data.Map.Internal.Bin", "containers-0.7", "Data.Map.Internal" },
        { "containerszm0zi7_DataziMapziInternal_Bin_con_info", SYM_CONSTRUCTOR,
          "containers-0.7:Data.Map.Internal.Bin", "containers-0.7", "Data.Map.Internal" },
        { "textzm2zi1zi1zm4TgWkHv0l5o9_DataziTextziInternal_Text_con_info", SYM_CONSTRUCTOR,
          "text-2.1.1:Data.Text.Internal.Text", "text-2.1.1", "Data.Text.Internal" },
        { "ghczminternal_GHCziInternalziBase_zpzp_info", SYM_CLOSURE,
          "ghc-internal:GHC.Internal.Base.++", "ghc-internal", "GHC.Internal.Base" },
        { "ghczmprim_GHCziTuple_Z2T_con_info", SYM_CONSTRUCTOR, "ghc-prim:GHC.Tuple.(,)",
          "ghc-prim", "GHC.Tuple" },
        { "ghczmprim_GHCziTypes_ZMZN_con_info", SYM_CONSTRUCTOR, "ghc-prim:GHC.Types.[]",
          "ghc-prim", "GHC.Types" },
        { "Main_zdwmain_info", SYM_CLOSURE, "Main.$wmain", "", "Main" },
        { "Main_mainzugo15_info", SYM_CLOSURE, "Main.main_go15", "", "Main" },
        { "ZCMain_main_info", SYM_CLOSURE, ":Main.main", "", ":Main" },
        { "Main_Rec_con_info", SYM_CONSTRUCTOR, "Main.Rec", "", "Main" },
        /* -fdistinct-constructor-tables: the module that made the table, and its number */
        { "ghczmprim_GHCziTypes_ZC_Main_1_con_info", SYM_CONSTRUCTOR,
          "ghc-prim:GHC.Types.:_Main_1", "ghc-prim", "GHC.Types" },
        { "Main_Rec_Main_3_con_info", SYM_CONSTRUCTOR, "Main.Rec_Main_3", "", "Main" },
        { "stg_STACK_info", SYM_RUNTIME, "STACK", "rts", "" },
        { "stg_MUT_ARR_PTRS_CLEAN_info", SYM_RUNTIME, "MUT_ARR_PTRS_CLEAN", "rts", "" },
        { "__stg_EAGER_BLACKHOLE_info", SYM_RUNTIME, "EAGER_BLACKHOLE", "rts", "" },
        /* shapes GHC does not write: shown as they are */
        { "stg__info", SYM_RAW, "stg__info", "", "" },
        { "dl_iterate_phdr_info", SYM_RAW, "dl_iterate_phdr_info", "", "" },
        { "base_lower_x_info", SYM_RAW, "base_lower_x_info", "", "" },
        { "a_b_c_d_info", SYM_RAW, "a_b_c_d_info", "", "" },
        { "base_GHCziBase_zx_info", SYM_RAW, "base_GHCziBase_zx_info", "", "" },
        { "Main__info", SYM_RAW, "Main__info", "", "" },
        { "Main_main_entry", SYM_RAW, "Main_main_entry", "", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sym_name *r = symnames_parse(cases[i].symbol);
        assert_non_null(r);
        if (r->kind != cases[i].kind || strcmp(r->name, cases[i].name) != 0 ||
            strcmp(r->package, cases[i].package) != 0 || strcmp(r->module, cases[i].module) != 0)
            fail_msg("%s: kind %d name %s package %s module %s", cases[i].symbol, (int)r->kind,
                     r->name, r->package, r->module);
        assert_string_equal(r->symbol, cases[i].symbol);
        free(r);
    }
}

static void address_rule(void **state)
{
    (void)state;
    /* x86_64, seen: 0x480410 in the census, ghczmprim_GHCziTypes_ZC_con_info at 0x480420 */
    assert_true(symnames_symbol_address(0x480410, 8, false) == 0x480420);
    assert_true(symnames_symbol_address(0x480410, 8, true) == 0x480430);
    assert_true(symnames_symbol_address(0x1000, 4, false) == 0x1008);
    assert_true(symnames_symbol_address(0x1000, 4, true) == 0x1010);
    uint64_t a;
    assert_true(symnames_label_address("0x4abb18", 8, &a) && a == 0x4abb18);
    assert_true(symnames_label_address("0xffffffffffffffff", 18, &a) && a == UINT64_MAX);
    assert_false(symnames_label_address("0x", 2, &a));
    assert_false(symnames_label_address("0x4ABB18", 8, &a));   /* %p is lowercase */
    assert_false(symnames_label_address("4abb18", 6, &a));
    assert_false(symnames_label_address("0x1ffffffffffffffff", 19, &a));
    assert_false(symnames_label_address("STACK", 5, &a));
    assert_true(symnames_rts_profiled("GHC-9.10.3 rts_p"));
    assert_true(symnames_rts_profiled("GHC-9.6.6 rts_thr_debug_p"));
    assert_false(symnames_rts_profiled("GHC-9.10.3 rts_v"));
    assert_false(symnames_rts_profiled("GHC-9.10.3 rts_thr"));
    assert_false(symnames_rts_profiled("GHC-9.10.3 rts_thr_pp"));
    assert_false(symnames_rts_profiled(NULL));
}

struct elf_symbol_spec {
    const char *name;
    uint64_t value;
    bool undefined;
    bool local;
};

/* An ELF file at path of class cls with these symbols in a .symtab (none: no .symtab, as
 * strip leaves it), written with libelf. */
static void write_elf(const char *path, int cls, const struct elf_symbol_spec *syms, size_t n,
                      bool with_symtab)
{
    assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
    assert_non_null(e);
    assert_non_null(gelf_newehdr(e, cls));
    GElf_Ehdr eh;
    assert_non_null(gelf_getehdr(e, &eh));
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_machine = cls == ELFCLASS64 ? EM_X86_64 : EM_386;
    eh.e_type = ET_EXEC;
    eh.e_version = EV_CURRENT;
    /* section names, then the symbols' names */
    static char shstr[] = "\0.symtab\0.strtab\0.shstrtab\0.text";
    char strtab[1024] = "";
    void *symbols = NULL;   /* the symbol table's entries, freed once written */
    size_t str_len = 1, offsets[16];
    for (size_t i = 0; i < n; i++) {
        offsets[i] = str_len;
        memcpy(strtab + str_len, syms[i].name, strlen(syms[i].name) + 1);
        str_len += strlen(syms[i].name) + 1;
    }
    Elf_Scn *text = elf_newscn(e);
    GElf_Shdr sh;
    gelf_getshdr(text, &sh);
    sh.sh_name = 27, sh.sh_type = SHT_NOBITS, sh.sh_flags = SHF_ALLOC | SHF_EXECINSTR;
    sh.sh_size = 0x10000, sh.sh_addr = 0x400000;
    gelf_update_shdr(text, &sh);
    if (with_symtab) {
        Elf_Scn *strs = elf_newscn(e);
        Elf_Data *d = elf_newdata(strs);
        d->d_buf = strtab, d->d_size = str_len, d->d_type = ELF_T_BYTE, d->d_align = 1;
        gelf_getshdr(strs, &sh);
        sh.sh_name = 9, sh.sh_type = SHT_STRTAB;
        gelf_update_shdr(strs, &sh);
        Elf_Scn *symscn = elf_newscn(e);
        size_t entsize = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
        Elf_Data *sd = elf_newdata(symscn);
        sd->d_type = ELF_T_SYM, sd->d_size = entsize * (n + 1), sd->d_align = 8;
        symbols = calloc(n + 1, cls == ELFCLASS64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym));
        sd->d_buf = symbols;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym s = { .st_name = (Elf64_Word)offsets[i], .st_value = syms[i].value,
                           .st_shndx = syms[i].undefined ? SHN_UNDEF : (Elf64_Section)elf_ndxscn(text),
                           .st_info = GELF_ST_INFO(syms[i].local ? STB_LOCAL : STB_GLOBAL, STT_FUNC) };
            assert_true(gelf_update_sym(sd, (int)i + 1, &s));
        }
        gelf_getshdr(symscn, &sh);
        sh.sh_name = 1, sh.sh_type = SHT_SYMTAB, sh.sh_link = (Elf64_Word)elf_ndxscn(strs);
        sh.sh_entsize = entsize;
        gelf_update_shdr(symscn, &sh);
    }
    Elf_Scn *names = elf_newscn(e);
    Elf_Data *nd = elf_newdata(names);
    nd->d_buf = shstr, nd->d_size = sizeof shstr, nd->d_type = ELF_T_BYTE, nd->d_align = 1;
    gelf_getshdr(names, &sh);
    sh.sh_name = 17, sh.sh_type = SHT_STRTAB;
    gelf_update_shdr(names, &sh);
    eh.e_shstrndx = (Elf64_Half)elf_ndxscn(names);
    gelf_update_ehdr(e, &eh);
    if (elf_update(e, ELF_C_WRITE) < 0)
        fail_msg("elf_update: %s", elf_errmsg(-1));
    elf_end(e);
    free(symbols);   /* libelf does not own the data buffers it is given */
    close(fd);
}

/* The symbols of an ELF file of class cls with syms in its symbol table, written as
 * testkit_path(name) and read as --binary reads them; a failure to read fails the test. */
static struct elf_symbols *symbols_of(const char *name, int cls,
                                      const struct elf_symbol_spec *syms, size_t n)
{
    const char *path = testkit_path(name);
    write_elf(path, cls, syms, n, true);
    struct ev_error err = { 0 };
    struct elf_symbols *s = symnames_read(path, &err);
    if (!s)
        fail_msg("%s", err.what);
    return s;
}

/* A -hi label and the name symnames gives it, looked up as a profiled run's (its info
 * table four words after the symbol) or not; "" for none. */
struct naming {
    const char *label;
    bool profiled;
    const char *name;
};

/* s names each label as its case says. */
static void assert_names(const struct elf_symbols *s, const struct naming *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct naming *c = &cases[i];
        struct sym_name *r = symnames_lookup(s, c->label, strlen(c->label), c->profiled);
        char got[128];
        snprintf(got, sizeof got, "%s", r ? r->name : "");
        free(r);
        if (strcmp(got, c->name) != 0)
            fail_msg("%s%s: named \"%s\", wanted \"%s\"", c->label,
                     c->profiled ? " (profiled)" : "", got, c->name);
    }
}

static const struct elf_symbol_spec table[] = {
    { "ghczmprim_GHCziTypes_ZC_con_info", 0x480420, false, false },
    { "stg_STACK_info", 0x4abb28, false, false },
    { "Main_zdwmain_info", 0x40a6e8, false, true },            /* local: named too */
    { "zzalias_info", 0x40a700, false, false },                 /* two names, one address */
    { "Main_alias_info", 0x40a700, false, false },
    { "ghczmprim_GHCziTypes_Izh_con_info", 0x480440, true, false },   /* undefined */
    { "main", 0x401000, false, false },                         /* not an info table */
};

static void lookups_64(void **state)
{
    (void)state;
    static const struct naming cases[] = {
        { "0x480410", false, "ghc-prim:GHC.Types.:" },
        { "0x4abb18", false, "STACK" },
        { "0x40a6d8", false, "Main.$wmain" },
        /* profiled: four words */
        { "0x480400", true, "ghc-prim:GHC.Types.:" },
        { "0x480410", true, "" },
        /* exact only: one byte off, or the symbol's own address, names nothing */
        { "0x480411", false, "" },
        { "0x48040f", false, "" },
        { "0x480420", false, "" },
        /* aliases: the first in name order that GHC writes (Main_alias before zzalias) */
        { "0x40a6f0", false, "Main.alias" },
        /* undefined symbols and symbols of other suffixes are not kept */
        { "0x480430", false, "" },
        { "0x400ff0", false, "" },
        { "STACK", false, "" },
    };
    struct elf_symbols *s = symbols_of("prog64", ELFCLASS64, table, sizeof table / sizeof *table);
    assert_names(s, cases, sizeof cases / sizeof *cases);
    elfsyms_free(s);
}

static void lookups_32(void **state)
{
    (void)state;
    const struct elf_symbol_spec syms[] = { { "stg_TSO_info", 0x8049010, false, false } };
    static const struct naming cases[] = {
        { "0x8049008", false, "TSO" },   /* two 4-byte words */
        { "0x8049000", true, "TSO" },
        { "0x8049000", false, "" },
    };
    struct elf_symbols *s = symbols_of("prog32", ELFCLASS32, syms, 1);
    assert_names(s, cases, sizeof cases / sizeof *cases);
    elfsyms_free(s);
}

static void files_that_cannot_name(void **state)
{
    (void)state;
    struct ev_error err = { 0 };
    const char *path = testkit_path("stripped");
    write_elf(path, ELFCLASS64, table, 2, false);
    assert_null(symnames_read(path, &err));
    assert_non_null(strstr(err.what, "no symbol table (the program is stripped)"));
    path = testkit_path("noinfo");
    const struct elf_symbol_spec c_only[] = { { "main", 0x401000, false, false } };
    write_elf(path, ELFCLASS64, c_only, 1, true);
    assert_null(symnames_read(path, &err));
    assert_non_null(strstr(err.what, "no GHC info table (no symbol ending in _info)"));
    path = testkit_path("text");
    testkit_write(path, "hdrb not an executable\n", 23);
    assert_null(symnames_read(path, &err));
    assert_string_equal(err.what, "not an ELF file: --binary wants the program's executable");
    path = testkit_path("empty");
    testkit_write(path, "", 0);
    assert_null(symnames_read(path, &err));
    assert_non_null(strstr(err.what, "not an ELF file"));
    assert_null(symnames_read(testkit_path("none"), &err));
    assert_string_equal(err.what, "cannot open: No such file or directory");
    assert_null(symnames_read(testkit_dir(), &err));
    assert_non_null(strstr(err.what, "not a regular file"));
}

static void closure_types(void **state)
{
    (void)state;
    static const struct { const char *desc, *rts, *name; } cases[] = {
        { "1", "GHC-9.10.3 rts_v", "CONSTR" },
        { "4", "GHC-9.10.3 rts_v", "CONSTR_2_0" },
        { "8", "GHC-9.10.3 rts_v", "FUN" },
        { "15", "GHC-9.4.8 rts_thr", "THUNK" },
        { "30", "GHC-9.6.6 rts_v", "RET_SMALL" },
        { "53", "GHC-9.10.3 rts_v", "STACK" },
        { "63", "GHC-9.4.8 rts_v", "COMPACT_NFDATA" },
        { "64", "GHC-9.4.8 rts_v", NULL },            /* CONTINUATION came in 9.6 */
        { "64", "GHC-9.6.6 rts_v", "CONTINUATION" },
        { "65", "GHC-9.12.2 rts_v", NULL },           /* ANN_FRAME came in 9.14 */
        { "65", "GHC-9.14.1 rts_v", "ANN_FRAME" },
        { "66", "GHC-9.14.1 rts_v", NULL },
        { "4", "GHC-8.10.7 rts_v", NULL },            /* another numbering */
        { "4", "GHC-9.16.1 rts_v", NULL },            /* not known yet */
        { "4", NULL, NULL },
        { "4", "GHC-x rts_v", NULL },
        { "CONSTR_2_0", "GHC-9.2.8 rts_v", "CONSTR_2_0" },   /* 9.2 wrote names */
        { "", "GHC-9.10.3 rts_v", NULL },
        { "0004", "GHC-9.10.3 rts_v", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *got = closure_type_name(cases[i].desc, cases[i].rts);
        if (!!got != !!cases[i].name || (got && strcmp(got, cases[i].name) != 0))
            fail_msg("%s in %s: %s, wanted %s", cases[i].desc, cases[i].rts ? cases[i].rts : "-",
                     got ? got : "NULL", cases[i].name ? cases[i].name : "NULL");
    }
}

static int count_frame(void *ctx, const struct census_frame *f)
{
    (void)f;
    ++*(int *)ctx;
    return 0;
}

/* The shown label of the band labelled label in in, or "(none)". */
static const char *shown(const struct input *in, const char *label)
{
    static char text[256];
    uint32_t band;
    size_t len;
    if (bands_find_string(input_bands(in), label, strlen(label), &band) != 0)
        return "(none)";
    const char *d = bands_display_label(input_bands(in), band, &len);
    snprintf(text, sizeof text, "%.*s", (int)len, d);
    return text;
}

/* An IPE event naming info name, of type Maybe Int, into w. */
static void ipe(struct evw *w, uint64_t time, uint64_t info, const char *name)
{
    evw_ipe(w, time, info,
            &(struct evw_ipe){ name, "4", "Maybe Int", "go", "Main", "Main.hs:3:1-9" });
}

/* A -hi eventlog of runtime rts: an IPE event for 0x2000; a census of 0x1000, 0x2000,
 * 0x3000, 0x4000 and a label that is no address; an IPE event for 0x4000 after it, and a
 * second census. */
static const char *hi_eventlog(const char *rts, const char *name)
{
    struct evw *w = evw_new();
    evw_header_begin(w);
    evw_hi_declarations(w);
    evw_declare(w, EV_RTS_IDENTIFIER, -1, "RTS name and version");
    evw_header_end(w);
    evw_rts_identifier(w, 1, rts);
    ipe(w, 2, 0x2000, "go_info");
    evw_prof_begin(w, 3, 8, 100000000);
    for (uint64_t t = 10; t <= 20; t += 10) {
        evw_sample_begin(w, t, t / 10);
        evw_sample_string(w, t, "0x1000", 16);
        evw_sample_string(w, t, "0x2000", 32);
        evw_sample_string(w, t, "0x3000", 48);
        evw_sample_string(w, t, "0x4000", 64);
        evw_sample_string(w, t, "hello", 8);
        evw_sample_end(w, t, t / 10);
        if (t == 10)
            ipe(w, 11, 0x4000, "late_info");
    }
    const char *path = testkit_path(name);
    testkit_finish(w, path);
    return path;
}

static void assembler_names(void **state)
{
    (void)state;
    /* two words (rts_v): STACK at 0x1010; profiled (rts_p): TSO at 0x1020 */
    const struct elf_symbol_spec syms[] = {
        { "stg_STACK_info", 0x1010, false, false },
        { "stg_TSO_info", 0x1020, false, false },
        { "Main_go_info", 0x2010, false, false },      /* the IPE event says more */
        { "base_GHCziMaybe_Just_con_info", 0x4010, false, false },
    };
    struct elf_symbols *names = symbols_of("prog", ELFCLASS64, syms, 4);
    struct ev_error err = { 0 };
    static const struct { const char *rts, *at_0x1000; } runs[] = {
        { "GHC-9.10.3 rts_v", "STACK" }, { "GHC-9.10.3 rts_thr_p", "TSO" },
    };
    for (size_t k = 0; k < 2; k++) {
        int frames = 0;
        struct census_events events = { count_frame, NULL, NULL, &frames, NULL, NULL };
        struct input_options opt = { .path = hi_eventlog(runs[k].rts, "hi.eventlog"),
                                      .symbols = names, .symbols_path = "prog" };
        struct input *in = input_open(&opt, &events, &err);
        if (!in)
            fail_msg("%s", err.what);
        struct input_outcome out;
        assert_int_equal(input_read(in, &out, &err), INPUT_OK);
        assert_int_equal(frames, 2);
        assert_string_equal(shown(in, "0x1000"), runs[k].at_0x1000);
        assert_string_equal(shown(in, "0x2000"), "go_info :: Maybe Int at Main.hs:3:1-9");
        assert_string_equal(shown(in, "0x3000"), "0x3000");
        assert_string_equal(shown(in, "hello"), "hello");
        const struct ipe_info *info = ipe_names_info(input_ipe_names(in), "0x1000", 6);
        assert_non_null(info);
        assert_true(info->from_symbol);
        assert_string_equal(info->package, "rts");
        /* named by its symbol at the first census, by the IPE event after it */
        info = ipe_names_info(input_ipe_names(in), "0x4000", 6);
        assert_non_null(info);
        assert_false(info->from_symbol);
        assert_string_equal(info->table_name, "late_info");
        assert_string_equal(shown(in, "0x4000"), "late_info :: Maybe Int at Main.hs:3:1-9");
        /* said once: what stays an address */
        int said = 0;
        for (size_t i = 0; i < out.warning_count; i++)
            if (strstr(out.warnings[i].what, "info tables have no IPE event, no symbol") ||
                strstr(out.warnings[i].what, "info table has no IPE event, no symbol")) {
                said++;
                assert_string_equal(out.warnings[i].what,
                                    "2 info tables have no IPE event, no symbol in prog: "
                                    "shown as addresses (0x3000, ...)");
            }
        assert_int_equal(said, 1);
        input_free(in);
    }
    elfsyms_free(names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zdecode_escapes),
        cmocka_unit_test(parse_symbols),
        cmocka_unit_test(address_rule),
        cmocka_unit_test_setup_teardown(lookups_64, testkit_setup_dir, testkit_teardown_dir),
        cmocka_unit_test_setup_teardown(lookups_32, testkit_setup_dir, testkit_teardown_dir),
        cmocka_unit_test_setup_teardown(files_that_cannot_name, testkit_setup_dir,
                                        testkit_teardown_dir),
        cmocka_unit_test(closure_types),
        cmocka_unit_test_setup_teardown(assembler_names, testkit_setup_dir, testkit_teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
