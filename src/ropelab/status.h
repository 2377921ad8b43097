/* status.h: the status codes every fallible function returns.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_STATUS_H
#define ROPELAB_STATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rl_status {
  RL_OK = 0,
  RL_EINVAL = 1,  /* an argument outside its domain (odd dim, base <= 1) */
  RL_ERANGE = 2,  /* a position past the accurately computed range */
  RL_ENOMEM = 3,  /* allocation failed */
  RL_EIO = 4,     /* reading or writing a file failed */
  RL_EFORMAT = 5, /* an input file is not in the documented format */
  RL_EOVERFLOW = 6 /* finite inputs gave a non-finite result (an overflow) */
} rl_status;

const char *rl_strerror(int status);

/* The size of every error buffer, the core's and the CLI's (one line
 * naming the value and what is expected): room for a message that quotes
 * a long path or lists every method and pipeline (the longest today, an
 * unknown --precision, is 271 bytes); a longer one is cut, never
 * overrun. */
#define RL_ERR_MAX 1024

#ifdef __cplusplus
}
#endif
#endif
