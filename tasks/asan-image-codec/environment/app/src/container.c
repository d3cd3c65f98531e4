/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Chunk walking and validation of a KIMG file, then decompression, unfiltering and palette expansion. */
#include <stdlib.h>
#include <string.h>

#include "kimg.h"

struct chunk {
    char type[4];
    uint32_t length;
    const uint8_t *data;
};

struct reader {
    const uint8_t *data;
    size_t size, pos;
    int crc;
    int have_head, seen_data, ended;
    uint8_t *stream;
    size_t stream_len, stream_cap;
};

static int invalid(const char *msg)
{
    kimg_set_error("%s", msg);
    return KIMG_EINVAL;
}

static int next_chunk(struct reader *rd, struct chunk *ch)
{
    if (rd->size - rd->pos < 8)
        return invalid("truncated chunk header");
    const uint8_t *p = rd->data + rd->pos;
    memcpy(ch->type, p, 4);
    ch->length = kimg_be32(p + 4);
    uint32_t end = (uint32_t)rd->pos + 8 + ch->length + (rd->crc ? 4 : 0);
    if (end > rd->size)
        return invalid("chunk runs past the end of the file");
    ch->data = p + 8;
    rd->pos += 8 + (size_t)ch->length;
    if (rd->crc) {
        uint32_t stored = kimg_be32(rd->data + rd->pos);
        uint32_t crc = kimg_crc32(0, ch->data, ch->length);
        if (crc != stored) {
            free(rd->stream);
            kimg_set_error("CRC mismatch in chunk %.4s", ch->type);
            return KIMG_EINVAL;
        }
        rd->pos += 4;
    }
    return KIMG_OK;
}

static int read_head(struct kimg_image *img, const struct chunk *ch)
{
    if (ch->length != 10)
        return invalid("HEAD chunk must be 10 bytes");
    uint32_t w = kimg_be32(ch->data), h = kimg_be32(ch->data + 4);
    int ctype = ch->data[8], comp = ch->data[9];
    if (kimg_channels(ctype) == 0)
        return invalid("unknown colour type");
    if (comp > KIMG_LZ)
        return invalid("unknown compression");
    if (w == 0 || h == 0 || w * h > KIMG_MAX_PIXELS)
        return invalid("image dimensions out of limits");
    img->width = w;
    img->height = h;
    img->ctype = ctype;
    img->compression = comp;
    img->channels = kimg_channels(ctype);
    img->out_channels = ctype == KIMG_PALETTE ? 3 : img->channels;
    return KIMG_OK;
}

static int read_palette(struct kimg_image *img, const struct reader *rd, const struct chunk *ch)
{
    if (img->ctype != KIMG_PALETTE)
        return invalid("PLTE in an image without palette");
    if (ch->length < 3 || ch->length > 768 || ch->length % 3)
        return invalid("bad PLTE length");
    img->palette = malloc(ch->length);
    if (!img->palette)
        return KIMG_ENOMEM;
    memcpy(img->palette, ch->data, ch->length);
    img->palette_entries = ch->length / 3;
    return KIMG_OK;
}

static int read_text(struct kimg_image *img, const struct chunk *ch)
{
    char key[80];
    const uint8_t *nul = memchr(ch->data, 0, ch->length);
    if (!nul)
        return invalid("TEXT without key terminator");
    size_t keylen = (size_t)(nul - ch->data);
    if (keylen < 1)
        return invalid("empty TEXT key");
    memcpy(key, ch->data, keylen);
    key[keylen] = 0;
    struct kimg_text *t = calloc(1, sizeof *t);
    if (!t)
        return KIMG_ENOMEM;
    strcpy(t->key, key);
    for (size_t i = 0; i < keylen; i++) {
        if (ch->data[i] < 0x20 || ch->data[i] > 0x7E) {
            free(t);
            kimg_set_error("bad character in TEXT key \"%s\"", t->key);
            return KIMG_EINVAL;
        }
    }
    t->value_len = ch->length - keylen - 1;
    t->value = malloc(t->value_len + 1);
    if (!t->value) {
        free(t);
        return KIMG_ENOMEM;
    }
    memcpy(t->value, nul + 1, t->value_len);
    t->value[t->value_len] = 0;
    struct kimg_text **tail = &img->texts;
    while (*tail)
        tail = &(*tail)->next;
    *tail = t;
    return KIMG_OK;
}

