/* elfsyms.c: an ELF file's .symtab through libelf (see elfsyms.h). The kept names are
 * copied into one buffer, so the file is closed once read. */
#include "read/elfsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/order.h"

struct symbol {
    uint64_t address;
    size_t name;                /* offset in names */
    const char *text;           /* the name, once every name is in (for sorting) */
};

struct elf_symbols {
    struct symbol *items;
    size_t count, cap;
    char *names;
    size_t names_len, names_cap;
    unsigned word_bytes;
};

void elfsyms_free(struct elf_symbols *s)
{
    if (!s)
        return;
    free(s->items);
    free(s->names);
    free(s);
}

unsigned elfsyms_word_bytes(const struct elf_symbols *s) { return s->word_bytes; }
size_t elfsyms_count(const struct elf_symbols *s) { return s->count; }
const char *elfsyms_name(const struct elf_symbols *s, size_t i) { return s->names + s->items[i].name; }
uint64_t elfsyms_address(const struct elf_symbols *s, size_t i) { return s->items[i].address; }

/* qsort's order: address, then name (so aliases come in one order on every run). */
static int by_address(const void *a, const void *b)
{
    const struct symbol *x = a, *y = b;
    int c = order_u64(x->address, y->address);
    return c ? c : strcmp(x->text, y->text);
}

static bool ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k && memcmp(name + n - k, suffix, k) == 0;
}

static int keep(struct elf_symbols *s, const char *name, uint64_t address)
{
    size_t len = strlen(name);
    if (GROW_ARRAY(s->items, &s->cap, s->count + 1) != 0 ||
        GROW_ARRAY(s->names, &s->names_cap, s->names_len + len + 1) != 0)
        return -1;
    memcpy(s->names + s->names_len, name, len + 1);
    s->items[s->count++] = (struct symbol){ address, s->names_len, NULL };
    s->names_len += len + 1;
    return 0;
}

/* The section of type SHT_SYMTAB, or NULL. */
static Elf_Scn *symbol_table(Elf *e, GElf_Shdr *header)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn)) != NULL)
        if (gelf_getshdr(scn, header) && header->sh_type == SHT_SYMTAB)
            return scn;
    return NULL;
}

/* The symbols of e's symbol table ending with suffix into s: 0, or -1 with err set. */
static int read_symbols(Elf *e, struct elf_symbols *s, const char *suffix, struct ev_error *err)
{
    if (elf_kind(e) != ELF_K_ELF) {
        ev_error_set(err, "not an ELF file: --binary wants the program's executable");
        return -1;
    }
    int elf_class = gelf_getclass(e);
    s->word_bytes = elf_class == ELFCLASS32 ? 4 : 8;
    GElf_Shdr header;
    Elf_Scn *scn = symbol_table(e, &header);
    if (!scn) {
        ev_error_set(err, "no symbol table (the program is stripped): --binary wants the "
                     "executable as linked, or its debug file (objcopy --only-keep-debug)");
        return -1;
    }
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || header.sh_entsize == 0) {
        ev_error_set(err, "its symbol table cannot be read: %s", elf_errmsg(-1));
        return -1;
    }
    size_t n = header.sh_size / header.sh_entsize;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym)) {
            ev_error_set(err, "its symbol table cannot be read: %s", elf_errmsg(-1));
            return -1;
        }
        const char *name = elf_strptr(e, header.sh_link, sym.st_name);
        if (sym.st_shndx == SHN_UNDEF || !name || !ends_with(name, suffix))
            continue;
        if (keep(s, name, sym.st_value) != 0) {
            ev_error_set(err, "out of memory");
            return -1;
        }
    }
    if (s->count == 0) {
        ev_error_set(err, "no GHC info table (no symbol ending in %s) in its symbol table: "
                     "--binary wants the Haskell program that wrote the eventlog", suffix);
        return -1;
    }
    for (size_t i = 0; i < s->count; i++)
        s->items[i].text = s->names + s->items[i].name;
    qsort(s->items, s->count, sizeof *s->items, by_address);
    return 0;
}

struct elf_symbols *elfsyms_read(const char *path, const char *suffix, struct ev_error *err)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        ev_error_set(err, "libelf is out of date: %s", elf_errmsg(-1));
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        ev_error_set(err, "cannot open: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        ev_error_set(err, "not a regular file: --binary wants the program's executable");
        close(fd);
        return NULL;
    }
    struct elf_symbols *s = calloc(1, sizeof *s);
    Elf *e = s ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    int rc = -1;
    if (!s)
        ev_error_set(err, "out of memory");
    else if (!e)
        ev_error_set(err, "cannot read it as ELF: %s", elf_errmsg(-1));
    else
        rc = read_symbols(e, s, suffix, err);
    if (e)
        elf_end(e);
    close(fd);
    if (rc != 0) {
        elfsyms_free(s);
        return NULL;
    }
    return s;
}

size_t elfsyms_at(const struct elf_symbols *s, uint64_t address, size_t *first)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->items[mid].address < address)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < s->count && s->items[end].address == address)
        end++;
    *first = lo;
    return end - lo;
}
