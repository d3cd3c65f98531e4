/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* Netpbm output of decoded images (P5, P6, P7) and input of the images to encode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimg.h"

int kimg_write_pnm(const char *path, const struct kimg_image *img)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        kimg_set_error("cannot create output");
        return KIMG_EIO;
    }
    if (img->out_channels == 1)
        fprintf(f, "P5\n%u %u\n255\n", img->width, img->height);
    else if (img->out_channels == 3)
        fprintf(f, "P6\n%u %u\n255\n", img->width, img->height);
    else
        fprintf(f, "P7\nWIDTH %u\nHEIGHT %u\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", img->width,
                img->height);
    size_t n = (size_t)img->width * img->height * img->out_channels;
    size_t put = fwrite(img->pixels, 1, n, f);
    if (fclose(f) != 0 || put != n) {
        kimg_set_error("write error");
        return KIMG_EIO;
    }
    return KIMG_OK;
}

static int invalid(const char *msg)
{
    kimg_set_error("%s", msg);
    return KIMG_EINVAL;
}

/* skips whitespace and '#' comments, then reads a decimal number (at most 9 digits) */
static int pnm_number(const uint8_t *data, size_t size, size_t *pos, uint32_t *value)
{
    size_t p = *pos;
    for (;;) {
        if (p < size && (data[p] == ' ' || data[p] == '\t' || data[p] == '\r' || data[p] == '\n')) {
            p++;
        } else if (p < size && data[p] == '#') {
            while (p < size && data[p] != '\n')
                p++;
        } else {
            break;
        }
    }
    uint32_t v = 0;
    int digits = 0;
    while (p < size && data[p] >= '0' && data[p] <= '9') {
        if (++digits > 9)
            return invalid("number too long in PNM header");
        v = v * 10 + (uint32_t)(data[p] - '0');
        p++;
    }
    if (digits == 0)
        return invalid("bad PNM header");
    *pos = p;
    *value = v;
    return KIMG_OK;
}

static int pam_header(const uint8_t *data, size_t size, size_t *pos, uint32_t *w, uint32_t *h)
{
    size_t p = 3;
    uint32_t depth = 0, maxval = 0;
    int tupl = 0;
    *w = *h = 0;
    for (;;) {
        size_t end = p;
        while (end < size && data[end] != '\n')
            end++;
        if (end >= size)
            return invalid("PAM header without ENDHDR");
        size_t len = end - p;
        char line[128];
        if (len >= sizeof line)
            return invalid("PAM header line too long");
        memcpy(line, data + p, len);
        line[len] = 0;
        p = end + 1;
        if (line[0] == '#' || len == 0)
            continue;
        if (strcmp(line, "ENDHDR") == 0)
            break;
        unsigned long v;
        char word[16];
        if (sscanf(line, "WIDTH %lu", &v) == 1)
            *w = v > KIMG_MAX_SIDE ? KIMG_MAX_SIDE + 1 : (uint32_t)v;
        else if (sscanf(line, "HEIGHT %lu", &v) == 1)
            *h = v > KIMG_MAX_SIDE ? KIMG_MAX_SIDE + 1 : (uint32_t)v;
        else if (sscanf(line, "DEPTH %lu", &v) == 1)
            depth = v == 4 ? 4 : 0;
        else if (sscanf(line, "MAXVAL %lu", &v) == 1)
            maxval = v == 255 ? 255 : 0;
        else if (sscanf(line, "TUPLTYPE %15s", word) == 1)
            tupl = strcmp(word, "RGB_ALPHA") == 0;
        else
            return invalid("unknown PAM header line");
    }
    if (depth != 4 || maxval != 255 || !tupl)
        return invalid("only RGB_ALPHA PAM images with MAXVAL 255 are supported");
    *pos = p;
    return KIMG_OK;
}

int kimg_read_pnm(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, unsigned *channels,
                  uint8_t **pixels)
{
    size_t pos = 2;
    uint32_t w, h, maxval;
    int rc;
    if (size < 3 || data[0] != 'P' || (data[1] != '5' && data[1] != '6' && data[1] != '7'))
        return invalid("not a P5, P6 or P7 file");
    if (data[1] == '7') {
        if (data[2] != '\n')
            return invalid("bad PAM header");
        if ((rc = pam_header(data, size, &pos, &w, &h)) != KIMG_OK)
            return rc;
        *channels = 4;
    } else {
        if ((rc = pnm_number(data, size, &pos, &w)) != KIMG_OK || (rc = pnm_number(data, size, &pos, &h)) != KIMG_OK
            || (rc = pnm_number(data, size, &pos, &maxval)) != KIMG_OK)
            return rc;
        if (maxval != 255)
            return invalid("only MAXVAL 255 is supported");
        if (pos >= size || !(data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\r' || data[pos] == '\n'))
            return invalid("bad PNM header");
        pos++;
        *channels = data[1] == '5' ? 1 : 3;
    }
    if (w < 1 || h < 1 || w > KIMG_MAX_SIDE || h > KIMG_MAX_SIDE || (uint64_t)w * h > KIMG_MAX_PIXELS)
        return invalid("image dimensions out of limits");
    size_t n = (size_t)w * h * *channels;
    if (size - pos < n)
        return invalid("PNM raster is truncated");
    *pixels = malloc(n);
    if (!*pixels)
        return KIMG_ENOMEM;
    memcpy(*pixels, data + pos, n);
    *width = w;
    *height = h;
    return KIMG_OK;
}
