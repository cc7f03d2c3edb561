/* textout.c: CSV quoting, band names into JSON, times (see textout.h). */
#include "sink/textout.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "base/utf8.h"
#include "census/autogroup.h"
#include "model/breakdown.h"
#include "read/evdecode.h"

/* CSV's one escape inside quotes: a quote doubled. */
static const char *csv_escape(unsigned char c)
{
    return c == '"' ? "\"\"" : NULL;
}

static const char *no_escape(unsigned char c)
{
    (void)c;
    return NULL;
}

void textout_utf8(FILE *out, const char *s, size_t len)
{
    textout_escaped(out, s, len, no_escape);
}

void textout_csv_field(FILE *out, const char *s, size_t len)
{
    /* A cell a spreadsheet would evaluate (OWASP's "CSV injection": =, +, -, @, and a
     * tab or CR before one of them) is made text by a leading apostrophe, which
     * spreadsheets take as "this cell is text", inside quotes: a field beginning with an
     * apostrophe unquoted makes gnumeric guess that the apostrophe is the file's quote */
    bool formula = len > 0 && strchr("=+-@\t\r", s[0]);
    bool quote = formula;
    for (size_t i = 0; i < len && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (quote)
        fputc('"', out);
    if (formula)
        fputc('\'', out);
    textout_escaped(out, s, len, quote ? csv_escape : no_escape);
    if (quote)
        fputc('"', out);
}

/* The piece of s (len bytes) that byte i starts, as textout_escaped writes it: escape's
 * replacement, a whole UTF-8 character, or U+FFFD for a byte that starts none. Sets
 * *piece and *piece_len; returns the bytes of s it stands for. */
static size_t escaped_piece(const char *s, size_t len, size_t i,
                            const char *(*escape)(unsigned char c), const char **piece,
                            size_t *piece_len)
{
    const unsigned char *p = (const unsigned char *)s;
    const char *replacement = p[i] < 0x80 ? escape(p[i]) : NULL;
    if (replacement) {
        *piece = replacement;
        *piece_len = strlen(replacement);
        return 1;
    }
    size_t n = utf8_sequence(p + i, len - i);
    *piece = n ? s + i : "\xef\xbf\xbd";   /* U+FFFD */
    *piece_len = n ? n : 3;
    return n ? n : 1;
}

void textout_escaped(FILE *out, const char *s, size_t len,
                     const char *(*escape)(unsigned char c))
{
    const char *piece;
    size_t piece_len;
    for (size_t i = 0; i < len;) {
        i += escaped_piece(s, len, i, escape, &piece, &piece_len);
        fwrite(piece, 1, piece_len, out);
    }
}

/* Plain text's escapes (textout.h): control characters as \xHH. */
static const char *plain_escape(unsigned char c)
{
    static const char *const controls[32] = {
        "\\x00", "\\x01", "\\x02", "\\x03", "\\x04", "\\x05", "\\x06", "\\x07",
        "\\x08", "\\x09", "\\x0a", "\\x0b", "\\x0c", "\\x0d", "\\x0e", "\\x0f",
        "\\x10", "\\x11", "\\x12", "\\x13", "\\x14", "\\x15", "\\x16", "\\x17",
        "\\x18", "\\x19", "\\x1a", "\\x1b", "\\x1c", "\\x1d", "\\x1e", "\\x1f",
    };
    return c < 0x20 ? controls[c] : c == 0x7f ? "\\x7f" : NULL;
}

void textout_plain(FILE *out, const char *s, size_t len)
{
    textout_escaped(out, s, len, plain_escape);
}

size_t textout_plain_copy(const char *s, size_t len, char *buf, size_t cap)
{
    const char *piece;
    size_t piece_len, used = 0;
    for (size_t i = 0; i < len;) {
        size_t step = escaped_piece(s, len, i, plain_escape, &piece, &piece_len);
        if (used + piece_len > cap - 1)
            break;   /* whole characters and escapes only */
        memcpy(buf + used, piece, piece_len);
        used += piece_len;
        i += step;
    }
    buf[used] = '\0';
    return used;
}

/* Markdown's escapes (textout.h): HTML entities, control characters as spaces, and the
 * punctuation Markdown gives a meaning backslash-escaped. */
/* HTML text and attribute values (in double quotes). */
static const char *html_escape(unsigned char c)
{
    return c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;"
                                                                           : NULL;
}

void textout_html(FILE *out, const char *s, size_t len)
{
    textout_escaped(out, s, len, html_escape);
}

static const char *markdown_escape(unsigned char c)
{
    static const char punctuation[] = "\\`*_[]|~!#$:";   /* '@': textout_markdown */
    static const char *const backslashed[] = { "\\\\", "\\`", "\\*", "\\_", "\\[", "\\]", "\\|",
                                               "\\~", "\\!", "\\#", "\\$", "\\:" };
    _Static_assert(sizeof backslashed / sizeof *backslashed == sizeof punctuation - 1,
                   "one escape per punctuation character");
    switch (c) {
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '&': return "&amp;";
    case '"': return "&quot;";
    }
    if (c < 0x20 || c == 0x7f)
        return " ";
    const char *at = strchr(punctuation, c);
    return at ? backslashed[at - punctuation] : NULL;
}

/* GitHub's autolink extension links text that merely looks like an address: an email
 * address is found around an '@' whatever escapes stand beside it (cmark-gfm looks at the
 * text after they are undone), so a WORD JOINER (U+2060, invisible, no break) goes before
 * each '@'; "www." is found as written, so its '.' is escaped. Schemes ("http:",
 * "mailto:") need a ':', which markdown_escape escapes. */
static const char word_joiner_at[] = "\xe2\x81\xa0\\@";

void textout_markdown(FILE *out, const char *s, size_t len)
{
    const char *piece;
    size_t piece_len;
    for (size_t i = 0; i < len;) {
        if (s[i] == '@') {
            fputs(word_joiner_at, out);
            i++;
        } else if (s[i] == '.' && i >= 3 && strncasecmp(s + i - 3, "www", 3) == 0) {
            fputs("\\.", out);
            i++;
        } else {
            i += escaped_piece(s, len, i, markdown_escape, &piece, &piece_len);
            fwrite(piece, 1, piece_len, out);
        }
    }
}

/* The length of the bytes before a runtime-cut label's "..." that are the start of a
 * character the cut split (ccslabel.c cuts by bytes, as the runtime does), or 0. */
static size_t split_character(const char *label, size_t len)
{
    if (len < 4 || memcmp(label + len - 3, "...", 3) != 0)
        return 0;
    size_t end = len - 3, start = end;
    while (start > 0 && end - start < 3 && ((unsigned char)label[start - 1] & 0xc0) == 0x80)
        start--;
    if (start == 0 || (unsigned char)label[start - 1] < 0xc0)
        return 0;
    start--;   /* the lead byte */
    return utf8_sequence((const unsigned char *)label + start, end - start) == 0 ? end - start
                                                                                : 0;
}

void textout_json_run_names(struct json_writer *w, const struct run_info *info, bool lines)
{
    char scratch[32];
    json_member_cstring(w, "program", info->program);
    if (lines)
        json_newline(w);
    json_member_cstring(w, "rts", info->rts_version);
    if (lines)
        json_newline(w);
    json_member_cstring(w, "breakdown",
                        info->has_heap_profile && info->breakdown != BREAKDOWN_UNKNOWN
                            ? breakdown_words(info->breakdown, scratch, sizeof scratch)
                            : NULL);
}

void textout_json_band_names(struct json_writer *w, const struct bands *b,
                             const struct costcentres *ccs, uint32_t band)
{
    size_t len;
    const char *label = bands_label(b, band, &len);
    size_t ids_len;
    const unsigned char *ids = bands_stack_ids(b, band, &ids_len);
    json_key(w, "hp_label");
    size_t split = ids ? split_character(label, len) : 0;
    if (split) {
        /* JSON holds whole characters: the split one's bytes are left out */
        char cut[CCS_LENGTH_MAX + 1];
        size_t body = len - 3 - split;
        memcpy(cut, label, body);
        memcpy(cut + body, "...", 3);
        json_string(w, cut, body + 3);
    } else {
        json_string(w, label, len);
    }
    if (!ids || !ccs)
        return;
    struct ev_ccs stack = { (unsigned)(ids_len / 4), ids };
    json_key(w, "stack");
    json_array_begin(w);
    for (unsigned i = 0; i < stack.depth; i++) {
        uint32_t number = ev_ccs_id(&stack, i);
        struct ccs_name name;
        json_object_begin(w);
        json_key(w, "label");
        if (costcentres_lookup(ccs, number, &name)) {
            json_string(w, name.label, name.label_len);
            json_member_string(w, "module", name.module, name.module_len);
            json_member_cstring(w, "srcloc", costcentres_srcloc(ccs, number));
        } else {
            /* named as the census names it in the band's label */
            char unknown[16];
            int n = snprintf(unknown, sizeof unknown, "#%" PRIu32, number);
            json_string(w, unknown, (size_t)n);
            json_key(w, "module");
            json_null(w);
            json_key(w, "srcloc");
            json_null(w);
        }
        json_object_end(w);
    }
    json_array_end(w);
}

/* ns to the nearest microsecond (half up), without overflow near UINT64_MAX. */
static uint64_t microseconds(uint64_t ns)
{
    return ns / 1000 + (ns % 1000 >= 500);
}

void textout_seconds(FILE *out, uint64_t ns)
{
    uint64_t us = microseconds(ns);
    fprintf(out, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}

void textout_json_seconds(struct json_writer *w, uint64_t ns)
{
    json_decimal(w, microseconds(ns), 6);
}

void textout_json_member_seconds(struct json_writer *w, const char *key, uint64_t ns)
{
    json_key(w, key);
    textout_json_seconds(w, ns);
}

bool textout_json_section(struct json_writer *w, const char *key, bool present)
{
    json_newline(w);
    json_key(w, key);
    if (present)
        json_object_begin(w);
    else
        json_null(w);
    return present;
}

void textout_json_member_seconds_or_null(struct json_writer *w, const char *key, bool known,
                                         uint64_t ns)
{
    json_key(w, key);
    if (known)
        textout_json_seconds(w, ns);
    else
        json_null(w);
}

void textout_json_member_window(struct json_writer *w, uint64_t from_ns, bool has_to,
                                uint64_t to_ns)
{
    json_key(w, "window");
    json_object_begin(w);
    textout_json_member_seconds(w, "from_s", from_ns);
    textout_json_member_seconds_or_null(w, "to_s", has_to, to_ns);
    json_object_end(w);
}

void textout_json_grouped_by(struct json_writer *w, const struct autogroup *a)
{
    char text[AUTOGROUP_NOTE_MAX], undo[32];
    if (!a)
        return;
    json_key(w, "grouped_by");
    json_object_begin(w);
    json_member_cstring(w, "key", group_key_name(a->key, a->stacks));
    autogroup_reason(a, text, sizeof text);
    json_member_cstring(w, "reason", text);
    json_member_double_fixed(w, "other_share_of_peak", a->other_share, 4);
    json_member_double_fixed(w, "grouped_other_share_of_peak", a->grouped_share, 4);
    snprintf(undo, sizeof undo, "--group-by %s", autogroup_undo(a));
    json_member_cstring(w, "undo", undo);
    autogroup_note(a, text, sizeof text);
    json_member_cstring(w, "note", text);
    json_object_end(w);
}
