/* mc.c: stub, being written. */
#include "ropelab.h"
