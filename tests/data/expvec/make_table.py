#!/usr/bin/python3
# make_table.py - the 2^(k/128) table of src/expvec.c, printed as C, from mpmath at 300
# bits: 2^(k/128) = H[k] * (1 + T[k]) with H[k] the double nearest 2^(k/128) and T[k]
# the double nearest the relative rest. Row k holds the bits of T[k], then the bits of
# H[k] less k << 45 (the exponent that 2^(k/128) carries is added back at run time).
# It is the split glibc's exp() stores (sysdeps/ieee754/dbl-64/e_exp_data.c); checked
# once (2026-12-01) against the 256 words libm.so.6 of Debian's glibc 2.36 holds at
# __exp_data.tab: all equal. Run: /usr/bin/python3 tests/data/expvec/make_table.py
import struct

import mpmath

mpmath.mp.prec = 300


def bits(d):
    return struct.unpack('<Q', struct.pack('<d', d))[0]


words = []
for k in range(128):
    v = mpmath.power(2, mpmath.mpf(k) / 128)
    h = float(v)  # mpmath rounds to the nearest double
    t = float((v - mpmath.mpf(h)) / mpmath.mpf(h))
    words += [bits(t), (bits(h) - (k << 45)) % 2**64]
for i in range(0, len(words), 4):
    print('    ' + ' '.join('0x%016xULL,' % w for w in words[i:i + 4]))
