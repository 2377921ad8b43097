/* cksum.h: the POSIX `cksum` CRC (IEEE 1003.1, the cksum utility: CRC-32
 * with polynomial 0x04C11DB7, most significant bit first, the length
 * appended in its fewest bytes, then complemented), so that a shard's
 * recorded checksum can be recomputed with the standard tool:
 * `tail -n +K shard.csv | cksum`. */
#ifndef RL_CLI_CKSUM_H
#define RL_CLI_CKSUM_H

#include <stddef.h>
#include <stdint.h>

typedef struct rl_cksum {
  uint32_t crc;
  unsigned long long len;
} rl_cksum;

void rl_cksum_init(rl_cksum *c);
void rl_cksum_add(rl_cksum *c, const void *p, size_t n);
/* The value `cksum` prints (c itself is left as it was). */
uint32_t rl_cksum_value(const rl_cksum *c);

#endif
