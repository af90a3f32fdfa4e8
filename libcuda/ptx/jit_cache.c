// SPDX-License-Identifier: MIT
/*
 * The JIT's disk cache: a kernel's object code, kept across processes
 * the way CUDA's driver keeps its JIT results, and set up by the same
 * variables:
 *
 *   CUDA_CACHE_DISABLE=1   no cache
 *   CUDA_CACHE_PATH        the directory (default ~/.nv/ComputeCache);
 *                          vcuda's entries live in its vcuda-jit/
 *   CUDA_CACHE_MAXSIZE     bytes the entries may take (default 1 GiB,
 *                          at most 4 GiB); the least recently used go
 *                          first, and code larger than this is not kept
 *
 * An entry is one file named by its key: a header (magic, format, the
 * key again, the object's size and SHA-256) and the object file. A
 * reader trusts nothing it did not check: a short, corrupt or foreign
 * file is skipped and the kernel compiled again. Writers write a file
 * of their own and rename it into place, so processes sharing the
 * directory see whole entries or none. Every failure here only costs a
 * compile: nothing is reported and nothing stops.
 */
#include "jit_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_SUBDIR "vcuda-jit"
#define ENTRY_SUFFIX ".vjit"
#define DEFAULT_MAXSIZE (1ull << 30)	/* NVIDIA's, desktop and server */
#define LIMIT_MAXSIZE (4ull << 30)	/* NVIDIA's upper bound */

static const char entry_magic[8] = { 'V', 'C', 'U', 'D', 'A', 'J', 'I', 'T' };

struct entry_header {
	char magic[8];
	uint32_t format;	/* JIT_CACHE_FORMAT */
	uint32_t nregs, nsites;
	uint32_t reserved;	/* zero */
	uint64_t size;		/* of the object that follows */
	uint8_t key[SHA256_BYTES];
	uint8_t digest[SHA256_BYTES];	/* of the object */
};

bool jit_cache_enabled(void)
{
	const char *v = getenv("CUDA_CACHE_DISABLE");
	return !(v && !strcmp(v, "1"));
}

uint64_t jit_cache_maxsize(void)
{
	const char *v = getenv("CUDA_CACHE_MAXSIZE");
	char *end;
	if (!v || !*v)
		return DEFAULT_MAXSIZE;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || *end || *v == '-')
		return DEFAULT_MAXSIZE;
	return n > LIMIT_MAXSIZE ? LIMIT_MAXSIZE : n;
}

/* The directory of vcuda's entries, in @buf; false when there is none. */
static bool cache_dir(char *buf, size_t len)
{
	const char *base = getenv("CUDA_CACHE_PATH");
	int n;
	if (base && *base) {
		n = snprintf(buf, len, "%s/" CACHE_SUBDIR, base);
	} else {
		const char *home = getenv("HOME");
		if (!home || !*home) {
			const struct passwd *pw = getpwuid(getuid());
			home = pw ? pw->pw_dir : NULL;
		}
		if (!home)
			return false;
		n = snprintf(buf, len, "%s/.nv/ComputeCache/" CACHE_SUBDIR,
			     home);
	}
	return n > 0 && (size_t)n < len;
}

/* mkdir -p of @path (ours are private: 0700). */
static bool make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int r = mkdir(path, 0700);
		*p = '/';
		if (r && errno != EEXIST)
			return false;
	}
	return !mkdir(path, 0700) || errno == EEXIST;
}

