# pe-chapter.py - made F12-positions.zh.txt and its two errata once (numpy, float64);
# tests read the text only. Run from the top directory:
#   /usr/bin/python3 tests/data/verify/pe-chapter.py > tests/data/verify/F12-positions.zh.txt
#   /usr/bin/python3 tests/data/verify/pe-chapter.py base100 > tests/data/verify/F12-base100.zh.txt
#   /usr/bin/python3 tests/data/verify/pe-chapter.py swapped > tests/data/verify/F12-swapped.zh.txt
# The errata are the same chapter with its table made wrong as happy-llm #174 printed it
# (base 100 for 10000) or with sin and cos swapped (cos in the even columns); the text
# around the table is the same, so each erratum is found at the places of the clean one.
# The table: PE[p][2i] = sin(p / 10000^(2i/d)), PE[p][2i+1] = cos(...), p = 0..3, d = 4,
# printed to 4 decimals as a chapter prints it (rounded, the columns padded).
import sys

import numpy as np

variant = sys.argv[1] if len(sys.argv) > 1 else ""
n, d, base = 4, 4, 100.0 if variant == "base100" else 10000.0
p = np.arange(n, dtype=np.float64)[:, None]
i2 = np.arange(d, dtype=np.float64)[None, :] // 2 * 2
angle = p / base ** (i2 / d)
even = np.arange(d)[None, :] % 2 == 0
if variant == "swapped":
    even = ~even
pe = np.where(even, np.sin(angle), np.cos(angle))

def cell(x):
    # exact numbers (sin 0, cos 0) as the integers they are; the rest rounded
    return "%d" % x if x in (0.0, 1.0) else "%.4f" % x

cells = [[cell(x) for x in row] for row in pe]
width = max(len(c) for row in cells for c in row)
print("F12｜位置编码：让注意力分得清先后")
print()
print("注意力本身不看顺序：把“我爱你”换成“你爱我”，每个位置收到的分数只是换了位置。")
print("原论文的做法是给每个位置一排固定的数，加到输入X上，再做投影。")
print()
print("第p行、第2i列用sin，第2i+1列用cos，频率是1/10000^(2i/d)。取d=4、四个位置：")
print()
for r, row in enumerate(cells):
    head = "PE ≈ [[" if r == 0 else "      ["
    tail = "]]" if r == n - 1 else "],"
    print(head + ", ".join(c.rjust(width) for c in row) + tail + "      第%d行在位置%d" % (r, r))
print("形状：[4,4] = [位置数, 每个位置的特征数]")
print()
print("第0行总是[0, 1, 0, 1]：sin 0 = 0，cos 0 = 1。后两列的频率只有前两列的1/100，变化慢得多。")
