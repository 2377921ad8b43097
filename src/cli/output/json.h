/* json.h: a JSON string, escaped one way for every writer (the --meta
 * json sidecar in out.c, JSON Lines in formats/jsonl.c). */
#ifndef RL_CLI_JSON_H
#define RL_CLI_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Bytes rl_json_quote writes for s at most: 6 per byte and two quotes. */
#define RL_JSON_QUOTED_MAX(n) (6 * (n) + 3)
/* s quoted and escaped into dst (at least RL_JSON_QUOTED_MAX(strlen(s))
 * bytes, NUL-terminated); returns the length written. */
size_t rl_json_quote(char *dst, const char *s);
/* The same to fp. */
void rl_json_fput(FILE *fp, const char *s);

#endif
