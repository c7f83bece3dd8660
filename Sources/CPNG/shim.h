#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <png.h>

/// PNG_IMAGE_VERSION is a plain macro but png_image.version is png_uint_32: a typed copy avoids casts at each use.
static const png_uint_32 CPNG_imageVersion = PNG_IMAGE_VERSION;

#endif
