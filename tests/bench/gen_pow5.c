/* gen_pow5.c - writes the tables of powers of five that the number conversions multiply
 * by: src/fastfloat_pow5.h for the Eisel-Lemire parser of src/fastfloat.c (`make
 * pow5-table`) and, with the argument "ryu", src/numfmt_pow5.h for the Ryu printer of
 * src/numfmt.c (`make numfmt-table`):
 *
 *     build/bench/gen_pow5 > src/fastfloat_pow5.h
 *     build/bench/gen_pow5 ryu > src/numfmt_pow5.h
 *
 * Eisel-Lemire:
 * Exact big-integer arithmetic, nothing else: for q = -342 .. 308 the entry is
 *   q >= 0: 5^q shifted so that its top bit is bit 127 of 128, lower bits cut off;
 *   q <  0: with p = 5^-q and z the bit length of p, b = z + 127 when -q <= 27, else
 *           2z + 128; then c = floor(2^b / p) + 1, halved (rounding down) until it fits
 *           in 128 bits.
 * This is the definition fast_float and the Eisel-Lemire paper use, so the method's
 * proof of correctness applies; tests/test_fastfloat.c checks every entry again by
 * multiplication alone.
 * Ryu (Adams, PLDI 2018), with z the bit length of 5^i:
 *   pow5[i]     = 5^i shifted to exactly 125 bits (lower bits cut off);
 *   pow5_inv[i] = floor(2^(z - 1 + 125) / 5^i) + 1 (between 2^124 and 2^125 + 1);
 * for every i that src/numfmt.c can ask for, found by walking every exponent field. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LIMBS 64 /* 2048 bits: 2^b above needs at most 1719 */

/* ---- a little unsigned big integer: 32-bit limbs, least significant first ---- */

typedef struct big {
    uint32_t d[LIMBS];
} big;

static void big_set(big *a, uint32_t v)
{
    memset(a, 0, sizeof *a);
    a->d[0] = v;
}

