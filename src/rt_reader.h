/* rt_reader — reads a text input file line by line through a growing buffer (never the whole
 * file at once), so that evaluating a multi-gigabyte run costs a few megabytes of memory.
 * Accepts a UTF-8 BOM, CRLF line ends and a missing final newline. "-" reads standard input.
 * A file compressed with gzip or zstd (told by its first bytes, not its name; concatenated
 * members and frames too) is read decompressed: line numbers are those of the text. */
#ifndef RT_READER_H
#define RT_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_err.h"

typedef struct rt_reader rt_reader;

enum { RT_CODEC_NONE = 0, RT_CODEC_GZIP, RT_CODEC_ZSTD };

/* The codec whose magic bytes start b (n bytes): gzip 1f 8b, zstd 28 b5 2f fd, else none. */
int rt_codec_of(const unsigned char *b, size_t n);

/* The codec of the file at path by its first bytes (RT_CODEC_NONE when it cannot be read). */
int rt_file_codec(const char *path);

/* Opens path for reading. Fails with RT_EINPUT (message names the path) when it is missing,
 * unreadable or a directory. */
rt_status rt_reader_open(rt_reader **r, const char *path, rt_err *err);

/* Opens bytes [start, end) of the regular file at path (end 0: to the end), for reading a file
 * in parts in parallel. start must be a line start; line numbers count from the part's start.
 * A BOM is stripped only when start is 0. */
rt_status rt_reader_open_range(rt_reader **r, const char *path, uint64_t start, uint64_t end,
                               rt_err *err);

/* Reads the next line. On 1, *line points to its bytes without the line end, NUL-terminated and
 * writable by the caller, valid until the next call; *len is its length. Returns 0 at end of file,
 * -1 on a read error or a line holding a NUL byte (err filled: "path:line: a NUL byte at column
 * N"; a text input never holds one). */
int rt_reader_next(rt_reader *r, char **line, size_t *len, rt_err *err);

/* Reads the next up to n bytes of the text (decompressed), not split into lines (not to be mixed
 * with rt_reader_next); returns the bytes read, 0 at the end, -1 on an error (err set: a
 * decompression error names the line reached, counted in the bytes returned unless the caller
 * tells it with rt_reader_set_lineno). */
ssize_t rt_reader_read(rt_reader *r, char *buf, size_t n, rt_err *err);

/* How many bytes of the file itself (compressed, when it is) have been read. */
uint64_t rt_reader_offset(const rt_reader *r);

/* The 1-based number of the line last returned. */
size_t rt_reader_lineno(const rt_reader *r);

/* The path given to rt_reader_open (copied). Borrowed: valid until rt_reader_close. */
const char *rt_reader_path(const rt_reader *r);

/* True when the last line returned had no line end (the file ends without a newline). */
int rt_reader_last_unterminated(const rt_reader *r);

void rt_reader_close(rt_reader **r);

/* The most bytes one JSON document, or one line of any text input, may hold once decompressed
 * (RT_INPUT_MAX_DEFAULT unless the program sets another): a few kilobytes of zstd can decompress
 * to gigabytes, and a file must not be able to make the program run out of memory. */
#define RT_INPUT_MAX_DEFAULT ((size_t)1 << 30)

/* Sets the limit for the whole process (bytes >= 1); hint, a static string or NULL, says how the
 * user raises it and ends the message of an input over the limit ("set RETRIAGE_JSON_MAX=…").
 * Called once by the program before any input is read; the core reads no environment itself. */
void rt_input_max_set(size_t bytes, const char *hint);

/* The limit in force. */
size_t rt_input_max(void);

/* RT_EINPUT with "path:line: <what> is larger than the limit of N bytes (<hint>)" in err. */
rt_status rt_input_max_error(rt_err *err, const char *path, size_t line, const char *what);

/* Tells the reader which line the caller, splitting lines itself after rt_reader_read, has
 * reached (the lines it has taken whole): a decompression error then names the next line. */
void rt_reader_set_lineno(rt_reader *r, size_t lineno);

/* Reads a whole file into a NUL-terminated heap buffer the caller frees; strips a BOM. For
 * formats that are one document (JSON). A document larger than rt_input_max(), or one the memory
 * cannot hold, is an RT_EINPUT error, never an abort. */
rt_status rt_read_file(const char *path, char **buf, size_t *len, rt_err *err);

#endif
