/* path.h: what a path given to -o or --plot names, and how to write it.
 *
 * Only a regular file, or a name that does not exist yet, may be replaced
 * by renaming a temp file over it: renaming over a device, a FIFO or a
 * socket would destroy the node (as root, -o /dev/null made /dev/null a
 * regular file), and renaming over a symlink would replace the link
 * instead of the file it points to.  So:
 *   - a symlink is followed, also a dangling one, and its target replaced;
 *   - a device, FIFO or socket is opened and written straight through;
 *   - /dev/fd/N, /proc/self/fd/N, /dev/stdout and /dev/stderr are our own
 *     descriptor N, used as it is (a shell's >(cmd) or 3>file);
 *   - a directory is an error. */
#ifndef RL_CLI_PATH_H
#define RL_CLI_PATH_H

enum {
  RL_TARGET_REPLACE, /* regular file or new name: temp + fsync + rename */
  RL_TARGET_OPEN,    /* device, FIFO, socket: open(file, O_WRONLY) */
  RL_TARGET_FD       /* descriptor fd of this process */
};

typedef struct rl_target {
  int kind;
  char *file; /* REPLACE: the final file, symlinks followed; OPEN: path */
  int fd;     /* FD: the descriptor */
} rl_target;

/* Classify path; 0, or an errno (EISDIR, ELOOP, EACCES, ENOMEM, ...)
 * with nothing to free. */
int rl_target_resolve(const char *path, rl_target *t);
void rl_target_free(rl_target *t);

/* 1 if writing a and writing b would write the same file: the same
 * dev/ino when both exist, else the same name once symlinks and the
 * directory part are resolved ("./x.svg" and "x.svg"). */
int rl_path_same(const char *a, const char *b);

/* The temp file's template (mkstemp) for file: "DIR/NAME.tmpXXXXXX" in
 * file's folder, NAME being file's name cut (before a UTF-8 character)
 * so that the template fits the folder's longest name (pathconf
 * _PC_NAME_MAX, else 255): a valid name of up to 255 bytes gets a valid
 * temp name.  malloc'd; NULL without memory. */
char *rl_tmp_template(const char *file);
/* The folder part of file ("." when it has none; "/" for the root);
 * malloc'd, NULL without memory. */
char *rl_path_dir(const char *file);

#endif
