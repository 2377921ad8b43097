/* file.h: the one way the core and the CLI open a user's file for reading.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_FILE_H
#define ROPELAB_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* path opened for reading if it is a regular file of at most max bytes
 * (0: any size).  Opened without blocking and checked on the open
 * descriptor, so that a FIFO without a writer is refused at once rather
 * than hanging in open(2), and nothing can be swapped in between a test
 * and the read; the descriptor is then made blocking again.  *fd and
 * *size (if not NULL) on RL_OK.  Otherwise err (n bytes) says, naming
 * what ("config", "checkpoint"; NULL: nothing) and path:
 *   RL_EIO     "cannot read WHAT 'PATH': No such file or directory",
 *              "...: is a folder, expected a file", "...: not a regular
 *              file (a FIFO)" (a device, a socket the same);
 *   RL_EFORMAT "WHAT 'PATH' has N bytes: expected at most MAX".
 * Every reader of a user's file goes through here (issue 33: four
 * readers that opened FIFOs by themselves blocked forever). */
rl_status rl_file_open_read(const char *path, const char *what, uint64_t max, int *fd,
                            uint64_t *size, char *err, size_t n);
/* The same as a stdio stream ("rb"). */
rl_status rl_file_fopen_read(const char *path, const char *what, uint64_t max, FILE **fp,
                             uint64_t *size, char *err, size_t n);

#ifdef __cplusplus
}
#endif
#endif
