/* tensor.h - the binary weight files of SPEC §16, whatever their format: sniffed by their
 * magic bytes, indexed by the reader of their format (npy.c, safetensors.c), and a
 * tensor or a slice of it read into doubles. */
#ifndef ATTNSTEP_TENSOR_H
#define ATTNSTEP_TENSOR_H

#include "attnstep/tensorfile.h"

/* The format that the first bytes head[0..len) of a file of size bytes announce. */
as_tensor_format as_tensor_sniff(const unsigned char *head, size_t len, uint64_t size);

/* Indexes the file path, open as fd (mem NULL) or held in mem[0..size) (fd -1), into f,
 * errors recorded at where. Returns 0, or -1 with the error set (f is then closed). */
int as_tensor_open(as_tensor_file *f, const char *path, int fd, const unsigned char *mem,
                   uint64_t size, as_tensor_where where);

/* Opens and indexes the file at path into f (a regular file only: a FIFO or a device is
 * refused without blocking), errors recorded at where; a file that is no binary weight
 * file is an error that says so. Returns 0, or -1 with the error set. */
int as_tensor_open_path(as_tensor_file *f, const char *path, as_tensor_where where);

/* Frees what as_tensor_open() allocated; closes the fd that as_tensor_open_path()
 * opened (an fd given to as_tensor_open() stays the caller's). */
void as_tensor_close(as_tensor_file *f);

/* The tensor named name[0..n) of f (a .npz member with or without ".npy"); with name
 * NULL, the file's only tensor. NULL with the error set when there is none, or when
 * name is NULL and f holds several. */
const as_tensor *as_tensor_find(as_tensor_file *f, const char *name, size_t n);

/* A part of a tensor: rows [r0, r1), columns [c0, c1) of the tensor seen as a matrix
 * (a 1-D tensor of n is one row of n). */
typedef struct as_tensor_slice { uint64_t r0, r1, c0, c1; } as_tensor_slice;

/* The matrix shape of t (rows, cols), or -1 with the error set when t is not 1-D or 2-D,
 * holds no element, or has a dtype that is not read. */
int as_tensor_matrix_shape(as_tensor_file *f, const as_tensor *t, uint64_t *rows, uint64_t *cols);

/* Reads the part s of t (within its shape, checked by the caller) into *out, a new array
 * of (r1-r0)*(c1-c0) doubles row-major that the caller frees. A NaN, a +inf, or a -inf
 * when neg_inf is 0, is an error naming the cell. Returns 0, or -1 with the error set. */
int as_tensor_read(as_tensor_file *f, const as_tensor *t, as_tensor_slice s, int neg_inf,
                   double **out);

#endif
