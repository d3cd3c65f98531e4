/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* imgtool: command-line front end of the kimg library (info, decode, encode). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimg.h"

enum { EXIT_USAGE = 1, EXIT_INVALID = 2 };

static int usage(void)
{
    fprintf(stderr, "usage: imgtool info FILE.kimg\n"
                    "       imgtool decode FILE.kimg OUT.pnm\n"
                    "       imgtool encode IN.pnm OUT.kimg [--compression raw|rle|lz] [--filter none|sub|up|avg]"
                    " [--crc] [--palette]\n");
    return EXIT_USAGE;
}

static int fail(const char *path, int rc)
{
    if (rc == KIMG_ENOMEM)
        fprintf(stderr, "imgtool: %s: out of memory\n", path);
    else
        fprintf(stderr, "imgtool: %s: %s\n", path, kimg_error());
    return rc == KIMG_EINVAL ? EXIT_INVALID : EXIT_USAGE;
}

static int load(const char *path, struct kimg_image *img)
{
    uint8_t *data;
    size_t size;
    int rc = kimg_read_file(path, &data, &size, KIMG_MAX_FILE);
    if (rc != KIMG_OK)
        return rc;
    rc = kimg_decode(data, size, img);
    free(data);
    return rc;
}

static int cmd_info(const char *path)
{
    struct kimg_image img;
    int rc = load(path, &img);
    if (rc != KIMG_OK)
        return fail(path, rc);
    printf("%u %u %s %s%s\n", img.width, img.height, kimg_ctype_name(img.ctype), kimg_comp_name(img.compression),
           img.crc ? " crc" : "");
    for (struct kimg_text *t = img.texts; t; t = t->next)
        printf("%s: %.*s\n", t->key, (int)t->value_len, (const char *)t->value);
    kimg_free(&img);
    return 0;
}

static int cmd_decode(const char *in, const char *out)
{
    struct kimg_image img;
    int rc = load(in, &img);
    if (rc != KIMG_OK)
        return fail(in, rc);
    rc = kimg_write_pnm(out, &img);
    kimg_free(&img);
    if (rc != KIMG_OK) {
        remove(out);
        return fail(out, rc);
    }
    return 0;
}

static int cmd_encode(const char *in, const char *out, int argc, char **argv)
{
    struct kimg_encode_opts opts = {KIMG_RAW, KIMG_NONE, 0, 0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--crc") == 0) {
            opts.crc = 1;
        } else if (strcmp(argv[i], "--palette") == 0) {
            opts.palette = 1;
        } else if (strcmp(argv[i], "--compression") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "raw") == 0) opts.compression = KIMG_RAW;
            else if (strcmp(v, "rle") == 0) opts.compression = KIMG_RLE;
            else if (strcmp(v, "lz") == 0) opts.compression = KIMG_LZ;
            else return usage();
        } else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "none") == 0) opts.filter = KIMG_NONE;
            else if (strcmp(v, "sub") == 0) opts.filter = KIMG_SUB;
            else if (strcmp(v, "up") == 0) opts.filter = KIMG_UP;
            else if (strcmp(v, "avg") == 0) opts.filter = KIMG_AVG;
            else return usage();
        } else {
            return usage();
        }
    }
    uint8_t *data, *pixels, *file;
    size_t size, file_len;
    uint32_t w, h;
    unsigned channels;
    int rc = kimg_read_file(in, &data, &size, KIMG_MAX_FILE);
    if (rc != KIMG_OK)
        return fail(in, rc);
    rc = kimg_read_pnm(data, size, &w, &h, &channels, &pixels);
    free(data);
    if (rc != KIMG_OK)
        return fail(in, rc);
    rc = kimg_encode(pixels, w, h, channels, &opts, &file, &file_len);
    free(pixels);
    if (rc != KIMG_OK)
        return fail(in, rc);
    FILE *f = fopen(out, "wb");
    if (!f) {
        free(file);
        fprintf(stderr, "imgtool: %s: cannot create\n", out);
        return EXIT_USAGE;
    }
    size_t put = fwrite(file, 1, file_len, f);
    free(file);
    if (fclose(f) != 0 || put != file_len) {
        remove(out);
        fprintf(stderr, "imgtool: %s: write error\n", out);
        return EXIT_USAGE;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "info") == 0)
        return cmd_info(argv[2]);
    if (argc == 4 && strcmp(argv[1], "decode") == 0)
        return cmd_decode(argv[2], argv[3]);
    if (argc >= 4 && strcmp(argv[1], "encode") == 0)
        return cmd_encode(argv[2], argv[3], argc - 4, argv + 4);
    return usage();
}
