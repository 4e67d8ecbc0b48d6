/* tensorfile.h - an indexed binary weight file (SPEC §16): numpy's .npy (versions 1.0, 2.0 and
 * 3.0), numpy.savez's .npz (a ZIP of stored .npy members) and .safetensors, told apart
 * by their magic bytes. A file is first indexed (every tensor's name, dtype, shape and
 * place, each checked against the file's size before anything is allocated), then a
 * tensor or a slice of it is read into doubles, exactly (float32, float16 and bfloat16
 * widen without rounding). The file is read with pread (never mapped: a file cut short
 * under a mapping kills the reader with SIGBUS), or from memory (the fuzzers' files).
 *
 * Errors name the file, the tensor, the byte and what was expected, in the user's
 * language; they are recorded at the position the caller gives (the load() in an input,
 * or none for `attnstep weights`). */
#ifndef ATTNSTEP_TENSORFILE_H
#define ATTNSTEP_TENSORFILE_H

#include <stddef.h>
#include <stdint.h>

#include "attnstep/error.h"

typedef enum as_tensor_format {
    AS_TF_NONE = 0, /* not a binary weight file (text, as numpy.savetxt writes) */
    AS_TF_NPY,
    AS_TF_NPZ,
    AS_TF_SAFETENSORS
} as_tensor_format;

/* The element types read; AS_DT_OTHER is listed by `weights` but not loaded. */
typedef enum as_dtype { AS_DT_F64, AS_DT_F32, AS_DT_F16, AS_DT_BF16, AS_DT_OTHER } as_dtype;

#define AS_TENSOR_MAX_DIMS 8 /* dimensions listed; more are an error of the header */

/* One tensor of a file. */
typedef struct as_tensor {
    char *name;           /* its name in the file, NUL-terminated (a lone .npy: ""); f's */
    char dtype_name[16];  /* as the file writes it: "<f4", "F32" */
    as_dtype dtype;
    unsigned itemsize;    /* bytes per element */
    int big_endian, fortran;
    size_t ndim;
    uint64_t shape[AS_TENSOR_MAX_DIMS];
    uint64_t offset;      /* where its first element is in the file */
    uint64_t bytes;       /* the bytes of its elements */
    uint64_t header;      /* where its description starts (errors about it name this byte) */
} as_tensor;

/* Where an error is recorded: err, at file:line:col (line 0: the file alone). */
typedef struct as_tensor_where {
    as_error *err;
    const char *file;
    int line, col;
} as_tensor_where;

/* An indexed file. */
typedef struct as_tensor_file {
    const char *path;     /* as errors name it (kept, not copied) */
    int fd;               /* read with pread, or -1 when mem holds the file */
    int own_fd;           /* nonzero when the fd is f's own, closed with it */
    const unsigned char *mem;
    uint64_t size;
    as_tensor_format format;
    as_tensor *t;         /* its tensors, in the file's order */
    size_t n, cap;
    as_tensor_where where;
} as_tensor_file;

/* Writes t's shape as numpy does, "(768, 2304)", "(768,)", "()", into buf. */
void as_tensor_shape_text(char *buf, size_t size, const as_tensor *t);

/* An array of n doubles that will be filled at once (a loaded matrix): for 2 MiB and
 * more, aligned to 2 MiB and marked for huge pages where the system offers them (a page
 * fault per 2 MiB instead of per 4 KiB); NULL when memory says no. free() frees it. */
double *as_tensor_big_array(size_t n);

/* p moved past the blanks (space, tab, line ends) of a header's text before end. */
const char *as_tensor_blanks(const char *p, const char *end);

/* Reads n bytes at offset off of f into buf; -1 (no error set) when the file ends first
 * or cannot be read. */
int as_tensor_pread(const as_tensor_file *f, uint64_t off, void *buf, size_t n);

/* Records the error msg (with its arguments) about the file at byte at (AS_TENSOR_NO_BYTE:
 * the file as a whole), about tensor name when not NULL nor "", with hint (AS_MSG_COUNT:
 * none). Returns -1. */
#define AS_TENSOR_NO_BYTE UINT64_MAX
int as_tensor_fail(as_tensor_file *f, const char *name, uint64_t at, as_msg hint, as_msg msg, ...);

/* "part (an AS_MSG_BIN_PART_*) runs to byte end, but the file (or the member) ends at
 * limit", at byte at. Returns -1. */
int as_tensor_past_end(as_tensor_file *f, const char *name, uint64_t at, as_msg part, uint64_t end,
                       uint64_t limit);

/* Appends a tensor named name[0..n) to f: a new entry, zeroed but for its name, or NULL
 * (out of memory, the error set). */
as_tensor *as_tensor_add(as_tensor_file *f, const char *name, size_t n);

/* Checks that the data of t fits its shape and dtype and the file: bytes is the room
 * the file gives it (a safetensors' data_offsets, an .npz member, what an .npy holds
 * after its header); exact when must_equal. Returns 0 with t->bytes set, or -1 with the
 * error set. */
int as_tensor_check_room(as_tensor_file *f, as_tensor *t, uint64_t room, int must_equal);

/* Checks that no two tensors' data overlap. Returns 0 or -1 with the error set. */
int as_tensor_check_overlap(as_tensor_file *f);

#endif
