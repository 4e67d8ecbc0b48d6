# chapter_print.py - how block-chapter.py and rope-alibi-chapter.py print a number and
# a table, as F11 prints them: an integer without a point, else 10 decimals with the
# trailing zeros dropped (cut=True: the 10 decimals cut, not rounded, all kept), −∞ as
# the book writes it; a table's rows aligned under its "NAME = [[".
import numpy as np


def num(x, cut=False):
    if x == -np.inf:
        return "−∞"
    if x == round(x) and abs(x) < 1e15:
        return "%d" % x
    if cut:
        s = "%.12f" % x
        return s[: s.index(".") + 11]  # all 10 decimals kept, as the author printed them
    else:
        s = "%.10f" % x
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def block(name, m, caption=None, cut=None):
    cells = [[num(v, cut == (r, c)) for c, v in enumerate(row)] for r, row in enumerate(m)]
    width = max(len(c) for row in cells for c in row)
    lead = name + " = [["
    out = []
    for r, row in enumerate(cells):
        body = ", ".join(c.rjust(width) for c in row)
        out.append((lead if r == 0 else " " * (len(lead) - 1) + "[") + body +
                   ("]]" if r == len(cells) - 1 else "],"))
    return "\n".join(out)
