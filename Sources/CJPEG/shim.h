#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <jpeglib.h>

// libjpeg reports errors by calling error_exit, which must not return; the only way
// back to the caller is longjmp, which Swift cannot do. These two functions keep the
// setjmp/longjmp pair inside C and return a status instead.

/// An error manager that remembers where to jump back to and the library's message.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    char message[JMSG_LENGTH_MAX];
} CJPEG_error;

/// error_exit replacement: keeps libjpeg's own message and jumps back to the wrapper.
static void CJPEG_errorExit(j_common_ptr info) {
    CJPEG_error *error = (CJPEG_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->back, 1);
}

/// Decodes a JPEG in memory to 8-bit luma (libjpeg converts colour to greyscale itself).
/// Returns 0 and a malloc'ed buffer (the caller frees it), or -1 with `message` filled.
static inline int CJPEG_decodeLuma(const unsigned char *data, unsigned long size,
                                   unsigned char **pixels, int *width, int *height,
                                   char *message, size_t messageSize) {
    struct jpeg_decompress_struct info;
    CJPEG_error error;
    unsigned char *volatile buffer = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = CJPEG_errorExit;
    error.message[0] = 0;
    if (setjmp(error.back)) {
        jpeg_destroy_decompress(&info);
        free(buffer);
        snprintf(message, messageSize, "%s", error.message);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&info);
    size_t stride = info.output_width;
    buffer = malloc(stride * info.output_height);
    if (buffer == NULL) { snprintf(error.message, sizeof error.message, "out of memory"); longjmp(error.back, 1); }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = buffer + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    *pixels = buffer;
    jpeg_destroy_decompress(&info);
    return 0;
}

/// Compresses 8-bit luma to a JPEG in memory (MJPEG camera frames in tests and the benchmark).
/// Returns 0 and a malloc'ed buffer (the caller frees it), or -1 with `message` filled.
static inline int CJPEG_encodeLuma(const unsigned char *pixels, int width, int height, int quality,
                                   unsigned char **jpeg, unsigned long *size,
                                   char *message, size_t messageSize) {
    struct jpeg_compress_struct info;
    CJPEG_error error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = CJPEG_errorExit;
    error.message[0] = 0;
    *jpeg = NULL;
    *size = 0;
    if (setjmp(error.back)) {
        jpeg_destroy_compress(&info);
        snprintf(message, messageSize, "%s", error.message);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, jpeg, size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 1;
    info.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)width * info.next_scanline);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}

#endif
