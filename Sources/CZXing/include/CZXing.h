/*
 * The part of zxing-cpp's C API (ZXingC.h, zxing-cpp 2.x) DeskDays uses,
 * implemented over Debian 12's libzxing 1.4, which has no C API. Same names,
 * types and ownership rules as ZXingC.h, so this target can be deleted and
 * `#include <ZXing/ZXingC.h>` used instead once the build has zxing-cpp 2.3.
 *
 * Ownership: what a function returns as a non-const pointer belongs to the
 * caller: ZXing_X* is freed with ZXing_X_delete, char* and uint8_t* with
 * ZXing_free. Const pointers (ZXing_Barcodes_at) are borrowed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef CZXING_H
#define CZXING_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ZXing_Barcode ZXing_Barcode;
typedef struct ZXing_Barcodes ZXing_Barcodes;
typedef struct ZXing_ImageView ZXing_ImageView;
typedef struct ZXing_ReaderOptions ZXing_ReaderOptions;

typedef enum {
	ZXing_ImageFormat_None = 0,
	ZXing_ImageFormat_Lum = 0x01000000,
} ZXing_ImageFormat;

typedef enum {
	ZXing_BarcodeFormat_None = 0,
	ZXing_BarcodeFormat_QRCode = (1 << 13),
} ZXing_BarcodeFormat;
typedef ZXing_BarcodeFormat ZXing_BarcodeFormats;

/* ZXing/ImageView.h */
ZXing_ImageView* ZXing_ImageView_new(const uint8_t* data, int width, int height, ZXing_ImageFormat format, int rowStride,
									 int pixStride);
void ZXing_ImageView_delete(ZXing_ImageView* iv);

/* ZXing/Barcode.h (Result.h in 1.4) */
bool ZXing_Barcode_isValid(const ZXing_Barcode* barcode);
ZXing_BarcodeFormat ZXing_Barcode_format(const ZXing_Barcode* barcode);
/** The payload's bytes as the code carries them (no ECI or charset applied). */
uint8_t* ZXing_Barcode_bytes(const ZXing_Barcode* barcode, int* len);
/** UTF-8 text: the bytes decoded by the code's ECI, or by ZXing's charset guess when it has none. */
char* ZXing_Barcode_text(const ZXing_Barcode* barcode);

void ZXing_Barcodes_delete(ZXing_Barcodes* barcodes);
int ZXing_Barcodes_size(const ZXing_Barcodes* barcodes);
const ZXing_Barcode* ZXing_Barcodes_at(const ZXing_Barcodes* barcodes, int i);

/* ZXing/ReaderOptions.h (DecodeHints.h in 1.4) */
ZXing_ReaderOptions* ZXing_ReaderOptions_new(void);
void ZXing_ReaderOptions_delete(ZXing_ReaderOptions* opts);
void ZXing_ReaderOptions_setTryHarder(ZXing_ReaderOptions* opts, bool tryHarder);
void ZXing_ReaderOptions_setTryRotate(ZXing_ReaderOptions* opts, bool tryRotate);
void ZXing_ReaderOptions_setTryDownscale(ZXing_ReaderOptions* opts, bool tryDownscale);
void ZXing_ReaderOptions_setFormats(ZXing_ReaderOptions* opts, ZXing_BarcodeFormats formats);

/* ZXing/ReadBarcode.h. opts may be NULL (defaults). NULL on an error (ZXing_LastErrorMsg says which). */
ZXing_Barcodes* ZXing_ReadBarcodes(const ZXing_ImageView* iv, const ZXing_ReaderOptions* opts);

/** The message of the last error on this thread, or NULL; the caller frees it with ZXing_free. */
char* ZXing_LastErrorMsg(void);
/** The library's version, e.g. "1.4.0" (static storage). */
const char* ZXing_Version(void);
void ZXing_free(void* ptr);

#ifdef __cplusplus
}
#endif

#endif
