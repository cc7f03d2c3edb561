"""report_table.py: the report's band table (data.run.table) made whole, as the page's
kit.unpackTable makes it (share/report/kit.js; ev2hp writes it in sink_html.c,
write_table): a stack's label from its frames' indices joined by '/', the runtime's label
given as a length from the label's first bytes and "...", the folded bands' packed values
(in the table's unit) and each band's bytes at the peak as numbers. The tests read the
rows through this, so a change of the format shows in them."""

DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def unpack_counts(text, unit=1):
    """The numbers of a packed string (kit.js, unpackCounts): differences from the last
    value other than zero, zigzag, in units; '-' a zero, '.' a run of zeros."""
    out, v, scale, run, last = [], 0, 1, False, 0
    for ch in text:
        if ch == "-":
            out.append(0)
            continue
        if ch == ".":
            run = True
            continue
        d = DIGITS.index(ch)
        v += (d & 31) * scale
        if d >= 32:
            scale *= 32
            continue
        if run:
            out += [0] * v
        else:
            last += -(v + 1) // 2 if v % 2 else v // 2
            out.append(last * unit)
        v, scale, run = 0, 1, False
    return out


def unpack_table(table):
    """The table with its rows made whole, in place; returns it."""
    frames = table.get("frames") or []
    for r in table["bands"]:
        if isinstance(r[0], list):
            r[0] = "/".join(frames[f] for f in r[0])
        if isinstance(r[1], int):
            r[1] = r[0][: r[1]] + "..."
        if isinstance(r[10], str):
            r[10] = unpack_counts(r[10], table.get("unit", 1))
    keys = table.get("group_by")
    if keys and isinstance(keys.get("peak"), str):
        keys["peak"] = unpack_counts(keys["peak"])
    return table

