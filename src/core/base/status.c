/* status.c: text for the rl_status codes. */
#include "ropelab.h"

const char *rl_strerror(int status)
{
  switch (status) {
  case RL_OK: return "success";
  case RL_EINVAL: return "invalid argument";
  case RL_ERANGE: return "position outside the accurate range";
  case RL_ENOMEM: return "out of memory";
  case RL_EIO: return "input/output error";
  case RL_EFORMAT: return "malformed input file";
  case RL_EOVERFLOW: return "non-finite result (overflow)";
  default: return "unknown error";
  }
}
