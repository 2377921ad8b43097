/* pos.c: the registry of the trainer's positional schemes (their type
 * objects: pos_impl.h; the list: RL_TRAIN_POS_LIST there) and the
 * public look-ups by index and by name. */
#include <pthread.h>
#include <string.h>
#include "pos_impl.h"
#include "ropelab.h"

#define RL_TRAIN_POS_ENTRY(n) &rl_tpos_##n,
static const rl_tpos *const registry[RL_TRAIN_POS_N] = {RL_TRAIN_POS_LIST(RL_TRAIN_POS_ENTRY)};
#undef RL_TRAIN_POS_ENTRY

const rl_tpos *rl_tpos_at(int pos)
{
  return pos >= 0 && pos < RL_TRAIN_POS_N ? registry[pos] : NULL;
}

size_t rl_train_pos_count(void) { return RL_TRAIN_POS_N; }

/* NULL-terminated: the --scheme declaration (settings.c) reads them */
static const char *names[RL_TRAIN_POS_N + 1];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;
static void names_build(void)
{
  for (int k = 0; k < RL_TRAIN_POS_N; k++)
    names[k] = registry[k]->name;
}
const char *const *rl_train_pos_names(void)
{
  pthread_once(&names_once, names_build);
  return names;
}

int rl_train_pos_find(const char *name)
{
  for (int k = 0; name && k < RL_TRAIN_POS_N; k++)
    if (!strcmp(registry[k]->name, name))
      return k;
  return -1;
}
