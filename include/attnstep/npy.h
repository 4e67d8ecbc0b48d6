/* npy.h - numpy's .npy (format versions 1.0, 2.0, 3.0) and numpy.savez's .npz (a ZIP of
 * stored .npy members, read from its central directory). */
#ifndef ATTNSTEP_NPY_H
#define ATTNSTEP_NPY_H

#include "attnstep/tensorfile.h"

/* Indexes the .npy held in bytes [base, base+len) of f into t (its name set): dtype,
 * shape, order and the place of its data, checked against len. 0 or -1. */
int as_npy_index(as_tensor_file *f, uint64_t base, uint64_t len, as_tensor *t);

/* Indexes the .npz f: one tensor per member, named without ".npy". 0 or -1. */
int as_npz_index(as_tensor_file *f);

#endif
