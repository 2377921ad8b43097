/* check.c: stub, being written. */
#include "ropelab.h"
static const rl_check checks[] = {{0, 0, 0}};
const rl_check *rl_check_list(void) { return checks; }
