/* symnames.c: GHC's symbol names decoded, and the address rule (see symnames.h). */
#include "census/symnames.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "read/elfsyms.h"

/* GHC.Utils.Encoding: the characters a 'z' or 'Z' escape stands for. */
static int unescape(char escape, char c)
{
    static const char lower[] = "a&b|c^d$e=g>h#i.l<m-n!p+q'r\\s/t*u_v%zz";
    static const char upper[] = "L(R)M[N]C:ZZ";
    const char *table = escape == 'z' ? lower : upper;
    for (size_t i = 0; table[i]; i += 2)
        if (table[i] == c)
            return (unsigned char)table[i + 1];
    return -1;
}

/* Appends code point u as UTF-8 at out + *n (cap bytes in all): 0, or -1 (no room, or
 * not a character). */
static int put_utf8(char *out, size_t cap, size_t *n, unsigned long u)
{
    unsigned char b[4];
    size_t k;
    if (u < 0x80)
        b[0] = (unsigned char)u, k = 1;
    else if (u < 0x800)
        b[0] = (unsigned char)(0xc0 | u >> 6), b[1] = (unsigned char)(0x80 | (u & 0x3f)), k = 2;
    else if (u < 0x10000) {
        if (u >= 0xd800 && u < 0xe000)
            return -1;
        b[0] = (unsigned char)(0xe0 | u >> 12), b[1] = (unsigned char)(0x80 | ((u >> 6) & 0x3f));
        b[2] = (unsigned char)(0x80 | (u & 0x3f)), k = 3;
    } else if (u < 0x110000) {
        b[0] = (unsigned char)(0xf0 | u >> 18), b[1] = (unsigned char)(0x80 | ((u >> 12) & 0x3f));
        b[2] = (unsigned char)(0x80 | ((u >> 6) & 0x3f)), b[3] = (unsigned char)(0x80 | (u & 0x3f));
        k = 4;
    } else
        return -1;
    if (*n + k >= cap)
        return -1;
    memcpy(out + *n, b, k);
    *n += k;
    return 0;
}

/* A tuple's name, "(,,)" for Z3T, "(#,,#)" for Z3H ("(# #)" for Z1H), at out + *n. */
static int put_tuple(char *out, size_t cap, size_t *n, unsigned long arity, bool unboxed)
{
    const char *open = unboxed ? "(#" : "(", *close = unboxed ? "#)" : ")";
    size_t need = strlen(open) + (arity > 1 ? arity - 1 : 0) + strlen(close) + 1;
    if (arity > 64 || *n + need >= cap)
        return -1;
    *n += (size_t)sprintf(out + *n, "%s", open);
    for (unsigned long i = 1; i < arity; i++)
        out[(*n)++] = ',';
    if (unboxed && arity == 1)
        out[(*n)++] = ' ';
    *n += (size_t)sprintf(out + *n, "%s", close);
    return 0;
}

long symnames_zdecode(const char *z, size_t len, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        char c = z[i++];
        if (c != 'z' && c != 'Z') {
            if (n + 1 >= cap)
                return -1;
            out[n++] = c;
            continue;
        }
        if (i == len)
            return -1;
        if (z[i] >= '0' && z[i] <= '9') {
            /* z<hex>U: a code point; Z<digits>T or Z<digits>H: a tuple */
            size_t start = i;
            while (i < len && z[i] && strchr("0123456789abcdef", z[i]))
                i++;
            if (i == len || i - start > 8)
                return -1;
            char digits[9];
            memcpy(digits, z + start, i - start);
            digits[i - start] = '\0';
            char end = z[i++];
            if (c == 'z' && end == 'U') {
                if (put_utf8(out, cap, &n, strtoul(digits, NULL, 16)) != 0)
                    return -1;
            } else if (c == 'Z' && (end == 'T' || end == 'H') &&
                       strspn(digits, "0123456789") == strlen(digits)) {
                if (put_tuple(out, cap, &n, strtoul(digits, NULL, 10), end == 'H') != 0)
                    return -1;
            } else
                return -1;
            continue;
        }
        int u = unescape(c, z[i++]);
        if (u < 0 || n + 1 >= cap)
            return -1;
        out[n++] = (char)u;
    }
    if (n >= cap)
        return -1;
    out[n] = '\0';
    return (long)n;
}

