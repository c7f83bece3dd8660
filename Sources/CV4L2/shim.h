#ifndef CV4L2_SHIM_H
#define CV4L2_SHIM_H
#include <libv4l2.h>
#include <linux/videodev2.h>
#include <fcntl.h>

/// v4l2_open is variadic, which Swift cannot call; DeskDays never creates device nodes, so no mode argument.
static inline int CV4L2_open(const char *path, int flags) { return v4l2_open(path, flags); }

/// v4l2_ioctl is variadic, which Swift cannot call; every V4L2 request takes one pointer argument.
static inline int CV4L2_ioctl(int fd, unsigned long request, void *argument) { return v4l2_ioctl(fd, request, argument); }

// The VIDIOC_* requests are _IOWR(…, sizeof(struct …)) expressions, which Swift does not import.
/// VIDIOC_QUERYCAP: is this a capture device that streams?
static const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
/// VIDIOC_ENUM_FMT: the pixel formats (libv4l2 adds the ones it converts to).
static const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
/// VIDIOC_ENUM_FRAMESIZES: the frame sizes of one pixel format.
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
/// VIDIOC_S_FMT: set the capture format.
static const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
/// VIDIOC_S_PARM: ask for a lower frame rate in watch mode.
static const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
/// VIDIOC_REQBUFS: allocate (or free, with count 0) the mmap buffers.
static const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
/// VIDIOC_QUERYBUF: offset and length of one buffer, for mmap.
static const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
/// VIDIOC_QBUF: hand a buffer back to the driver.
static const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
/// VIDIOC_DQBUF: take a filled buffer.
static const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
/// VIDIOC_STREAMON: start capture.
static const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
/// VIDIOC_STREAMOFF: stop capture (also dequeues every buffer).
static const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;

// The V4L2_PIX_FMT_* codes are v4l2_fourcc(…) calls, a function-like macro.
/// Packed 4:2:2, Y0 U Y1 V: the native format of most UVC webcams.
static const unsigned int CV4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
/// 8-bit greyscale: already luma.
static const unsigned int CV4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
/// Planar 4:2:0 with the Y plane first; libv4l2 converts MJPEG and other formats to it.
static const unsigned int CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
/// Packed 8-bit RGB; libv4l2 converts every camera format to it.
static const unsigned int CV4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
/// Motion JPEG: each buffer is one JPEG image.
static const unsigned int CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;

#endif
