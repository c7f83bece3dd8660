// zxing-cpp 2.x's C API (the subset in include/CZXing.h) over libzxing 1.4's
// C++ API (ReadBarcodes, DecodeHints, ImageView, Result). Nothing here
// decides anything: each function is the C++ call it names.
// SPDX-License-Identifier: Apache-2.0

#define ZX_USE_UTF8 1
#include "CZXing.h"

#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

struct ZXing_ImageView {
	ZXing::ImageView view;
};
struct ZXing_Barcode {
	ZXing::Result result;
};
struct ZXing_Barcodes {
	std::vector<ZXing_Barcode> items;
};
struct ZXing_ReaderOptions {
	ZXing::DecodeHints hints;
};

static thread_local std::string lastError;

static char* copy(const std::string& text)
{
	auto out = static_cast<char*>(std::malloc(text.size() + 1));
	if (out) std::memcpy(out, text.c_str(), text.size() + 1);
	return out;
}

extern "C" {

ZXing_ImageView* ZXing_ImageView_new(const uint8_t* data, int width, int height, ZXing_ImageFormat format, int rowStride,
									 int pixStride)
{
	lastError.clear();
	if (!data || width <= 0 || height <= 0 || format != ZXing_ImageFormat_Lum) {
		lastError = "unsupported image";
		return nullptr;
	}
	return new (std::nothrow)
		ZXing_ImageView{ZXing::ImageView(data, width, height, ZXing::ImageFormat::Lum, rowStride, pixStride)};
}

void ZXing_ImageView_delete(ZXing_ImageView* iv) { delete iv; }

bool ZXing_Barcode_isValid(const ZXing_Barcode* barcode) { return barcode && barcode->result.isValid(); }

ZXing_BarcodeFormat ZXing_Barcode_format(const ZXing_Barcode* barcode)
{
	return static_cast<ZXing_BarcodeFormat>(barcode->result.format());
}

uint8_t* ZXing_Barcode_bytes(const ZXing_Barcode* barcode, int* len)
{
	const auto& bytes = barcode->result.bytes();
	auto out = static_cast<uint8_t*>(std::malloc(bytes.size() ? bytes.size() : 1));
	if (out && bytes.size()) std::memcpy(out, bytes.data(), bytes.size());
	if (len) *len = out ? static_cast<int>(bytes.size()) : 0;
	return out;
}

char* ZXing_Barcode_text(const ZXing_Barcode* barcode) { return copy(barcode->result.text()); }

void ZXing_Barcodes_delete(ZXing_Barcodes* barcodes) { delete barcodes; }

int ZXing_Barcodes_size(const ZXing_Barcodes* barcodes) { return barcodes ? static_cast<int>(barcodes->items.size()) : 0; }

const ZXing_Barcode* ZXing_Barcodes_at(const ZXing_Barcodes* barcodes, int i)
{
	if (!barcodes || i < 0 || i >= static_cast<int>(barcodes->items.size())) return nullptr;
	return &barcodes->items[i];
}

ZXing_ReaderOptions* ZXing_ReaderOptions_new(void) { return new (std::nothrow) ZXing_ReaderOptions{}; }
void ZXing_ReaderOptions_delete(ZXing_ReaderOptions* opts) { delete opts; }
void ZXing_ReaderOptions_setTryHarder(ZXing_ReaderOptions* opts, bool v) { opts->hints.setTryHarder(v); }
void ZXing_ReaderOptions_setTryRotate(ZXing_ReaderOptions* opts, bool v) { opts->hints.setTryRotate(v); }
void ZXing_ReaderOptions_setTryDownscale(ZXing_ReaderOptions* opts, bool v) { opts->hints.setTryDownscale(v); }
void ZXing_ReaderOptions_setFormats(ZXing_ReaderOptions* opts, ZXing_BarcodeFormats formats)
{
	// The bit values are the same in 1.4's BarcodeFormat and 2.x's C enum.
	opts->hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(formats)));
}

ZXing_Barcodes* ZXing_ReadBarcodes(const ZXing_ImageView* iv, const ZXing_ReaderOptions* opts)
{
	lastError.clear();
	if (!iv) {
		lastError = "no image";
		return nullptr;
	}
	try {
		auto results = ZXing::ReadBarcodes(iv->view, opts ? opts->hints : ZXing::DecodeHints());
		auto out = new ZXing_Barcodes;
		out->items.reserve(results.size());
		for (auto& result : results)
			out->items.push_back(ZXing_Barcode{std::move(result)});
		return out;
	} catch (const std::exception& e) {
		lastError = e.what();
	} catch (...) {
		lastError = "unknown error";
	}
	return nullptr;
}

char* ZXing_LastErrorMsg(void) { return lastError.empty() ? nullptr : copy(lastError); }

#define CZXING_STR2(x) #x
#define CZXING_STR(x) CZXING_STR2(x)
const char* ZXing_Version(void)
{
	return CZXING_STR(ZXING_VERSION_MAJOR) "." CZXING_STR(ZXING_VERSION_MINOR) "." CZXING_STR(ZXING_VERSION_PATCH);
}

void ZXing_free(void* ptr) { std::free(ptr); }

} // extern "C"
