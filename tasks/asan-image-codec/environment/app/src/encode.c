/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Writing a KIMG file: optional palette, row filter, compression, DATA chunks of at most 64 KiB, CRCs. */
#include <stdlib.h>
#include <string.h>

#include "kimg.h"

#define DATA_CHUNK_MAX 65536u

struct writer {
    uint8_t *buf;
    size_t len, cap;
    int crc;
};

static int put_chunk(struct writer *wr, const char *type, const uint8_t *data, size_t len)
{
    size_t need = wr->len + 12 + len;
    if (need > wr->cap) {
        size_t cap = wr->cap ? wr->cap : 4096;
        while (cap < need)
            cap *= 2;
        uint8_t *bigger = realloc(wr->buf, cap);
        if (!bigger)
            return KIMG_ENOMEM;
        wr->buf = bigger;
        wr->cap = cap;
    }
    uint8_t *p = wr->buf + wr->len;
    memcpy(p, type, 4);
    kimg_put_be32(p + 4, (uint32_t)len);
    if (len)
        memcpy(p + 8, data, len);
    wr->len += 8 + len;
    if (wr->crc) {
        uint32_t crc = kimg_crc32(0, data, len);
        kimg_put_be32(wr->buf + wr->len, crc);
        wr->len += 4;
    }
    return KIMG_OK;
}

struct colour_map {
    uint32_t keys[1024];
    int16_t index[1024];
    uint8_t rgb[768];
    unsigned count;
};

/* index of the colour in the palette, adding it in order of first appearance; -1 past 256 colours */
static int colour_index(struct colour_map *map, const uint8_t *px)
{
    uint32_t key = ((uint32_t)px[0] << 16) | ((uint32_t)px[1] << 8) | px[2];
    unsigned slot = (key * 2654435761u) >> 22;
    while (map->index[slot] >= 0) {
        if (map->keys[slot] == key)
            return map->index[slot];
        slot = (slot + 1) & 1023;
    }
    if (map->count == 256)
        return -1;
    map->keys[slot] = key;
    map->index[slot] = (int16_t)map->count;
    memcpy(map->rgb + 3 * map->count, px, 3);
    return (int)map->count++;
}

int kimg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, unsigned channels,
                const struct kimg_encode_opts *opts, uint8_t **out, size_t *out_len)
{
    int ctype = channels == 1 ? KIMG_GRAY : channels == 4 ? KIMG_RGBA : KIMG_RGB;
    size_t npix = (size_t)width * height;
    uint8_t *plane = NULL, *filtered = NULL, *packed = NULL;
    struct colour_map *map = NULL;
    struct writer wr = {.crc = opts->crc};
    int rc = KIMG_ENOMEM;
    unsigned bpp = channels;

    if (opts->palette && channels == 3) {
        map = malloc(sizeof *map);
        plane = malloc(npix);
        if (!map || !plane)
            goto done;
        memset(map->index, 0xFF, sizeof map->index);
        map->count = 0;
        for (size_t i = 0; i < npix; i++) {
            int idx = colour_index(map, pixels + 3 * i);
            if (idx < 0) {
                kimg_set_error("more than 256 colours: no palette possible");
                rc = KIMG_EINVAL;
                goto done;
            }
            plane[i] = (uint8_t)idx;
        }
        ctype = KIMG_PALETTE;
        bpp = 1;
    }
    size_t flen = (size_t)height * ((size_t)width * bpp + 1);
    filtered = malloc(flen);
    if (!filtered)
        goto done;
    kimg_filter(plane ? plane : pixels, filtered, width, height, bpp, opts->filter);
    const uint8_t *stream = filtered;
    size_t stream_len = flen;
    if (opts->compression != KIMG_RAW) {
        packed = malloc(kimg_compress_bound(flen));
        if (!packed)
            goto done;
        stream_len = opts->compression == KIMG_RLE ? kimg_rle(filtered, flen, packed) : kimg_lz(filtered, flen, packed);
        if (stream_len == 0)
            goto done;
        stream = packed;
    }
    wr.buf = malloc(16);
    if (!wr.buf)
        goto done;
    wr.cap = 16;
    memcpy(wr.buf, "KIMG", 4);
    wr.buf[4] = 1;
    wr.buf[5] = opts->crc ? 1 : 0;
    wr.buf[6] = wr.buf[7] = 0;
    wr.len = 8;
    uint8_t head[10];
    kimg_put_be32(head, width);
    kimg_put_be32(head + 4, height);
    head[8] = (uint8_t)ctype;
    head[9] = (uint8_t)opts->compression;
    if ((rc = put_chunk(&wr, "HEAD", head, sizeof head)) != KIMG_OK)
        goto done;
    if (map && (rc = put_chunk(&wr, "PLTE", map->rgb, map->count)) != KIMG_OK)
        goto done;
    for (size_t off = 0; off < stream_len; off += DATA_CHUNK_MAX) {
        size_t part = stream_len - off > DATA_CHUNK_MAX ? DATA_CHUNK_MAX : stream_len - off;
        if ((rc = put_chunk(&wr, "DATA", stream + off, part)) != KIMG_OK)
            goto done;
    }
    if ((rc = put_chunk(&wr, "TAIL", NULL, 0)) != KIMG_OK)
        goto done;
    *out = wr.buf;
    *out_len = wr.len;
    wr.buf = NULL;
done:
    free(wr.buf);
    free(map);
    free(plane);
    free(filtered);
    free(packed);
    return rc;
}