static int append_data(struct reader *rd, const struct chunk *ch)
{
    uint8_t *bigger = realloc(rd->stream, ch->length ? ch->length : 1);
    if (!bigger)
        return KIMG_ENOMEM;
    rd->stream = bigger;
    memcpy(rd->stream, ch->data, ch->length);
    rd->stream_len = ch->length;
    return KIMG_OK;
}

static int walk_chunks(struct reader *rd, struct kimg_image *img)
{
    while (rd->pos < rd->size) {
        struct chunk ch;
        int rc;
        if ((rc = next_chunk(rd, &ch)) != KIMG_OK)
            return rc;
        if (!rd->have_head && memcmp(ch.type, "HEAD", 4) != 0)
            return invalid("first chunk is not HEAD");
        if (memcmp(ch.type, "HEAD", 4) == 0) {
            rc = read_head(img, &ch);
            rd->have_head = 1;
        } else if (memcmp(ch.type, "PLTE", 4) == 0) {
            rc = read_palette(img, rd, &ch);
        } else if (memcmp(ch.type, "TEXT", 4) == 0) {
            rc = read_text(img, &ch);
        } else if (memcmp(ch.type, "DATA", 4) == 0) {
            if (img->ctype == KIMG_PALETTE && !img->palette)
                return invalid("DATA before PLTE");
            rd->seen_data = 1;
            rc = append_data(rd, &ch);
        } else if (memcmp(ch.type, "TAIL", 4) == 0) {
            if (ch.length != 0)
                return invalid("TAIL chunk must be empty");
            rd->ended = 1;
            break;
        } else {
            return invalid("unknown chunk");
        }
        if (rc != KIMG_OK)
            return rc;
    }
    if (!rd->ended)
        return invalid("missing TAIL chunk");
    if (img->ctype == KIMG_PALETTE && !img->palette)
        return invalid("palette image without PLTE");
    return KIMG_OK;
}

static int expand(struct kimg_image *img, const uint8_t *filtered)
{
    uint32_t npix = img->width * img->height;
    uint8_t *plane = malloc(npix * img->channels);
    if (!plane)
        return KIMG_ENOMEM;
    int rc = kimg_unfilter(filtered, plane, img->width, img->height, img->channels);
    if (rc != KIMG_OK) {
        free(plane);
        return rc;
    }
    if (img->ctype != KIMG_PALETTE) {
        img->pixels = plane;
        return KIMG_OK;
    }
    uint8_t *rgb = malloc(npix * 3);
    if (!rgb) {
        free(plane);
        return KIMG_ENOMEM;
    }
    for (size_t i = 0; i < npix; i++) {
        unsigned idx = plane[i];
        memcpy(rgb + 3 * i, img->palette + 3 * idx, 3);
    }
    free(plane);
    img->pixels = rgb;
    return KIMG_OK;
}

int kimg_decode(const uint8_t *data, size_t size, struct kimg_image *img)
{
    memset(img, 0, sizeof *img);
    if (size < 8 || memcmp(data, "KIMG", 4) != 0)
        return invalid("not a KIMG file");
    if (data[4] != 1 || (data[5] & ~1) || data[6] || data[7])
        return invalid("unsupported version, flags or reserved bytes");
    struct reader rd = {.data = data, .size = size, .pos = 8, .crc = data[5] & 1};
    img->crc = rd.crc;
    int rc = walk_chunks(&rd, img);
    uint8_t *filtered = NULL;
    if (rc == KIMG_OK) {
        uint32_t need = img->height * (img->width * img->channels + 1);
        if (img->compression == KIMG_RAW) {
            filtered = rd.stream;
            rd.stream = NULL;
        } else {
            filtered = malloc(need);
            if (!filtered)
                rc = KIMG_ENOMEM;
            else if (img->compression == KIMG_RLE)
                rc = kimg_unrle(rd.stream, rd.stream_len, filtered, need);
            else
                rc = kimg_unlz(rd.stream, rd.stream_len, filtered, need);
        }
    }
    if (rc == KIMG_OK)
        rc = expand(img, filtered);
    free(filtered);
    free(rd.stream);
    if (rc != KIMG_OK)
        kimg_free(img);
    return rc;
}

void kimg_free(struct kimg_image *img)
{
    struct kimg_text *t = img->texts;
    while (t) {
        struct kimg_text *next = t->next;
        free(t->value);
        free(t);
        t = next;
    }
    free(img->palette);
    free(img->pixels);
    img->texts = NULL;
    img->palette = NULL;
    img->pixels = NULL;
}
