/* keys — the one table of key names: how the action table's keys are shown (help, the man page,
 * the status legends) and how a script names them (<Enter>, <C-r>). */
#ifndef RT_KEYS_H
#define RT_KEYS_H

#include <stddef.h>

/* A key code of the action table: a character, a curses KEY_ code, or a range of characters
 * (KEY_RANGE('1', '9'): any digit from 1 to 9, the handler reads which). */
#define KEY_RANGE(lo, hi) (0x40000000 | ((lo) << 8) | (hi))
#define KEY_IS_RANGE(k) (((k) & 0x40000000) != 0)
#define KEY_RANGE_LO(k) (((k) >> 8) & 0xff)
#define KEY_RANGE_HI(k) ((k) & 0xff)
#define CTRL(c) ((c) & 0x1f)

/* True when the table code k stands for the key pressed. */
int keys_match(int k, int pressed);

/* The name of table code k ("Down", "Ctrl-F", "Enter", "1-9", "j") into buf; returns buf
 * (Borrowed: it is the caller's buf). */
const char *keys_name(int k, char *buf, size_t n);

/* The key a script names with the n bytes at name ("Enter", "PgDn", "C-r", "lt"): sets *is_key
 * (a curses KEY_ code) and *code; returns 0 when there is no such name. */
int keys_lookup(const char *name, size_t n, int *is_key, int *code);

#endif
