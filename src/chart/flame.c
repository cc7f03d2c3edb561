/* flame.c: the flame and icicle graphs of weighted stacks (see flame.h).
 *
 * The tree is walked depth first with an explicit stack (a deep recursion in the
 * profiled program must not become one here); each node's x is decided when its parent
 * is drawn, from its siblings sorted by name.
 */
#include "chart/flame.h"
#include "chart/colors.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/order.h"
#include "base/utf8.h"

#define MARGIN 16.0
#define TITLE_SIZE 18.0
#define SUBTITLE_SIZE 12.0
#define FRAME_SIZE 11.0
#define ROW 17.0
#define MIN_FRAME 0.33          /* narrower frames are not drawn (their parent shows them) */
#define NAME_MAX_ 4096
#define KEY_ROW 18.0            /* a differential graph's colour key */


struct flame {
    const struct stacks *s;
    const struct stacks_tree *tree;
    bool bytes, diff;
    bool normalize;             /* differential: change of share (--diff-normalize) */
    struct textmeasure *tm;
    struct display_list *dl;
    bool failed;
    bool icicle;
    double left, width, top, bottom;
    unsigned rows;              /* depths 0 .. rows-1 are drawn */
    uint64_t root_total, root_base;
    uint64_t narrow, deep;      /* frames not drawn */
    char name[NAME_MAX_];
    char shown[NAME_MAX_];
};

static void check(struct flame *F, const void *item)
{
    if (!item)
        F->failed = true;
}

/* A node's frame name into out (valid UTF-8 is the caller's check); the root is "all". */
static void node_name(const struct flame *F, uint32_t node, char *out, size_t size)
{
    size_t len;
    const char *name = node == 0 ? "all"
                                 : stacks_frame_name(F->s, F->tree->nodes[node].frame, &len);
    if (node == 0)
        len = 3;
    if (len >= size)
        len = utf8_boundary(name, size - 1);   /* never inside a character */
    memcpy(out, name, len);
    out[len] = '\0';
}

/* The module's colour, lightened by up to 35 % by a hash of the label, so neighbouring
 * frames of one module stay apart while the module keeps its hue. */
static struct dl_color frame_color(struct dl_color module, const char *label, size_t len);

struct dl_color flame_frame_color(const struct stacks *s, uint32_t frame)
{
    size_t mlen, len;
    const char *m = stacks_frame_module(s, frame, &mlen);   /* NUL-terminated */
    const char *name = stacks_frame_name(s, frame, &len);
    /* the label: the name after "Module." */
    if (mlen && len > mlen && memcmp(name, m, mlen) == 0 && name[mlen] == '.')
        name += mlen + 1, len -= mlen + 1;
    return frame_color(chart_band_color(m), name, len);
}

static struct dl_color frame_color(struct dl_color module, const char *label, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)label[i]) * 16777619u;
    double t = (h % 1000) / 1000.0 * 0.35;
    module.r = (uint8_t)(module.r + (255 - module.r) * t);
    module.g = (uint8_t)(module.g + (255 - module.g) * t);
    module.b = (uint8_t)(module.b + (255 - module.b) * t);
    return module;
}

double flame_change_ratio(uint64_t now, uint64_t base, uint64_t now_total,
                          uint64_t base_total, bool normalize)
{
    if (base == 0)
        return now ? INFINITY : 1;   /* new in this run, or in neither */
    if (normalize && now_total && base_total)
        return ((double)now / (double)now_total) / ((double)base / (double)base_total);
    return (double)now / (double)base;
}