/* Whether s is a version: digits and dots, a digit first and last. */
static bool is_version(const char *s, size_t len)
{
    if (len == 0 || s[0] == '.' || s[len - 1] == '.')
        return false;
    for (size_t i = 0; i < len; i++)
        if (!(s[i] == '.' || (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

/* A unit id as a person reads it: up to its last version ("containers-0.7-inplace",
 * "text-2.1.1-4TgWkHv0l5o9" -> "containers-0.7", "text-2.1.1"); one without a version
 * is kept whole ("ghc-prim"). Cut in place. */
static void unit_as_package(char *unit)
{
    char *cut = NULL;
    for (char *part = unit; part;) {
        char *dash = strchr(part, '-');
        size_t len = dash ? (size_t)(dash - part) : strlen(part);
        if (part != unit && is_version(part, len))
            cut = part + len;
        part = dash ? dash + 1 : NULL;
    }
    if (cut)
        *cut = '\0';
}

/* Whether a decoded module name is one: a capital letter first (":Main", the program's
 * entry wrapper, also). */
static bool is_module(const char *m)
{
    if (*m == ':')
        m++;
    return *m >= 'A' && *m <= 'Z';
}

/* A decoded part into the block at *at (room: parse_into's), NUL-terminated: its start,
 * or NULL when it is not z-encoded text. */
static char *decoded(const char *z, size_t len, char **at, char *end)
{
    char *start = *at;
    long n = symnames_zdecode(z, len, start, (size_t)(end - start));
    if (n < 0)
        return NULL;
    *at = start + n + 1;
    return start;
}

/* The parts of a Haskell symbol (without "_info", and without "_con" for a constructor):
 * "[package_]Module_name[_Module_N]". false when it has no such shape. */
static bool haskell_parts(struct sym_name *r, const char *base, size_t base_len, char *at,
                          char *end)
{
    const char *part[6];
    size_t part_len[6], n = 0;
    for (const char *p = base; p <= base + base_len && n < 6;) {
        const char *u = memchr(p, '_', (size_t)(base + base_len - p));
        size_t len = u ? (size_t)(u - p) : (size_t)(base + base_len - p);
        if (len == 0)
            return false;
        part[n] = p;
        part_len[n++] = len;
        if (!u)
            break;
        p = u + 1;
    }
    /* a distinct constructor table: "_Module_N" after the constructor */
    const char *table = NULL;
    size_t table_len = 0;
    if (r->kind == SYM_CONSTRUCTOR && n >= 4 &&
        strspn(part[n - 1], "0123456789") >= part_len[n - 1]) {
        table = part[n - 2];
        table_len = (size_t)(part[n - 1] + part_len[n - 1] - table);
        n -= 2;
    }
    if (n != 2 && n != 3)
        return false;
    char *package = "", *module, *name, *suffix = "";
    if (n == 3) {
        if (!(package = decoded(part[0], part_len[0], &at, end)))
            return false;
        unit_as_package(package);
    }
    if (!(module = decoded(part[n - 2], part_len[n - 2], &at, end)) || !is_module(module) ||
        !(name = decoded(part[n - 1], part_len[n - 1], &at, end)) ||
        (table && !(suffix = decoded(table, table_len, &at, end))))
        return false;
    r->package = package;
    r->module = module;
    size_t need = strlen(package) + strlen(module) + strlen(name) + strlen(suffix) + 4;
    if ((size_t)(end - at) < need)
        return false;
    sprintf(at, "%s%s%s.%s%s%s", package, *package ? ":" : "", module, name,
            *suffix ? "_" : "", suffix);
    r->name = at;
    return true;
}

struct sym_name *symnames_parse(const char *symbol)
{
    size_t len = strlen(symbol);
    /* the symbol, then room for its decoded parts and the name made of them: escapes
     * shorten, a code point (z10ffffU) is at most 4 bytes of UTF-8, and only tuples
     * lengthen ("Z9T" is 10 bytes); a part whose decoding would not fit is refused
     * (zdecode's cap) and the symbol shown as it is */
    size_t room = 4 * len + 200;
    struct sym_name *r = malloc(sizeof *r + len + 1 + room);
    if (!r)
        return NULL;
    char *at = r->text, *end = r->text + len + 1 + room;
    memcpy(at, symbol, len + 1);
    r->symbol = at;
    at += len + 1;
    r->package = r->module = "";
    r->name = r->symbol;
    r->kind = SYM_RAW;
    static const char info[] = "_info", con[] = "_con";
    if (len <= strlen(info) || strcmp(symbol + len - strlen(info), info) != 0)
        return r;
    size_t base_len = len - strlen(info);
    const char *runtime = strncmp(symbol, "stg_", 4) == 0     ? symbol + 4
                          : strncmp(symbol, "__stg_", 6) == 0 ? symbol + 6 : NULL;
    if (runtime) {
        /* the runtime's tables are C names, not z-encoded: stg_STACK_info is STACK */
        size_t n = base_len - (size_t)(runtime - symbol);
        if (n == 0)
            return r;
        memcpy(at, runtime, n);
        at[n] = '\0';
        r->name = at;
        r->package = "rts";
        r->kind = SYM_RUNTIME;
        return r;
    }
    r->kind = SYM_CLOSURE;
    if (base_len > strlen(con) && memcmp(symbol + base_len - strlen(con), con, strlen(con)) == 0) {
        r->kind = SYM_CONSTRUCTOR;
        base_len -= strlen(con);
    }
    if (!haskell_parts(r, symbol, base_len, at, end)) {
        r->kind = SYM_RAW;
        r->package = r->module = "";
        r->name = r->symbol;
    }
    return r;
}

uint64_t symnames_symbol_address(uint64_t census_address, unsigned word_bytes, bool profiled)
{
    /* StgInfoTable before the entry code: layout, type and SRT field in two words;
     * StgProfInfo's two offset words before them in a profiled program */
    return census_address + (uint64_t)word_bytes * (profiled ? 4 : 2);
}

bool symnames_label_address(const char *label, size_t len, uint64_t *address)
{
    if (len < 3 || len > 18 || label[0] != '0' || label[1] != 'x')
        return false;
    uint64_t a = 0;
    for (size_t i = 2; i < len; i++) {
        char c = label[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return false;
        a = a << 4 | (uint64_t)d;
    }
    *address = a;
    return true;
}

bool symnames_rts_profiled(const char *rts_identifier)
{
    /* "GHC-9.10.3 rts_thr_p": the runtime's way, its tags joined by '_' */
    const char *way = rts_identifier ? strstr(rts_identifier, "rts_") : NULL;
    if (!way)
        return false;
    for (const char *p = way + 4; *p;) {
        size_t n = strcspn(p, "_ ");
        if (n == 1 && *p == 'p')
            return true;
        p += n;
        if (*p == ' ')
            break;
        if (*p)
            p++;
    }
    return false;
}

struct elf_symbols *symnames_read(const char *path, struct ev_error *err)
{
    return elfsyms_read(path, "_info", err);
}

struct sym_name *symnames_lookup(const struct elf_symbols *symbols, const char *label,
                                 size_t len, bool profiled)
{
    uint64_t address;
    size_t first;
    errno = 0;
    if (!symnames_label_address(label, len, &address))
        return NULL;
    uint64_t at = symnames_symbol_address(address, elfsyms_word_bytes(symbols), profiled);
    size_t count = elfsyms_at(symbols, at, &first);
    /* aliases: the first (in name order) that is a name GHC writes, else the first */
    struct sym_name *found = NULL;
    for (size_t i = first; i < first + count; i++) {
        struct sym_name *r = symnames_parse(elfsyms_name(symbols, i));
        if (!r) {
            free(found);
            errno = ENOMEM;
            return NULL;
        }
        if (!found || (found->kind == SYM_RAW && r->kind != SYM_RAW)) {
            free(found);
            found = r;
        } else
            free(r);
    }
    return found;
}
