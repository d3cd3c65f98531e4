/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* kimg: reader and writer of the KIMG image container (see docs/kimg-spec.md). */
#ifndef KIMG_H
#define KIMG_H

#include <stddef.h>
#include <stdint.h>

#define KIMG_MAX_SIDE 16384u
#define KIMG_MAX_PIXELS (1u << 24)
#define KIMG_MAX_FILE (64u << 20)

enum kimg_ctype { KIMG_GRAY = 0, KIMG_RGB = 2, KIMG_PALETTE = 3, KIMG_RGBA = 6 };
enum kimg_comp { KIMG_RAW = 0, KIMG_RLE = 1, KIMG_LZ = 2 };
enum kimg_filter { KIMG_NONE = 0, KIMG_SUB = 1, KIMG_UP = 2, KIMG_AVG = 3 };

/* status codes of the library; the CLI maps KIMG_EINVAL to exit status 2 */
enum { KIMG_OK = 0, KIMG_EINVAL = -1, KIMG_ENOMEM = -2, KIMG_EIO = -3 };

struct kimg_text {
    char key[80];
    uint8_t *value;
    size_t value_len;
    struct kimg_text *next;
};

/* A decoded image: pixels are expanded (gray 1, rgb 3, rgba 4 bytes a pixel; palette images become rgb). */
struct kimg_image {
    uint32_t width, height;
    int ctype, compression, crc;
    unsigned channels;           /* bytes per stored pixel: 1, 3, 1, 4 */
    uint8_t *palette;            /* palette_entries * 3 bytes */
    unsigned palette_entries;
    struct kimg_text *texts;
    uint8_t *pixels;             /* width * height * out_channels bytes */
    unsigned out_channels;       /* 1, 3 or 4 */
};

/* util.c */
uint32_t kimg_be32(const uint8_t *p);
uint16_t kimg_be16(const uint8_t *p);
void kimg_put_be32(uint8_t *p, uint32_t v);
uint32_t kimg_crc32(uint32_t crc, const uint8_t *data, size_t len);
int kimg_read_file(const char *path, uint8_t **data, size_t *size, size_t limit);
void kimg_set_error(const char *fmt, ...);
const char *kimg_error(void);
unsigned kimg_channels(int ctype);
const char *kimg_ctype_name(int ctype);
const char *kimg_comp_name(int comp);

/* container.c */
int kimg_decode(const uint8_t *data, size_t size, struct kimg_image *img);
void kimg_free(struct kimg_image *img);

/* codec.c */
int kimg_unrle(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len);
int kimg_unlz(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len);
int kimg_unfilter(const uint8_t *filtered, uint8_t *pixels, uint32_t width, uint32_t height, unsigned bpp);
size_t kimg_rle(const uint8_t *in, size_t len, uint8_t *out);
size_t kimg_lz(const uint8_t *in, size_t len, uint8_t *out);
size_t kimg_compress_bound(size_t len);
void kimg_filter(const uint8_t *pixels, uint8_t *filtered, uint32_t width, uint32_t height, unsigned bpp,
                 int filter);

/* pnm.c */
int kimg_write_pnm(const char *path, const struct kimg_image *img);
int kimg_read_pnm(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, unsigned *channels,
                  uint8_t **pixels);

/* encode.c */
struct kimg_encode_opts {
    int compression;
    int filter;
    int crc;
    int palette;
};
int kimg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, unsigned channels,
                const struct kimg_encode_opts *opts, uint8_t **out, size_t *out_len);

#endif