struct dl_color flame_change_color(double ratio)
{
    static const struct dl_color none = { 0xe4, 0xe4, 0xe4, 255 };
    static const struct dl_color grew = { 0xd7, 0x19, 0x1c, 255 };    /* red */
    static const struct dl_color shrank = { 0x2c, 0x5f, 0xd0, 255 };  /* blue */
    if (isnan(ratio) || ratio == 1)
        return none;
    /* log2 of the ratio: doubling and halving are equal steps apart from no change, and
     * a change of a few percent stays a tint */
    double t = ratio <= 0 ? 1 : fabs(log2(ratio));
    if (t > FLAME_FULL_CHANGE)
        t = FLAME_FULL_CHANGE;
    t /= FLAME_FULL_CHANGE;
    struct dl_color to = ratio > 1 ? grew : shrank;
    return (struct dl_color){ (uint8_t)lround(none.r + (to.r - none.r) * t),
                              (uint8_t)lround(none.g + (to.g - none.g) * t),
                              (uint8_t)lround(none.b + (to.b - none.b) * t), 255 };
}

static int64_t change_of(const struct stacks_node *n)
{
    uint64_t a = n->total[STACKS_NOW], b = n->total[STACKS_BASE];
    uint64_t d = a >= b ? a - b : b - a;
    int64_t m = d > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)d;
    return a >= b ? m : -m;
}

