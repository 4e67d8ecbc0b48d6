"""agree.py - for `make bench`: how far a peer's O is from attnstep's.

    agree.py ATTNSTEP_O.json PEER_O.npy TOL [Y]

Prints the largest |difference| of one cell; exit status 1 when the shapes differ or
it is above TOL. With Y: the block's output, attnstep's "block": {"Y"}, against the peer's.
"""
import json
import sys

import numpy as np

js = json.load(open(sys.argv[1]))
ours = np.array(js["block"]["Y"] if len(sys.argv) > 4 else js["O"], dtype=np.float64)
theirs = np.load(sys.argv[2])
if ours.shape != theirs.shape:
    print(f"shape {theirs.shape}")
    sys.exit(1)
diff = float(np.max(np.abs(ours - theirs)))
print(f"{diff:.2g}")
sys.exit(0 if diff <= float(sys.argv[3]) else 1)
