/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Byte order, CRC-32, whole-file reading and the library's last error message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "kimg.h"

static char last_error[256];

uint32_t kimg_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

uint16_t kimg_be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

void kimg_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

uint32_t kimg_crc32(uint32_t crc, const uint8_t *data, size_t len)
{
    static uint32_t table[256];
    static int ready;
    if (!ready) {
        for (uint32_t n = 0; n < 256; n++) {
            uint32_t c = n;
            for (int k = 0; k < 8; k++)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[n] = c;
        }
        ready = 1;
    }
    crc = ~crc;
    for (size_t i = 0; i < len; i++)
        crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

int kimg_read_file(const char *path, uint8_t **data, size_t *size, size_t limit)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        kimg_set_error("cannot open");
        return KIMG_EIO;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return KIMG_ENOMEM;
    }
    for (;;) {
        if (len == cap) {
            if (cap > limit) {
                free(buf);
                fclose(f);
                kimg_set_error("file too large");
                return KIMG_EINVAL;
            }
            uint8_t *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                fclose(f);
                return KIMG_ENOMEM;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        kimg_set_error("read error");
        return KIMG_EIO;
    }
    if (len > limit) {
        free(buf);
        kimg_set_error("file too large");
        return KIMG_EINVAL;
    }
    *data = buf;
    *size = len;
    return KIMG_OK;
}

void kimg_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

const char *kimg_error(void)
{
    return last_error;
}

unsigned kimg_channels(int ctype)
{
    switch (ctype) {
    case KIMG_GRAY: return 1;
    case KIMG_RGB: return 3;
    case KIMG_PALETTE: return 1;
    case KIMG_RGBA: return 4;
    default: return 0;
    }
}

const char *kimg_ctype_name(int ctype)
{
    switch (ctype) {
    case KIMG_GRAY: return "gray";
    case KIMG_RGB: return "rgb";
    case KIMG_PALETTE: return "palette";
    case KIMG_RGBA: return "rgba";
    default: return "?";
    }
}

const char *kimg_comp_name(int comp)
{
    switch (comp) {
    case KIMG_RAW: return "raw";
    case KIMG_RLE: return "rle";
    case KIMG_LZ: return "lz";
    default: return "?";
    }
}
