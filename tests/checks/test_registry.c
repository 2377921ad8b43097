/* test_registry.c: the registries' contracts (src/core/checks/registry.c,
 * ropelab.h): rl_check_list holds every check of every family, however
 * many (it stopped at 64), the same table for threads asking at once, and
 * the _free functions accept NULL as the header promises. */
#include <pthread.h>
#include <string.h>
#include "ropelab.h"
#include "core/checks/check_impl.h"
#include "tap.h"

static size_t count(const rl_check *c)
{
  size_t n = 0;
  while (c[n].name)
    n++;
  return n;
}

static void *ask(void *arg)
{
  *(const rl_check **)arg = rl_check_list();
  return NULL;
}

int main(void)
{
  /* the families counted here one by one, not through the registry */
  size_t want = count(rl_checks_rope) + count(rl_checks_schemes) + count(rl_checks_schedules) +
                count(rl_checks_bounds) + count(rl_checks_extrapolate);
  const rl_check *got[2] = {NULL, NULL};
  pthread_t t[2];
  for (int k = 0; k < 2; k++)
    pthread_create(&t[k], NULL, ask, &got[k]);
  for (int k = 0; k < 2; k++)
    pthread_join(t[k], NULL);
  tap_bool(got[0] && got[0] == got[1], "two threads get the same table");
  size_t n = count(rl_check_list());
  tap_bool(n == want, "rl_check_list holds all %zu checks of the families (got %zu)", want, n);
  /* each family's checks in order, none dropped or repeated */
  const rl_check *all = rl_check_list();
  size_t k = 0, same = 1;
  const rl_check *fam[] = {rl_checks_rope, rl_checks_schemes, rl_checks_schedules,
                           rl_checks_bounds, rl_checks_extrapolate};
  for (size_t f = 0; f < 5; f++)
    for (const rl_check *c = fam[f]; c->name; c++, k++)
      same &= k < n && !strcmp(all[k].name, c->name);
  tap_bool(same, "in family order");
  rl_extrap_result_free(NULL);
  tap_bool(1, "rl_extrap_result_free(NULL) returns");
  return tap_done();
}
