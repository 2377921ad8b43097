/* decay.c: stub, being written. */
#include "ropelab.h"
