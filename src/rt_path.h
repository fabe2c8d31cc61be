/* rt_path — the pieces of a file name: its stem (a run's default name), its folder (where a
 * workspace's relative paths start), and joining a relative path to a folder. */
#ifndef RT_PATH_H
#define RT_PATH_H

/* The file's base name without directories and without its last extension, in a new string.
 * Owned, as the two below: the caller frees it with free. */
char *rt_path_stem(const char *path);

/* The directory part of path ("." when none), in a new string (Owned: free it with free). */
char *rt_path_dir(const char *path);

/* base joined with rel unless rel is absolute or base is empty, in a new string (Owned: free it
 * with free). */
char *rt_path_join(const char *base, const char *rel);

#endif
