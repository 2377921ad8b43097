/* cleanup.h: what is removed or ended when ropelab is killed (SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE): registered temp files, one temporary folder
 * (report's page while it is made) and the running child (gnuplot, a
 * report subcommand), so that no half-made file or folder is left. */
#ifndef RL_CLI_CLEANUP_H
#define RL_CLI_CLEANUP_H

#include <signal.h>
#include <sys/types.h>

/* Temp files removed by the signal handler if the process is killed.
 * path must stay valid until unregistered. */
void rl_tmp_register(const char *path);
void rl_tmp_unregister(const char *path);
/* Create a temp file from template (…XXXXXX) with mode 0666 & ~umask,
 * registered for cleanup; returns an fd or -1 with errno set. */
int rl_tmp_create(char *tmpl);

/* A child process (gnuplot) the signal handler ends with SIGTERM before
 * the process dies of the signal; 0 for none.  Set it with the cleanup
 * signals blocked (rl_signals_block) so that no signal falls between
 * fork and the record. */
void rl_child_set(pid_t pid);
void rl_signals_block(sigset_t *old);
void rl_signals_restore(const sigset_t *old);
/* In a forked child before exec: the default action for the signals our
 * handler caught (the child must not remove the parent's temp files). */
void rl_signals_default(void);

/* One temporary folder removed with what it holds if the process is
 * killed (path valid until unregistered); rl_tmpdir_remove removes it now
 * and unregisters it. */
void rl_tmpdir_register(const char *path);
void rl_tmpdir_unregister(void);
void rl_tmpdir_remove(void);

#endif