static bool entry_path(const uint8_t key[SHA256_BYTES], char *buf,
		       size_t len)
{
	char dir[PATH_MAX - 80];
	char hex[2 * SHA256_BYTES + 1];
	if (!cache_dir(dir, sizeof(dir)))
		return false;
	for (int i = 0; i < SHA256_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	int n = snprintf(buf, len, "%s/%s" ENTRY_SUFFIX, dir, hex);
	return n > 0 && (size_t)n < len;
}

static bool read_all(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static void digest_of(const void *data, size_t len, uint8_t out[SHA256_BYTES])
{
	struct sha256 s;
	sha256_init(&s);
	sha256_add(&s, data, len);
	sha256_finish(&s, out);
}

/* The header says what @key's entry must, and the file is its size. */
static bool header_ok(const struct entry_header *h,
		      const uint8_t key[SHA256_BYTES], uint64_t file_size)
{
	return !memcmp(h->magic, entry_magic, sizeof(entry_magic)) &&
	       h->format == JIT_CACHE_FORMAT && !h->reserved &&
	       !memcmp(h->key, key, SHA256_BYTES) && h->size &&
	       h->size == file_size - sizeof(*h);
}

void *jit_cache_load(const uint8_t key[SHA256_BYTES], size_t *size,
		     uint32_t *nregs, uint32_t *nsites)
{
	char path[PATH_MAX];
	struct entry_header h;
	struct stat st;
	uint8_t digest[SHA256_BYTES];
	void *obj = NULL;
	if (!jit_cache_enabled() || !entry_path(key, path, sizeof(path)))
		return NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size < sizeof(h) || !read_all(fd, &h, sizeof(h)) ||
	    !header_ok(&h, key, (uint64_t)st.st_size) ||
	    !(obj = malloc(h.size)) || !read_all(fd, obj, h.size))
		goto bad;
	digest_of(obj, h.size, digest);
	if (memcmp(digest, h.digest, SHA256_BYTES))
		goto bad;
	close(fd);
	utimensat(AT_FDCWD, path, NULL, 0);	/* recently used */
	*size = h.size;
	*nregs = h.nregs;
	*nsites = h.nsites;
	return obj;
bad:
	free(obj);
	close(fd);
	return NULL;
}

struct dir_file {
	char name[NAME_MAX + 1];
	uint64_t size;
	struct timespec used;
};

static int older_first(const void *a, const void *b)
{
	const struct dir_file *x = a, *y = b;
	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The regular files of @dirfd, with their sizes; NULL when none. */
static struct dir_file *list_files(int dirfd, size_t *count, uint64_t *total)
{
	DIR *d = fdopendir(dup(dirfd));
	struct dir_file *files = NULL;
	size_t n = 0, cap = 0;
	const struct dirent *de;
	*total = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		struct stat st;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct dir_file *f = realloc(files, ncap * sizeof(*f));
			if (!f)
				break;
			files = f;
			cap = ncap;
		}
		snprintf(files[n].name, sizeof(files[n].name), "%s",
			 de->d_name);
		files[n].size = (uint64_t)st.st_size;
		files[n].used = st.st_mtim;
		*total += files[n].size;
		n++;
	}
	closedir(d);
	*count = n;
	return files;
}

/* Removes the least recently used files until @dir holds @max bytes. */
static void evict(const char *dir, uint64_t max)
{
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t n = 0;
	uint64_t total;
	if (dirfd < 0)
		return;
	struct dir_file *files = list_files(dirfd, &n, &total);
	if (files && total > max) {
		qsort(files, n, sizeof(*files), older_first);
		for (size_t i = 0; i < n && total > max; i++)
			if (!unlinkat(dirfd, files[i].name, 0) ||
			    errno == ENOENT)
				total -= files[i].size;
	}
	free(files);
	close(dirfd);
}

static bool write_entry(const char *tmp, const struct entry_header *h,
			const void *obj)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	bool ok = write_all(fd, h, sizeof(*h)) && write_all(fd, obj, h->size);
	return !close(fd) && ok;
}

void jit_cache_store(const uint8_t key[SHA256_BYTES], const void *obj,
		     size_t size, uint32_t nregs, uint32_t nsites)
{
	static atomic_uint serial;
	char path[PATH_MAX], tmp[PATH_MAX + 40], dir[PATH_MAX];
	uint64_t max = jit_cache_maxsize();
	struct entry_header h = { .format = JIT_CACHE_FORMAT,
				  .nregs = nregs, .nsites = nsites,
				  .size = size };
	if (!jit_cache_enabled() || !size ||
	    size + sizeof(h) > max || !cache_dir(dir, sizeof(dir)) ||
	    !make_dirs(dir) || !entry_path(key, path, sizeof(path)))
		return;
	memcpy(h.magic, entry_magic, sizeof(h.magic));
	memcpy(h.key, key, SHA256_BYTES);
	digest_of(obj, size, h.digest);
	snprintf(tmp, sizeof(tmp), "%s.%ld.%u.tmp", path, (long)getpid(),
		 atomic_fetch_add(&serial, 1));
	if (!write_entry(tmp, &h, obj) || rename(tmp, path)) {
		unlink(tmp);
		return;
	}
	evict(dir, max);
}
