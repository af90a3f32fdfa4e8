/* SPDX-License-Identifier: MIT */
/*
 * lock_assert_held(): userspace's stand-in for lockdep_assert_held. A
 * function that needs its caller to hold a mutex checks it instead of
 * saying so in a comment. POSIX has no "held by this thread" query for a
 * default mutex, so the check is that the mutex is held at all (a try
 * fails with EBUSY): a caller that forgot the lock is caught whenever no
 * other thread happens to hold it, as in every single-threaded test. The
 * libcuda mutexes are not recursive, for which a try by the owner would
 * succeed. An assert(), so gone with NDEBUG.
 */
#ifndef VCUDA_LOCK_ASSERT_H
#define VCUDA_LOCK_ASSERT_H

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

/*
 * Whether some thread holds @m (a try that got it lets it go again, so
 * @m may be a const object's: it ends as it was).
 */
static inline bool lock_is_held(const pthread_mutex_t *m)
{
	pthread_mutex_t *mutex = (pthread_mutex_t *)m;
	int err = pthread_mutex_trylock(mutex);

	if (err == 0)
		pthread_mutex_unlock(mutex);
	return err == EBUSY;
}

#define lock_assert_held(m) assert(lock_is_held(m))

#endif