/* A value as the graph counts: "1234 samples", or bytes ("12.3 MiB"). */
static void value_text(const struct flame *F, uint64_t v, char *out, size_t size)
{
    if (F->bytes)
        format_bytes((double)v, out, size);
    else
        snprintf(out, size, "%" PRIu64 " samples", v);
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void draw_frame(struct flame *F, uint32_t node, double x, double w)
{
    const struct stacks_node *n = &F->tree->nodes[node];
    double y = F->icicle ? F->top + n->depth * ROW : F->bottom - (n->depth + 1) * ROW;
    struct dl_color fill;
    if (F->diff)
        fill = flame_change_color(flame_change_ratio(n->total[STACKS_NOW],
                                                     n->total[STACKS_BASE], F->root_total,
                                                     F->root_base, F->normalize));
    else if (node == 0)
        fill = (struct dl_color){ 0xc4, 0xc4, 0xc4, 255 };
    else
        fill = flame_frame_color(F->s, n->frame);
    node_name(F, node, F->name, sizeof F->name);
    char *copy = NULL;
    const char *name = utf8_valid(F->name, &copy);
    if (!name) {
        F->failed = true;
        return;
    }
    struct dl_item *r = display_rect(F->dl, x, y, w, ROW - 1, fill, COLOR_WHITE, 0.5, "frame");
    check(F, r);
    /* The tooltip: the whole name, where it is, and its values. */
    char tip[NAME_MAX_ + 512], total[40], self[40];
    value_text(F, n->total[STACKS_NOW], total, sizeof total);
    value_text(F, n->self[STACKS_NOW], self, sizeof self);
    /* the root: "all: 544 samples" */
    int k = node == 0 ? snprintf(tip, sizeof tip, "all: %s%s", total, F->diff ? " in this run" : "")
                      : snprintf(tip, sizeof tip, "%s", name);
    if (node != 0 && k > 0 && (size_t)k < sizeof tip) {
        size_t mlen;
        const char *module = stacks_frame_module(F->s, n->frame, &mlen);
        const char *detail = stacks_frame_detail(F->s, n->frame);
        if (mlen || *detail)
            k += snprintf(tip + k, sizeof tip - (size_t)k, "\n%s%.*s%s%s", mlen ? "module " : "",
                          (int)mlen, module, mlen && *detail ? ", " : "", detail);
    }
    if (node != 0 && k > 0 && (size_t)k < sizeof tip)
        k += format_snprintf(tip + k, sizeof tip - (size_t)k, "\n%s (%.2f %%)%s", total,
                             percent(n->total[STACKS_NOW], F->root_total),
                             F->diff ? " in this run" : "");
    if (node != 0 && !F->diff && k > 0 && (size_t)k < sizeof tip)
        k += format_snprintf(tip + k, sizeof tip - (size_t)k, ", %s in the frame itself "
                             "(%.2f %%)", self, percent(n->self[STACKS_NOW], F->root_total));
    if (F->diff && k > 0 && (size_t)k < sizeof tip) {
        char base[40], change[40];
        int64_t d = change_of(n);
        value_text(F, n->total[STACKS_BASE], base, sizeof base);
        value_text(F, (uint64_t)(d < 0 ? -d : d), change, sizeof change);
        k += format_snprintf(tip + k, sizeof tip - (size_t)k, "\n%s (%.2f %%) in the base"
                             "\nchange %c%s", base, percent(n->total[STACKS_BASE], F->root_base),
                             d < 0 ? '-' : '+', change);
        if (n->total[STACKS_BASE] && k > 0 && (size_t)k < sizeof tip)
            k += format_snprintf(tip + k, sizeof tip - (size_t)k, " (%+.1f %%)",
                                 100.0 * (double)d / (double)n->total[STACKS_BASE]);
        /* normalised, the colour follows the share: say its change too */
        double ratio = flame_change_ratio(n->total[STACKS_NOW], n->total[STACKS_BASE],
                                          F->root_total, F->root_base, true);
        if (F->normalize && isfinite(ratio) && k > 0 && (size_t)k < sizeof tip)
            format_snprintf(tip + k, sizeof tip - (size_t)k, "; of the run's total %+.1f %%",
                            100.0 * (ratio - 1));
    }
    char *tip_copy = NULL;
    const char *tip_ok = utf8_valid(tip, &tip_copy);
    if (r && (!tip_ok || display_set_title(r, tip_ok) != 0))
        F->failed = true;
    free(tip_copy);
    /* The label, when at least one character and the ellipsis fit. */
    double room = w - 6;
    if (room > text_width(F->tm, "W\xe2\x80\xa6", FRAME_SIZE, false)) {
        text_elide_end(F->tm, name, FRAME_SIZE, false, room, F->shown, sizeof F->shown);
        check(F, display_text(F->dl, x + 3, y + ROW - 5, F->shown, FRAME_SIZE,
                              chart_text_on(fill), DL_ANCHOR_START, false, 0, "frame-label"));
    }
    free(copy);
}

/* A child to sort, named by the stored frame name itself (no copy). */
struct sibling {
    uint32_t node;
    const char *name;
    size_t len;
};

static int by_name(const void *a, const void *b)
{
    const struct sibling *x = a, *y = b;
    int c = order_bytes(x->name, x->len, y->name, y->len);
    return c ? c : order_u64(x->node, y->node);
}

struct pending {
    uint32_t node;
    double x;
};

static int walk(struct flame *F)
{
    const struct stacks_tree *t = F->tree;
    struct pending *stack = malloc(t->count * sizeof *stack);
    struct sibling *sib = malloc(t->count * sizeof *sib);
    if (!stack || !sib) {
        free(stack);
        free(sib);
        return -1;
    }
    size_t top = 0;
    stack[top++] = (struct pending){ 0, F->left };
    double scale = F->width / (double)F->root_total;
    while (top > 0 && !F->failed) {
        struct pending p = stack[--top];
        const struct stacks_node *n = &t->nodes[p.node];
        double w = (double)n->total[STACKS_NOW] * scale;
        if (n->depth >= F->rows) {
            F->deep++;
            continue;
        }
        if (w < MIN_FRAME) {
            F->narrow += n->total[STACKS_NOW] > 0;   /* a base-only frame has no width */
            continue;
        }
        draw_frame(F, p.node, p.x, w);
        size_t k = 0;
        for (uint32_t c = n->first_child; c != UINT32_MAX; c = t->nodes[c].next_sibling) {
            sib[k].node = c;
            sib[k].name = stacks_frame_name(F->s, t->nodes[c].frame, &sib[k].len);
            k++;
        }
        if (k > 1)
            qsort(sib, k, sizeof *sib, by_name);
        /* pushed last to first, so the first is drawn first */
        double x = p.x;
        for (size_t i = 0; i < k; i++) {
            uint32_t c = sib[i].node;
            double cx = x;
            x += (double)t->nodes[c].total[STACKS_NOW] * scale;
            stack[top + k - 1 - i] = (struct pending){ c, cx };
        }
        top += k;
    }
    free(stack);
    free(sib);
    return F->failed ? -1 : 0;
}

/* The colour key of a differential graph, on the line whose baseline is y: what the
 * colour measures (flame_change_ratio's two ways), then swatches from halved to doubled,
 * the ends being full colour (FLAME_FULL_CHANGE). */
static void draw_key(struct flame *F, double y)
{
    static const struct { double ratio; const char *label; } steps[] = {
        { 0.5, "\xe2\x89\xa4 \xe2\x88\x92" "50 %" }, { 0.75, "\xe2\x88\x92" "25 %" },
        { 1.0, "\xc2\xb1" "0" }, { 1.5, "+50 %" }, { 2.0, "\xe2\x89\xa5 +100 %" },
    };
    char text[256], shown[256];
    const char *unit = F->bytes ? "bytes" : "samples";
    if (F->normalize)
        snprintf(text, sizeof text, "colour: change of each frame's share of its run's %s "
                 "(as difffolded.pl -n); full red: share doubled, full blue: halved", unit);
    else
        snprintf(text, sizeof text, "colour: change of each frame's %s (as pprof "
                 "-diff_base); full red: doubled or more, full blue: halved or less", unit);
    /* the swatches' room first: the words give way (elided) on a narrow graph */
    double swatch = 10, gap = 6, room = 0;
    double widths[sizeof steps / sizeof *steps];
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        widths[i] = text_width(F->tm, steps[i].label, SUBTITLE_SIZE, false);
        room += swatch + 4 + widths[i] + gap * 2;
    }
    double words = F->width - room;
    double x = F->left;
    if (words > 40) {
        text_elide_end(F->tm, text, SUBTITLE_SIZE, false, words, shown, sizeof shown);
        check(F, display_text(F->dl, x, y, shown, SUBTITLE_SIZE, COLOR_QUIET, DL_ANCHOR_START,
                              false, 0, "key"));
        x += text_width(F->tm, shown, SUBTITLE_SIZE, false) + gap * 2;
    }
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        struct dl_item *r = display_rect(F->dl, x, y - swatch + 1, swatch, swatch,
                                         flame_change_color(steps[i].ratio), COLOR_AXIS, 0.5,
                                         "key");
        check(F, r);
        x += swatch + 4;
        check(F, display_text(F->dl, x, y, steps[i].label, SUBTITLE_SIZE, COLOR_QUIET,
                              DL_ANCHOR_START, false, 0, "key"));
        x += widths[i] + gap * 2;
    }
}

