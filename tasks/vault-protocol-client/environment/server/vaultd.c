/* lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary */
/* vaultd: the record vault's export service (one client at a time, on a Unix socket). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---------------------------------------------------------------- sha256 / hmac */
typedef struct { uint32_t h[8]; uint8_t buf[64]; uint64_t len; size_t fill; } sha_t;
static const uint32_t K[64] = {
    0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,
    0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,
    0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,
    0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,
    0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,
    0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,
    0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,
    0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2};
#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
static void sha_block(sha_t *s, const uint8_t *p) {
    uint32_t w[64], a, b, c, d, e, f, g, h;
    for (int i = 0; i < 16; i++) w[i] = (uint32_t)p[4*i] << 24 | (uint32_t)p[4*i+1] << 16 | (uint32_t)p[4*i+2] << 8 | p[4*i+3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i-15], 7) ^ ROR(w[i-15], 18) ^ (w[i-15] >> 3);
        uint32_t s1 = ROR(w[i-2], 17) ^ ROR(w[i-2], 19) ^ (w[i-2] >> 10);
        w[i] = w[i-16] + s0 + w[i-7] + s1;
    }
    a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3]; e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d; s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}
static void sha_init(sha_t *s) {
    static const uint32_t iv[8] = {0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19};
    memcpy(s->h, iv, sizeof iv); s->len = 0; s->fill = 0;
}
static void sha_update(sha_t *s, const uint8_t *p, size_t n) {
    s->len += n;
    while (n--) { s->buf[s->fill++] = *p++; if (s->fill == 64) { sha_block(s, s->buf); s->fill = 0; } }
}
static void sha_final(sha_t *s, uint8_t out[32]) {
    uint64_t bits = s->len * 8; uint8_t pad = 0x80, zero = 0, lenb[8];
    sha_update(s, &pad, 1);
    while (s->fill != 56) sha_update(s, &zero, 1);
    for (int i = 0; i < 8; i++) lenb[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha_update(s, lenb, 8);
    for (int i = 0; i < 8; i++) { out[4*i] = s->h[i] >> 24; out[4*i+1] = s->h[i] >> 16; out[4*i+2] = s->h[i] >> 8; out[4*i+3] = s->h[i]; }
}
static void hmac(const uint8_t *key, size_t klen, const uint8_t *msg, size_t mlen, uint8_t out[32]) {
    uint8_t k[64] = {0}, ipad[64], opad[64], inner[32]; sha_t s;
    if (klen > 64) { sha_init(&s); sha_update(&s, key, klen); sha_final(&s, k); } else memcpy(k, key, klen);
    for (int i = 0; i < 64; i++) { ipad[i] = k[i] ^ 0x36; opad[i] = k[i] ^ 0x5c; }
    sha_init(&s); sha_update(&s, ipad, 64); sha_update(&s, msg, mlen); sha_final(&s, inner);
    sha_init(&s); sha_update(&s, opad, 64); sha_update(&s, inner, 32); sha_final(&s, out);
}

/* ---------------------------------------------------------------- crc32 / adler32 */
static uint32_t crc32(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    while (n--) { c ^= *p++; for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1))); }
    return ~c;
}
static uint32_t adler32(const uint8_t *p, size_t n) {
    uint32_t a = 1, b = 0;
    while (n--) { a = (a + *p++) % 65521; b = (b + a) % 65521; }
    return b << 16 | a;
}

