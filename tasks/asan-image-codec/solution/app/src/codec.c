/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* The two compressions (RLE, LZ) both ways and the four row filters both ways. */
#include <stdlib.h>
#include <string.h>

#include "kimg.h"

static int invalid(const char *msg)
{
    kimg_set_error("%s", msg);
    return KIMG_EINVAL;
}

int kimg_unrle(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    size_t ip = 0, op = 0;
    while (op < out_len) {
        if (ip >= in_len)
            return invalid("rle: stream ends early");
        unsigned c = in[ip++];
        if (c < 128) {
            size_t count = c + 1;
            if (count > in_len - ip)
                return invalid("rle: literal runs past the stream");
            if (count > out_len - op)
                return invalid("rle: literal overruns the image");
            memcpy(out + op, in + ip, count);
            ip += count;
            op += count;
        } else {
            size_t count = c - 126;
            if (ip >= in_len)
                return invalid("rle: run without a value");
            if (count > out_len - op)
                return invalid("rle: run overruns the image");
            memset(out + op, in[ip++], count);
            op += count;
        }
    }
    if (ip != in_len)
        return invalid("rle: trailing bytes");
    return KIMG_OK;
}

int kimg_unlz(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
    size_t ip = 0, op = 0;
    while (op < out_len) {
        if (ip >= in_len)
            return invalid("lz: stream ends early");
        unsigned t = in[ip++];
        if (t < 128) {
            size_t count = t + 1;
            if (count > in_len - ip)
                return invalid("lz: literal runs past the stream");
            if (count > out_len - op)
                return invalid("lz: literal overruns the image");
            memcpy(out + op, in + ip, count);
            ip += count;
            op += count;
        } else {
            size_t length = t - 125;
            if (in_len - ip < 2)
                return invalid("lz: match without a distance");
            size_t dist = kimg_be16(in + ip);
            ip += 2;
            if (dist == 0 || dist > op)
                return invalid("lz: match distance out of range");
            if (length > out_len - op)
                return invalid("lz: match overruns the image");
            for (size_t k = 0; k < length; k++)   /* byte by byte: source and target may overlap */
                out[op + k] = out[op - dist + k];
            op += length;
        }
    }
    if (ip != in_len)
        return invalid("lz: trailing bytes");
    return KIMG_OK;
}

int kimg_unfilter(const uint8_t *filtered, uint8_t *pixels, uint32_t width, uint32_t height, unsigned bpp)
{
    size_t rowbytes = (size_t)width * bpp;
    for (uint32_t r = 0; r < height; r++) {
        const uint8_t *src = filtered + (size_t)r * (rowbytes + 1);
        uint8_t *row = pixels + (size_t)r * rowbytes;
        const uint8_t *prev = r > 0 ? row - rowbytes : NULL;
        unsigned ftype = src[0];
        src++;
        for (size_t i = 0; i < rowbytes; i++) {
            unsigned left = i >= bpp ? row[i - bpp] : 0;
            unsigned up = prev ? prev[i] : 0;
            unsigned pred;
            switch (ftype) {
            case KIMG_NONE: pred = 0; break;
            case KIMG_SUB: pred = left; break;
            case KIMG_UP: pred = up; break;
            case KIMG_AVG: pred = (left + up) >> 1; break;
            default: return invalid("unknown row filter");
            }
            row[i] = (uint8_t)(src[i] + pred);
        }
        if (ftype > KIMG_AVG)
            return invalid("unknown row filter");
    }
    return KIMG_OK;
}

void kimg_filter(const uint8_t *pixels, uint8_t *filtered, uint32_t width, uint32_t height, unsigned bpp,
                 int filter)
{
    size_t rowbytes = (size_t)width * bpp;
    for (uint32_t r = 0; r < height; r++) {
        const uint8_t *row = pixels + (size_t)r * rowbytes;
        const uint8_t *prev = r > 0 ? row - rowbytes : NULL;
        uint8_t *dst = filtered + (size_t)r * (rowbytes + 1);
        *dst++ = (uint8_t)filter;
        for (size_t i = 0; i < rowbytes; i++) {
            unsigned left = i >= bpp ? row[i - bpp] : 0;
            unsigned up = prev ? prev[i] : 0;
            unsigned pred = filter == KIMG_SUB ? left : filter == KIMG_UP ? up
                          : filter == KIMG_AVG ? (left + up) >> 1 : 0;
            dst[i] = (uint8_t)(row[i] - pred);
        }
    }
}

size_t kimg_compress_bound(size_t len)
{
    return len + len / 2 + 16;   /* RLE: 3 bytes can take 4, LZ: 4 can take 5 */
}

static size_t flush_literals(const uint8_t *lit, size_t n, uint8_t *out)
{
    size_t op = 0;
    while (n > 0) {
        size_t part = n > 128 ? 128 : n;
        out[op++] = (uint8_t)(part - 1);
        memcpy(out + op, lit, part);
        op += part;
        lit += part;
        n -= part;
    }
    return op;
}

size_t kimg_rle(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t op = 0, i = 0, lit_start = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && in[j] == in[i] && j - i < 129)
            j++;
        if (j - i >= 2) {
            op += flush_literals(in + lit_start, i - lit_start, out + op);
            out[op++] = (uint8_t)(j - i + 126);
            out[op++] = in[i];
            i = j;
            lit_start = i;
        } else {
            i++;
        }
    }
    op += flush_literals(in + lit_start, i - lit_start, out + op);
    return op;
}

#define LZ_HASH_BITS 15
#define LZ_MAX_MATCH 130
#define LZ_MAX_DIST 65535

static unsigned lz_hash(const uint8_t *p)
{
    return ((unsigned)p[0] * 2654435761u ^ (unsigned)p[1] * 40503u ^ p[2]) & ((1u << LZ_HASH_BITS) - 1);
}

size_t kimg_lz(const uint8_t *in, size_t len, uint8_t *out)
{
    long *table = malloc(sizeof(long) << LZ_HASH_BITS);
    size_t op = 0, i = 0, lit_start = 0;
    if (!table)
        return 0;
    for (size_t k = 0; k < (1u << LZ_HASH_BITS); k++)
        table[k] = -1;
    while (i < len) {
        size_t best_len = 0, best_dist = 0;
        if (i + 3 <= len) {
            unsigned h = lz_hash(in + i);
            long cands[5] = {table[h], (long)i - 1, (long)i - 2, (long)i - 3, (long)i - 4};
            for (int c = 0; c < 5; c++) {
                if (cands[c] < 0 || i - (size_t)cands[c] > LZ_MAX_DIST)
                    continue;
                size_t from = (size_t)cands[c], n = 0;
                while (n < LZ_MAX_MATCH && i + n < len && in[from + n] == in[i + n])
                    n++;
                if (n > best_len) {
                    best_len = n;
                    best_dist = i - from;
                }
            }
            table[h] = (long)i;
        }
        if (best_len >= 3) {
            op += flush_literals(in + lit_start, i - lit_start, out + op);
            out[op++] = (uint8_t)(best_len + 125);
            out[op++] = (uint8_t)(best_dist >> 8);
            out[op++] = (uint8_t)best_dist;
            i += best_len;
            lit_start = i;
        } else {
            i++;
        }
    }
    op += flush_literals(in + lit_start, i - lit_start, out + op);
    free(table);
    return op;
}
