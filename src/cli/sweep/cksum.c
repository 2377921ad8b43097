/* cksum.c: see cksum.h. */
#include "cksum.h"

static uint32_t table[256];

static void make_table(void)
{
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i << 24;
    for (int k = 0; k < 8; k++)
      c = c & 0x80000000u ? (c << 1) ^ 0x04C11DB7u : c << 1;
    table[i] = c;
  }
}

void rl_cksum_init(rl_cksum *c)
{
  if (!table[1])
    make_table();
  c->crc = 0;
  c->len = 0;
}

void rl_cksum_add(rl_cksum *c, const void *p, size_t n)
{
  const unsigned char *b = p;
  uint32_t crc = c->crc;
  for (size_t i = 0; i < n; i++)
    crc = (crc << 8) ^ table[(crc >> 24) ^ b[i]];
  c->crc = crc;
  c->len += n;
}

uint32_t rl_cksum_value(const rl_cksum *c)
{
  uint32_t crc = c->crc;
  for (unsigned long long n = c->len; n; n >>= 8)
    crc = (crc << 8) ^ table[(crc >> 24) ^ (n & 0xff)];
  return ~crc;
}