/* ---------------------------------------------------------------- deterministic generator */
typedef struct { uint64_t s; } rng_t;
static uint64_t next64(rng_t *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint64_t below(rng_t *r, uint64_t n) { return next64(r) % n; }

static const char *WORDS[] = {"amber", "basalt", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo",
    "juniper", "kestrel", "lumen", "marlin", "nectar", "onyx", "pylon", "quartz", "raven", "sable", "tundra",
    "umber", "vortex", "willow", "xenon", "yarrow", "zephyr"};
static const char *UWORDS[] = {"caf\xc3\xa9", "na\xc3\xafve", "Gr\xc3\xbc\xc3\x9f" "e", "\xe6\x97\xa5\xe6\x9c\xac",
    "se\xc3\xb1" "al", "\xce\xa9mega", "tab\there", "quote\"d", "back\\slash", "line\nbreak", "\xf0\x9f\x94\x91key",
    "nul\x7f" "del"};
static const char *OWNERS[] = {"ops", "finance", "legal", "research", "support", "audit", "platform"};
static const char *RARE_KEYS[] = {"flag", "note", "digest", "ratio", "items", "label"};
#define NW (sizeof WORDS / sizeof *WORDS)
#define NU (sizeof UWORDS / sizeof *UWORDS)
#define NO (sizeof OWNERS / sizeof *OWNERS)

typedef struct { uint8_t *p; size_t n, cap; } buf_t;
static void put(buf_t *b, const void *src, size_t n) {
    if (b->n + n > b->cap) { b->cap = (b->n + n) * 2 + 64; b->p = realloc(b->p, b->cap); if (!b->p) exit(3); }
    memcpy(b->p + b->n, src, n); b->n += n;
}
static void put8(buf_t *b, unsigned v) { uint8_t c = (uint8_t)v; put(b, &c, 1); }
static void put16(buf_t *b, unsigned v) { put8(b, v >> 8); put8(b, v); }
static void put32(buf_t *b, uint32_t v) { put16(b, v >> 16); put16(b, v & 0xFFFF); }
static void put64(buf_t *b, uint64_t v) { put32(b, (uint32_t)(v >> 32)); put32(b, (uint32_t)v); }
static void put_key(buf_t *b, const char *k) { put8(b, strlen(k)); put(b, k, strlen(k)); }
static void put_text(buf_t *b, const char *s) { put8(b, 1); put16(b, strlen(s)); put(b, s, strlen(s)); }

typedef struct { uint32_t id, size; uint8_t *data; } blob_t;
typedef struct { uint32_t id; size_t off, len; } rec_t;

static struct {
    uint64_t seed; unsigned records, rare, big, busy, drop, corrupt;
    char user[64], password[128], socket[100];
} cfg = {4242, 40, 0, 0, 0, 0, 0, "audit", "correct-horse-7", ""};

static buf_t recbuf; static rec_t *recs; static blob_t *blobs; static unsigned nblobs;

static const char *word(rng_t *r) {
    if (cfg.rare && below(r, 4) == 0) return UWORDS[below(r, NU)];
    return WORDS[below(r, NW)];
}

static void put_list(buf_t *b, rng_t *r, int depth) {
    unsigned n = below(r, 5);
    put8(b, 6); put8(b, n);
    for (unsigned i = 0; i < n; i++) {
        unsigned t = below(r, depth < 1 ? 5 : 4);
        if (t == 0) put_text(b, WORDS[below(r, NW)]);
        else if (t == 1) { int64_t v = (int64_t)below(r, 1000) - 500; put8(b, 2); put64(b, (uint64_t)v); }
        else if (t == 2) { put8(b, 4); put8(b, below(r, 2)); }
        else if (t == 3) put8(b, 5);
        else put_list(b, r, depth + 1);
    }
}

static void put_rare(buf_t *b, rng_t *r, unsigned kind) {
    if (kind == 0) { put8(b, 4); put8(b, below(r, 2)); }
    else if (kind == 1) put8(b, 5);
    else if (kind == 2) {
        unsigned n = below(r, 24); put8(b, 3); put16(b, n);
        for (unsigned i = 0; i < n; i++) put8(b, below(r, 256));
    } else if (kind == 3) {
        int64_t v = (int64_t)below(r, 2000001) - 1000000; double d = (double)v / 64.0; uint64_t bits;
        memcpy(&bits, &d, 8); put8(b, 8); put64(b, bits);
    } else if (kind == 4) put_list(b, r, 0);
    else {
        char s[128]; const char *a = UWORDS[below(r, NU)]; const char *c = UWORDS[below(r, NU)];
        snprintf(s, sizeof s, "%s %s", a, c); put_text(b, s);
    }
}

static void generate(void) {
    rng_t r = {cfg.seed ^ 0x5EEDDA7Aull};
    uint32_t id = 1000 + below(&r, 9000), blob_id = 1 + below(&r, 50);
    recs = calloc(cfg.records, sizeof *recs); blobs = calloc(cfg.records, sizeof *blobs);
    for (unsigned i = 0; i < cfg.records; i++) {
        if (i) id += 1 + below(&r, 5);
        buf_t f = {0}; unsigned nf = 0; char name[128];
        const char *w1 = word(&r); const char *w2 = word(&r);
        snprintf(name, sizeof name, "%s-%s", w1, w2);
        put_key(&f, "name"); put_text(&f, name); nf++;
        int64_t count = (int64_t)below(&r, 2000001) - 1000000;
        put_key(&f, "count"); put8(&f, 2); put64(&f, (uint64_t)count); nf++;
        if (below(&r, 2) == 0) { put_key(&f, "owner"); put_text(&f, OWNERS[below(&r, NO)]); nf++; }
        if (below(&r, 3) == 0) {
            uint32_t size = below(&r, (cfg.big ? 70000 : 5000) + 1);
            put_key(&f, "attachment"); put8(&f, 7); put32(&f, blob_id); put32(&f, size); nf++;
            blobs[nblobs].id = blob_id; blobs[nblobs].size = size; nblobs++;
            blob_id += 1 + below(&r, 3);
        }
        if (cfg.rare) {
            unsigned k = 1 + below(&r, 3);
            for (unsigned j = 0; j < k; j++) {
                unsigned kind = below(&r, 6); char key[32];
                if (j) snprintf(key, sizeof key, "%s%u", RARE_KEYS[kind], j); else snprintf(key, sizeof key, "%s", RARE_KEYS[kind]);
                put_key(&f, key); put_rare(&f, &r, kind); nf++;
            }
        }
        recs[i].id = id; recs[i].off = recbuf.n;
        put32(&recbuf, id); put8(&recbuf, nf); put(&recbuf, f.p, f.n);
        recs[i].len = recbuf.n - recs[i].off; free(f.p);
    }
    for (unsigned i = 0; i < nblobs; i++) {
        rng_t br = {cfg.seed ^ ((uint64_t)blobs[i].id * 0xD1B54A32D192ED03ull)};
        blobs[i].data = malloc(blobs[i].size + 8);
        for (uint32_t o = 0; o < blobs[i].size; o += 8) {
            uint64_t v = next64(&br);
            for (int k = 0; k < 8; k++) blobs[i].data[o + k] = (uint8_t)(v >> (8 * k));
        }
    }
}

/* ---------------------------------------------------------------- wire */
static int fd_client = -1;
static uint32_t ckey;
static int read_full(uint8_t *p, size_t n) {
    while (n) { ssize_t k = read(fd_client, p, n); if (k <= 0) { if (k < 0 && errno == EINTR) continue; return -1; } p += k; n -= k; }
    return 0;
}
static void send_frame(uint8_t type, uint8_t seq, const buf_t *payload) {
    buf_t f = {0};
    put(&f, "VL", 2); put8(&f, type); put8(&f, seq); put16(&f, payload ? payload->n : 0);
    if (payload && payload->n) put(&f, payload->p, payload->n);
    put32(&f, crc32(f.p, f.n));
    size_t o = 0;
    while (o < f.n) { ssize_t k = write(fd_client, f.p + o, f.n - o); if (k <= 0) { if (k < 0 && errno == EINTR) continue; break; } o += k; }
    free(f.p);
}
static void send_error(uint8_t seq, unsigned code, unsigned retry_ms, const char *msg) {
    buf_t b = {0}; put16(&b, code); put16(&b, retry_ms); put8(&b, strlen(msg)); put(&b, msg, strlen(msg));
    send_frame(0xFF, seq, &b); free(b.p);
}
static uint32_t enc_cursor(uint32_t idx) { return (idx * 0x9E3779B1u) ^ ckey; }
static int dec_cursor(uint32_t c, uint32_t *idx) {
    uint32_t v = (c ^ ckey) * 0x0E8B2F51u; /* inverse of 0x9E3779B1 mod 2^32 */
    if (v == 0 || v >= cfg.records) return -1;
    *idx = v; return 0;
}
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

static rng_t nonce_rng, fault_rng;
static unsigned long lists_served, chunks_served, sessions;

static void session(void) {
    uint8_t hdr[6], nonce[16], *payload = malloc(65536 + 4);
    uint16_t sid = next64(&nonce_rng) & 0xFFFF;
    uint64_t n1 = next64(&nonce_rng), n2 = next64(&nonce_rng);
    for (int k = 0; k < 8; k++) { nonce[k] = n1 >> (8 * k); nonce[8 + k] = n2 >> (8 * k); }
    unsigned drop_at = 0, count = 0; int hello = 0, authed = 0;
    if (cfg.drop) drop_at = sessions == 0 ? cfg.drop : cfg.drop + below(&fault_rng, cfg.drop);
    sessions++;
    for (;;) {
        if (read_full(hdr, 6)) break;
        unsigned len = hdr[4] << 8 | hdr[5]; uint8_t type = hdr[2], seq = hdr[3];
        if (read_full(payload, len + 4)) break;
        uint8_t whole[6 + 65536]; memcpy(whole, hdr, 6); memcpy(whole + 6, payload, len);
        if (hdr[0] != 'V' || hdr[1] != 'L' || crc32(whole, 6 + len) != rd32(payload + len)) { send_error(seq, 0x0001, 0, "bad frame"); break; }
        if (seq != (count & 0xFF)) { send_error(seq, 0x0002, 0, "sequence"); break; }
        count++;
        if (drop_at && count >= drop_at) break; /* session reset: the request is lost */
        buf_t out = {0};
        if (type == 0x01) {
            if (len < 6 || memcmp(payload, "VAULT", 5) || len < 6u + payload[5]) { send_error(seq, 0x0001, 0, "bad hello"); break; }
            int ok = 0; for (unsigned i = 0; i < payload[5]; i++) if (payload[6 + i] == 3) ok = 1;
            if (!ok) { send_error(seq, 0x0010, 0, "no common version (server speaks 3)"); break; }
            hello = 1; put8(&out, 3); put16(&out, sid); put(&out, nonce, 16); send_frame(0x81, seq, &out);
        } else if (!hello) { send_error(seq, 0x0011, 0, "hello first"); break;
        } else if (type == 0x02) {
            unsigned ul = len ? payload[0] : 0;
            if (len != 1 + ul + 16) { send_error(seq, 0x0001, 0, "bad auth"); break; }
            buf_t m = {0}; uint8_t mac[32];
            put(&m, nonce, 16); put16(&m, sid); put(&m, payload + 1, ul);
            hmac((const uint8_t *)cfg.password, strlen(cfg.password), m.p, m.n, mac); free(m.p);
            if (ul != strlen(cfg.user) || memcmp(payload + 1, cfg.user, ul) || memcmp(mac, payload + 1 + ul, 16)) {
                send_error(seq, 0x0012, 0, "access denied"); break;
            }
            authed = 1; put32(&out, cfg.records); put8(&out, 25); send_frame(0x82, seq, &out);
        } else if (!authed && (type == 0x10 || type == 0x20)) { send_error(seq, 0x0011, 0, "not authenticated");
        } else if (type == 0x10 || type == 0x20) {
            uint64_t v = next64(&fault_rng);
            int first = type == 0x10 ? lists_served == 0 : 0;
            if (cfg.busy && (first || v % 1000 < cfg.busy)) {
                if (type == 0x10) lists_served++;
                send_error(seq, 0x0429, 1 + (v >> 20) % 20, "busy, retry later");
            } else if (type == 0x10) {
                lists_served++;
                uint32_t cur, idx = 0; unsigned lim;
                if (len != 5) { send_error(seq, 0x0001, 0, "bad list"); free(out.p); break; }
                cur = rd32(payload); lim = payload[4];
                if (cur && dec_cursor(cur, &idx)) send_error(seq, 0x0020, 0, "bad cursor");
                else if (lim == 0) send_error(seq, 0x0021, 0, "bad limit");
                else {
                    if (lim > 25) lim = 25;
                    unsigned n = 0; buf_t recsb = {0};
                    while (n < lim && idx + n < cfg.records) { put(&recsb, recbuf.p + recs[idx + n].off, recs[idx + n].len); n++; }
                    put8(&out, n); put(&out, recsb.p, recsb.n); free(recsb.p);
                    put32(&out, idx + n < cfg.records ? enc_cursor(idx + n) : 0);
                    send_frame(0x90, seq, &out);
                }
            } else {
                if (len != 10) { send_error(seq, 0x0001, 0, "bad get"); free(out.p); break; }
                uint32_t bid = rd32(payload), off = rd32(payload + 4); unsigned mx = payload[8] << 8 | payload[9];
                blob_t *bl = NULL;
                for (unsigned i = 0; i < nblobs; i++) if (blobs[i].id == bid) bl = &blobs[i];
                if (!bl) send_error(seq, 0x0030, 0, "unknown blob");
                else if (off > bl->size) send_error(seq, 0x0031, 0, "bad offset");
                else {
                    unsigned n = bl->size - off; if (n > mx) n = mx; if (n > 512) n = 512;
                    uint8_t chunk[512]; memcpy(chunk, bl->data + off, n);
                    uint32_t sum = adler32(chunk, n);
                    uint64_t w = next64(&fault_rng);
                    if (n && cfg.corrupt && (chunks_served == 0 || w % 1000 < cfg.corrupt)) chunk[(w >> 20) % n] ^= 0x20;
                    if (n) chunks_served++;
                    put32(&out, bid); put32(&out, off); put32(&out, bl->size); put16(&out, n); put(&out, chunk, n); put32(&out, sum);
                    send_frame(0xA0, seq, &out);
                }
            }
        } else if (type == 0x0F) { send_frame(0x8F, seq, NULL); free(out.p); break;
        } else send_error(seq, 0x00FF, 0, "unknown request");
        free(out.p);
    }
    free(payload);
}

/* ---------------------------------------------------------------- options */
static int set_opt(const char *k, const char *v) {
    if (!strcmp(k, "seed")) cfg.seed = strtoull(v, NULL, 10);
    else if (!strcmp(k, "records")) cfg.records = atoi(v);
    else if (!strcmp(k, "rare")) cfg.rare = atoi(v);
    else if (!strcmp(k, "big")) cfg.big = atoi(v);
    else if (!strcmp(k, "busy")) cfg.busy = atoi(v);
    else if (!strcmp(k, "drop")) cfg.drop = atoi(v);
    else if (!strcmp(k, "corrupt")) cfg.corrupt = atoi(v);
    else if (!strcmp(k, "user")) snprintf(cfg.user, sizeof cfg.user, "%s", v);
    else if (!strcmp(k, "password")) snprintf(cfg.password, sizeof cfg.password, "%s", v);
    else if (!strcmp(k, "socket")) snprintf(cfg.socket, sizeof cfg.socket, "%s", v);
    else return -1;
    return 0;
}
static void load_config(const char *path) {
    FILE *f = fopen(path, "r"); char line[512];
    if (!f) { perror(path); exit(2); }
    while (fgets(line, sizeof line, f)) {
        char *eq = strchr(line, '='); if (!eq || line[0] == '#') continue;
        *eq = 0; char *v = eq + 1; v[strcspn(v, "\r\n")] = 0;
        if (set_opt(line, v)) { fprintf(stderr, "vaultd: unknown key %s\n", line); exit(2); }
    }
    fclose(f);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: vaultd --socket PATH [--seed N] [--user U] [--password P] [--records N] [--rare 0|1]\n"
                 "              [--big 0|1] [--busy PERMILLE] [--drop N] [--corrupt PERMILLE] [--config FILE]");
            return 0;
        }
        if (i + 1 >= argc || strncmp(argv[i], "--", 2)) { fprintf(stderr, "vaultd: bad argument %s\n", argv[i]); return 2; }
        if (!strcmp(argv[i], "--config")) load_config(argv[++i]);
        else if (set_opt(argv[i] + 2, argv[i + 1])) { fprintf(stderr, "vaultd: unknown option %s\n", argv[i]); return 2; }
        else i++;
    }
    if (!cfg.socket[0] || cfg.records == 0 || cfg.records > 100000) { fprintf(stderr, "vaultd: need --socket and 1..100000 records\n"); return 2; }
    signal(SIGPIPE, SIG_IGN);
    generate();
    rng_t ck = {cfg.seed ^ 0xC0C0ull}; ckey = (uint32_t)next64(&ck);
    nonce_rng.s = cfg.seed ^ 0xC0FFEEull; fault_rng.s = cfg.seed ^ 0xFA17ull;
    int srv = socket(AF_UNIX, SOCK_STREAM, 0); struct sockaddr_un sa = {0};
    sa.sun_family = AF_UNIX; snprintf(sa.sun_path, sizeof sa.sun_path, "%s", cfg.socket);
    unlink(cfg.socket);
    if (srv < 0 || bind(srv, (struct sockaddr *)&sa, sizeof sa) || listen(srv, 4)) { perror("vaultd"); return 1; }
    chmod(cfg.socket, 0666);
    fprintf(stderr, "vaultd: serving %u records, %u blobs on %s\n", cfg.records, nblobs, cfg.socket);
    for (;;) {
        fd_client = accept(srv, NULL, NULL);
        if (fd_client < 0) { if (errno == EINTR) continue; perror("accept"); return 1; }
        session();
        close(fd_client);
    }
}