static void big_mul_small(big *a, uint32_t m)
{
    uint64_t carry = 0;
    int i;

    for (i = 0; i < LIMBS; i++) {
        const uint64_t t = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

static int big_bitlen(const big *a)
{
    int i, b;

    for (i = LIMBS - 1; i >= 0; i--)
        if (a->d[i] != 0) {
            for (b = 31; !(a->d[i] >> b & 1); b--)
                ;
            return i * 32 + b + 1;
        }
    return 0;
}

static void big_set_bit(big *a, int k)
{
    a->d[k / 32] |= (uint32_t)1 << (k % 32);
}

static void big_shl1(big *a)
{
    int i;

    for (i = LIMBS - 1; i > 0; i--)
        a->d[i] = a->d[i] << 1 | a->d[i - 1] >> 31;
    a->d[0] <<= 1;
}

static void big_shr1(big *a)
{
    int i;

    for (i = 0; i < LIMBS - 1; i++)
        a->d[i] = a->d[i] >> 1 | a->d[i + 1] << 31;
    a->d[LIMBS - 1] >>= 1;
}

static int big_cmp(const big *a, const big *b)
{
    int i;

    for (i = LIMBS - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static void big_sub(big *a, const big *b) /* a -= b, a >= b */
{
    int64_t borrow = 0;
    int i;

    for (i = 0; i < LIMBS; i++) {
        int64_t t = (int64_t)a->d[i] - b->d[i] - borrow;
        borrow = t < 0;
        a->d[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
    }
}

static void big_add_small(big *a, uint32_t v)
{
    uint64_t carry = v;
    int i;

    for (i = 0; i < LIMBS && carry; i++) {
        const uint64_t t = (uint64_t)a->d[i] + carry;
        a->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

/* q = floor(2^b / p), by schoolbook binary long division. */
static void big_pow2_div(big *q, int b, const big *p)
{
    big r;
    int k;

    big_set(q, 0);
    big_set(&r, 0);
    for (k = b; k >= 0; k--) {
        big_shl1(&r);
        if (k == b)
            r.d[0] |= 1;
        if (big_cmp(&r, p) >= 0) {
            big_sub(&r, p);
            big_set_bit(q, k);
        }
    }
}

/* The top 128 bits of a (which has at most 128 bits after the caller's shifting). */
static void top128(const big *a, uint64_t *hi, uint64_t *lo)
{
    *hi = (uint64_t)a->d[3] << 32 | a->d[2];
    *lo = (uint64_t)a->d[1] << 32 | a->d[0];
}

static void big_pow5(big *p, int k) /* p = 5^k */
{
    big_set(p, 1);
    while (k-- > 0)
        big_mul_small(p, 5);
}

/* ---- the two halves of the table ---- */

static void negative_power(int k, uint64_t *hi, uint64_t *lo) /* 5^-k, k >= 1 */
{
    big p, c;
    int z, b;

    big_pow5(&p, k);
    z = big_bitlen(&p); /* p is no power of two, so 2^(z-1) < p < 2^z */
    b = k <= 27 ? z + 127 : 2 * z + 128;
    big_pow2_div(&c, b, &p);
    big_add_small(&c, 1);
    while (big_bitlen(&c) > 128)
        big_shr1(&c);
    top128(&c, hi, lo);
}

/* 5^k, k >= 0, shifted to exactly bits bits (at most 128): the lower bits cut off. */
static void positive_power(int k, int bits, uint64_t *hi, uint64_t *lo)
{
    big p;

    big_pow5(&p, k);
    while (big_bitlen(&p) < bits)
        big_shl1(&p);
    while (big_bitlen(&p) > bits)
        big_shr1(&p);
    top128(&p, hi, lo);
}

/* Ryu's inverse: floor(2^(z - 1 + 125) / 5^k) + 1, z the bit length of 5^k. */
static void ryu_inverse(int k, uint64_t *hi, uint64_t *lo)
{
    big p, c;

    big_pow5(&p, k);
    big_pow2_div(&c, big_bitlen(&p) - 1 + 125, &p);
    big_add_small(&c, 1);
    top128(&c, hi, lo);
}

static void print_eisel_lemire(void)
{
    int q;

    puts("/* fastfloat_pow5.h - GENERATED by tests/bench/gen_pow5.c (`make pow5-table`): do not\n"
         " * edit. 128-bit powers of five 5^q, q = -342 .. 308, top bit set, as {high, low}\n"
         " * 64-bit words: the table of the Eisel-Lemire method (see gen_pow5.c for the exact\n"
         " * definition; tests/test_fastfloat.c re-checks every entry). */\n"
         "#ifndef ATTNSTEP_FASTFLOAT_POW5_H\n"
         "#define ATTNSTEP_FASTFLOAT_POW5_H\n\n"
         "#include <stdint.h>\n\n"
         "#define POW5_MIN_Q (-342)\n"
         "#define POW5_MAX_Q 308\n\n"
         "static const uint64_t pow5_128[POW5_MAX_Q - POW5_MIN_Q + 1][2] = {");
    for (q = -342; q <= 308; q++) {
        uint64_t hi, lo;
        if (q < 0)
            negative_power(-q, &hi, &lo);
        else
            positive_power(q, 128, &hi, &lo);
        printf("    {0x%016llxu, 0x%016llxu}, /* 5^%d */\n", (unsigned long long)hi,
               (unsigned long long)lo, q);
    }
    puts("};\n\n#endif");
}

/* ---- Ryu's two tables ---- */

/* The most entries numfmt.c reads, walking every exponent field with its formulas:
 * e2 = exponent - 1077 (two more bits for the bounds); for e2 >= 0 it reads
 * pow5_inv[q], q = floor(e2 log10 2) - 1; for e2 < 0 it reads pow5[-e2 - q],
 * q = floor(-e2 log10 5) - 1 (never below 0). */
static void ryu_counts(int *npow5, int *ninv)
{
    int field;

    *npow5 = *ninv = 0;
    for (field = 0; field < 2047; field++) {
        const int e2 = (field == 0 ? 1 : field) - 1077;
        int q;
        if (e2 >= 0) {
            q = (int)(((long)e2 * 78913) >> 18) - (e2 > 3);
            *ninv = q + 1 > *ninv ? q + 1 : *ninv;
        } else {
            q = (int)(((long)-e2 * 732923) >> 20) - (-e2 > 1);
            *npow5 = -e2 - q + 1 > *npow5 ? -e2 - q + 1 : *npow5;
        }
    }
}

/* One table: name, count entries, each from make(i). */
static void print_ryu_table(const char *name, const char *count, int n,
                            void (*make)(int, uint64_t *, uint64_t *))
{
    int i;

    printf("static const uint64_t %s[%s][2] = {\n", name, count);
    for (i = 0; i < n; i++) {
        uint64_t hi, lo;
        make(i, &hi, &lo);
        printf("    {0x%016llxu, 0x%016llxu}, /* %s5^%d */\n", (unsigned long long)hi,
               (unsigned long long)lo, make == ryu_inverse ? "1 / " : "", i);
    }
    puts("};\n");
}

static void ryu_pow5(int k, uint64_t *hi, uint64_t *lo)
{
    positive_power(k, 125, hi, lo);
}

static void print_ryu(void)
{
    int npow5, ninv;

    ryu_counts(&npow5, &ninv);
    puts("/* numfmt_pow5.h - GENERATED by tests/bench/gen_pow5.c (`make numfmt-table`): do not\n"
         " * edit. The powers of five of the Ryu method in src/numfmt.c, as {high, low} 64-bit\n"
         " * words: ryu_pow5[i] is 5^i cut to its top 125 bits, ryu_pow5_inv[i] is\n"
         " * floor(2^(z - 1 + 125) / 5^i) + 1 with z the bit length of 5^i. */\n"
         "#ifndef ATTNSTEP_NUMFMT_POW5_H\n"
         "#define ATTNSTEP_NUMFMT_POW5_H\n\n"
         "#include <stdint.h>\n");
    printf("#define RYU_POW5_COUNT %d\n#define RYU_POW5_INV_COUNT %d\n\n", npow5, ninv);
    print_ryu_table("ryu_pow5", "RYU_POW5_COUNT", npow5, ryu_pow5);
    print_ryu_table("ryu_pow5_inv", "RYU_POW5_INV_COUNT", ninv, ryu_inverse);
    puts("#endif");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "ryu") == 0)
        print_ryu();
    else if (argc == 1)
        print_eisel_lemire();
    else {
        fputs("usage: gen_pow5 [ryu]\n", stderr);
        return 2;
    }
    return 0;
}
