/* safetensors.h - the .safetensors format: an 8-byte little-endian header length, a JSON
 * header (read by a small JSON reader of its own), then the tensors' bytes. */
#ifndef ATTNSTEP_SAFETENSORS_H
#define ATTNSTEP_SAFETENSORS_H

#include "attnstep/tensorfile.h"

/* Indexes the .safetensors f: dtype, shape and data_offsets of each tensor (the
 * __metadata__ ignored, but its values must be strings). 0 or -1. */
int as_safetensors_index(as_tensor_file *f);

#endif
