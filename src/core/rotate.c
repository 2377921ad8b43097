/* rotate.c: stub, being written. */
#include "ropelab.h"