static const char *title_of(const struct chart_options *opt, const struct run_info *info,
                            const char *input_name)
{
    if (opt->title && *opt->title)
        return opt->title;
    if (info && info->program && *info->program)
        return info->program;
    return input_name && *input_name ? input_name : "flame graph";
}

int flame_layout(const struct flame_input *in, bool icicle, const struct run_info *info,
                 const char *input_name, const struct chart_options *opt,
                 struct textmeasure *tm, struct display_list *dl)
{
    struct stacks_tree tree;
    display_init(dl, opt->width, opt->height, COLOR_WHITE);
    if (stacks_tree(in->stacks, &tree) != 0) {
        display_free(dl);
        return -1;
    }
    bool diff = stacks_differential(in->stacks);
    double key = diff ? KEY_ROW : 0;   /* the colour key's line, above the note */
    /* Without --height, no taller than the deepest stack needs (title, rows, note). */
    if (!opt->height_given) {
        double need = MARGIN + TITLE_SIZE * 0.8 + SUBTITLE_SIZE + 9 + 14 +
                      (tree.max_depth + 1) * ROW + 8 + key + SUBTITLE_SIZE + 8 + MARGIN;
        need = ceil(need);
        if (need < CHART_MIN_SIZE)
            need = CHART_MIN_SIZE;
        if (need < dl->height)
            dl->height = need;
    }
    struct flame F = { .s = in->stacks, .tree = &tree, .tm = tm, .dl = dl, .icicle = icicle,
                       .bytes = in->bytes, .diff = diff };
    F.root_total = tree.nodes[0].total[STACKS_NOW];
    F.root_base = tree.nodes[0].total[STACKS_BASE];
    F.normalize = opt->diff_normalize;
    char buf[NAME_MAX_], line[NAME_MAX_];
    const char *title = title_of(opt, info, input_name);
    char *copy = NULL;
    const char *valid = utf8_valid(title, &copy);
    if (!valid || display_set_document_title(dl, valid) != 0)
        F.failed = true;
    double avail = dl->width - 2 * MARGIN;
    if (valid) {
        bool cut = text_elide_end(tm, valid, TITLE_SIZE, true, avail, buf, sizeof buf);
        struct dl_item *it = display_text(dl, MARGIN, MARGIN + TITLE_SIZE * 0.8, buf, TITLE_SIZE,
                                          COLOR_INK, DL_ANCHOR_START, true, 0, "title");
        check(&F, it);
        if (it && cut && display_set_title(it, valid) != 0)
            F.failed = true;
    }
    free(copy);
    /* Subtitle: what the picture is and how much it covers. */
    int n = snprintf(line, sizeof line, "%s%s graph of %s", F.diff ? "differential " : "",
                     icicle ? "icicle" : "flame", in->what);
    if (info && info->rts_version && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "  \xc2\xb7  %s", info->rts_version);
    text_elide_end(tm, line, SUBTITLE_SIZE, false, avail, buf, sizeof buf);
    double sub_y = MARGIN + TITLE_SIZE * 0.8 + SUBTITLE_SIZE + 9;
    check(&F, display_text(dl, MARGIN, sub_y, buf, SUBTITLE_SIZE, COLOR_QUIET, DL_ANCHOR_START,
                           false, 0, "subtitle"));
    F.left = MARGIN;
    F.width = avail;
    F.top = sub_y + 14;
    F.bottom = dl->height - MARGIN - SUBTITLE_SIZE - 8 - key;
    double rows = floor((F.bottom - F.top) / ROW);
    F.rows = rows > 0 ? (unsigned)rows : 0;
    if (F.root_total == 0) {
        check(&F, display_text(dl, dl->width / 2, (F.top + F.bottom) / 2,
                               in->bytes ? "no bytes in this census"
                                         : "no time-profile samples in this window", SUBTITLE_SIZE,
                               COLOR_QUIET, DL_ANCHOR_MIDDLE, false, 0, "note"));
    } else if (walk(&F) != 0) {
        F.failed = true;
    }
    /* What was not drawn, and why. */
    const char *how = icicle ? "root at the top" : "root at the bottom";
    n = snprintf(line, sizeof line, "width = %s including callees%s, %s, siblings by name",
                 in->bytes ? "bytes" : "samples", F.diff ? " in this run" : "", how);
    if (F.diff && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "  \xc2\xb7  frames only the base "
                      "has are not drawn");
    if (F.deep && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "  \xc2\xb7  %" PRIu64 " frame%s (with "
                      "callees) deeper than %u levels not drawn (--height)", F.deep,
                      F.deep == 1 ? "" : "s", F.rows);
    if (F.narrow && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "  \xc2\xb7  %" PRIu64 " frame%s (with "
                 "callees) too narrow to draw (--width)", F.narrow, F.narrow == 1 ? "" : "s");
    text_elide_end(tm, line, SUBTITLE_SIZE, false, avail, buf, sizeof buf);
    check(&F, display_text(dl, MARGIN, dl->height - MARGIN, buf, SUBTITLE_SIZE, COLOR_QUIET,
                           DL_ANCHOR_START, false, 0, "note"));
    if (diff)
        draw_key(&F, dl->height - MARGIN - SUBTITLE_SIZE - 8);
    stacks_tree_free(&tree);
    if (F.failed) {
        display_free(dl);
        return -1;
    }
    return 0;
}
