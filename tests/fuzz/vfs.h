/* vfs.h - the files a fuzz input may load(), kept in the input itself so that a
 * run never touches the disk and replays the same everywhere.
 *
 * A fuzz input is MAIN, or MAIN FUZZ_LOAD_SEP LOADED: the text before the separator is
 * the input file; every load("name") then reads LOADED (load("dir/") a directory, and
 * without a separator no file exists). The fuzzers and the replayer are linked with
 * -Wl,--wrap=as_lex_read_file, which routes the parser's file reading here. */
#ifndef ATTNSTEP_FUZZ_VFS_H
#define ATTNSTEP_FUZZ_VFS_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_LOAD_SEP "\n%load%\n"

/* Splits data into the input text (*main_len bytes at data) and what load() reads. */
void vfs_split(const uint8_t *data, size_t size, size_t *main_len);

/* Names files for the fuzzers of whole commands: a read of path name (exactly) gets
 * data[0..len) instead of the loaded file; at most VFS_NAMED names, all forgotten by
 * vfs_split() and vfs_forget(). data must live until then. */
#define VFS_NAMED 8
void vfs_name(const char *name, const uint8_t *data, size_t len);
void vfs_forget(void);

/* The libFuzzer entry point each fuzzer defines (replay_main.c calls it too). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
