// SPDX-License-Identifier: MIT
/*
 * SHA-256 as FIPS 180-4 defines it: 64-byte blocks, big-endian words,
 * the padding a 1 bit, zeros and the message's length in bits.
 */
#include "jit_sha256.h"

#include <string.h>

static const uint32_t round_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void compress(uint32_t h[8], const uint8_t block[64])
{
	uint32_t w[64], v[8];
	for (int i = 0; i < 16; i++)
		w[i] = load_be32(block + 4 * i);
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^
			      w[i - 15] >> 3;
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^
			      w[i - 2] >> 10;
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, h, sizeof(v));
	for (int i = 0; i < 64; i++) {
		uint32_t e = v[4], a = v[0];
		uint32_t ch = (e & v[5]) ^ (~e & v[6]);
		uint32_t t1 = v[7] + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
			      ch + round_k[i] + w[i];
		uint32_t maj = (a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]);
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + maj;
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t start[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(s->h, start, sizeof(start));
	s->used = 0;
	s->total = 0;
}

void sha256_add(struct sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	s->total += len;
	while (len) {
		size_t n = 64 - s->used < len ? 64 - s->used : len;
		memcpy(s->block + s->used, p, n);
		s->used += (uint32_t)n;
		p += n;
		len -= n;
		if (s->used == 64) {
			compress(s->h, s->block);
			s->used = 0;
		}
	}
}

void sha256_finish(struct sha256 *s, uint8_t out[SHA256_BYTES])
{
	uint64_t bits = s->total * 8;
	uint8_t pad = 0x80, zero = 0, len[8];
	sha256_add(s, &pad, 1);
	while (s->used != 56)
		sha256_add(s, &zero, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_add(s, len, 8);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
}
