/* json.c: JSON string escaping (json.h).  RFC 8259 sec. 7: '"', '\\' and
 * the controls below 0x20 must be escaped; DEL is escaped too, so that a
 * metadata value never carries a raw control into a terminal.  Other
 * bytes pass as they are (the values are UTF-8 or the user's bytes). */
#include <string.h>
#include "json.h"

size_t rl_json_quote(char *dst, const char *s)
{
  char *p = dst;
  *p++ = '"';
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\')
      *p++ = '\\', *p++ = (char)*c;
    else if (*c < 0x20 || *c == 0x7f)
      p += sprintf(p, "\\u%04x", *c);
    else
      *p++ = (char)*c;
  }
  *p++ = '"';
  *p = 0;
  return (size_t)(p - dst);
}

void rl_json_fput(FILE *fp, const char *s)
{
  char small[512];
  size_t n = strlen(s);
  if (RL_JSON_QUOTED_MAX(n) <= sizeof small) {
    fwrite(small, 1, rl_json_quote(small, s), fp);
    return;
  }
  /* long values: a piece at a time (escaping is per byte) */
  char piece[64]; /* RL_JSON_QUOTED_MAX(63) fits in small */
  fputc('"', fp);
  for (size_t i = 0; i < n; i += sizeof piece - 1) {
    size_t k = n - i < sizeof piece - 1 ? n - i : sizeof piece - 1;
    memcpy(piece, s + i, k);
    piece[k] = 0;
    size_t w = rl_json_quote(small, piece);
    fwrite(small + 1, 1, w - 2, fp); /* without its quotes */
  }
  fputc('"', fp);
}
