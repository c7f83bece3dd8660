#ifndef CZBAR_SHIM_H
#define CZBAR_SHIM_H
#include <zbar.h>

/// zbar_fourcc('Y','8','0','0') is a function-like macro: the 8-bit luma format zbar decodes natively.
static const unsigned long CZBar_Y800 = zbar_fourcc('Y', '8', '0', '0');

#endif
