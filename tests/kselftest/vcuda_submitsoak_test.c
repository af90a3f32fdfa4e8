// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda soak test: mixed submissions from several processes at once, for
 * a while.
 *
 *   vcuda_submitsoak_test [SECONDS [PROCESSES]]  (default 10 s, 4)
 *
 * Each process runs two contexts (on two devices when there are two),
 * each with compute and copy queues of every priority and its own worker
 * threads, and submits jobs of launches, copies, fills, timestamps and
 * semaphores that wait for points of other queues and contexts; it also
 * submits bad input (which must fail as documented), faults a context
 * now and then (and makes a new one), and destroys queues with work
 * pending. At its end a process stops submitting and every point it
 * ever asked for must signal. Processes are killed and replaced at
 * random times. At the end, nothing may be left: no job, queue, context
 * or object, and every device's VRAM as it was. Prints TAP.
 */
#include <signal.h>
#include <sys/wait.h>

#include "vcuda_test.h"

#define NCTX 2
#define NQ 6		/* 3 compute, 3 copy, priorities low to high */
#define NWORK 2
#define BUF (1ull << 20)
#define MS 1000000ull

struct squeue {
	uint32_t id;		/* zero once destroyed */
	uint32_t engine;
	uint32_t tl;		/* the queue's timeline */
	uint64_t point;		/* last point submitted */
};

struct sctx {
	int fd;
	uint32_t id;
	bool faulted;
	struct squeue q[NQ];
	uint64_t buf;		/* GPU and CPU address of a device buffer */
	uint64_t host;		/* and of a host buffer, for semaphores */
	uint32_t hbuf, hhost;
	uint32_t sem;		/* next semaphore value */
	pthread_t workers[NWORK];
	volatile bool stop;
};

/* Timelines whose last point must signal before the process ends. */
struct pending {
	int fd;
	uint32_t tl;
	uint64_t point;
};

static struct {
	struct sctx ctx[NCTX];
	struct pending pend[4096];
	int npend;
	unsigned int seed;
	unsigned long ops, bad, jobs, faults;
} S;

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)rand_r(&S.seed) % n : 0;
}

#define CHECK(cond, ...) do {						\
	S.ops++;							\
	if (!(cond)) {							\
		S.bad++;						\
		if (S.bad < 20) {					\
			fprintf(stderr, "# pid %d line %d: ", getpid(),	\
				__LINE__);				\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
		}							\
	}								\
} while (0)

/* A worker: runs launches; a descriptor with bit 63 faults. */
static void *worker(void *arg)
{
	struct sctx *c = arg;
	unsigned int seed = (uintptr_t)arg;

	while (!c->stop) {
		struct drm_vcuda_compute_wait w;
		uint32_t kind = 0;
		uint64_t addr = 0;
		int ret = vt_compute_wait(c->fd, c->id, 20 * MS, &w);

		if (ret == -ETIMEDOUT)
			continue;
		if (ret)
			break;
		if (w.descriptor & (1ull << 63)) {
			kind = DRM_VCUDA_FAULT_TRAP;
		} else if (rand_r(&seed) % 4 == 0) {
			/* "Run" it for a little while. */
			usleep(rand_r(&seed) % 500);
		}
		ret = vt_compute_done(c->fd, c->id, w.launch_id, kind, addr);
		/* A launch withdrawn meanwhile (fault, destroy) is gone. */
		if (ret && ret != -ENOENT)
			break;
	}
	return NULL;
}

static void add_pending(int fd, uint32_t tl, uint64_t point)
{
	int i;

	for (i = 0; i < S.npend; i++) {
		if (S.pend[i].fd == fd && S.pend[i].tl == tl) {
			S.pend[i].point = point;
			return;
		}
	}
	if (S.npend < (int)(sizeof(S.pend) / sizeof(S.pend[0])))
		S.pend[S.npend++] = (struct pending){ fd, tl, point };
}

static int map_buffer(int fd, uint32_t ctx, uint64_t size, uint32_t placement,
		      uint32_t *h, uint64_t *addr)
{
	uint64_t va = vt_reserve_va(size);
	void *p;

	if (!va || vt_bo_create(fd, size, placement, 0, h))
		return -1;
	p = vt_bo_mmap(fd, *h, size, (void *)(uintptr_t)va);
	if (p != (void *)(uintptr_t)va || vt_map(fd, ctx, *h, 0, va, size, 0))
		return -1;
	*addr = va;
	return 0;
}

static int queue_make(struct sctx *c, int i)
{
	struct squeue *q = &c->q[i];

	q->engine = i < NQ / 2 ? DRM_VCUDA_ENGINE_COMPUTE :
		    DRM_VCUDA_ENGINE_COPY;
	q->point = 0;
	if (drmSyncobjCreate(c->fd, 0, &q->tl))
		return -1;
	return vt_queue_create(c->fd, c->id, q->engine, i % 3, &q->id);
}

static int ctx_make(struct sctx *c, int fd)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->fd = fd;
	if (vt_ctx_create(fd, &c->id))
		return -1;
	for (i = 0; i < NQ; i++)
		if (queue_make(c, i))
			return -1;
	if (map_buffer(fd, c->id, BUF, DRM_VCUDA_BO_PLACEMENT_DEVICE,
		       &c->hbuf, &c->buf) ||
	    map_buffer(fd, c->id, 4096, DRM_VCUDA_BO_PLACEMENT_HOST,
		       &c->hhost, &c->host))
		return -1;
	for (i = 0; i < NWORK; i++)
		if (pthread_create(&c->workers[i], NULL, worker, c))
			return -1;
	return 0;
}

static void ctx_unmake(struct sctx *c)
{
	int i;

	/* Destroying the context wakes its workers with -ENOENT. */
	c->stop = true;
	CHECK(!vt_ctx_destroy(c->fd, c->id), "ctx destroy");
	for (i = 0; i < NWORK; i++)
		pthread_join(c->workers[i], NULL);
	munmap((void *)(uintptr_t)c->buf, BUF);
	munmap((void *)(uintptr_t)c->host, 4096);
	vt_bo_close(c->fd, c->hbuf);
	vt_bo_close(c->fd, c->hhost);
}

/* One random job for queue @qi of context @c. */
static void submit_job(struct sctx *c, int qi)
{
	struct squeue *q = &c->q[qi];
	struct drm_vcuda_cmd cmds[4];
	struct drm_vcuda_sync_op syncs[4];
	uint32_t ncmds = 1 + rnd(4), nsyncs = 0, i;
	int ret;

	if (c->faulted)
		return;
	/* Like a CUDA stream, at most 8 jobs in flight per queue. */
	if (q->point > 8) {
		ret = vt_wait_point(c->fd, q->tl, q->point - 8, 30000);
		CHECK(ret == 0, "throttle wait: %d", ret);
	}

	memset(cmds, 0, sizeof(cmds));
	for (i = 0; i < ncmds; i++) {
		struct drm_vcuda_cmd *cmd = &cmds[i];
		uint32_t kind = rnd(10);

		if (q->engine == DRM_VCUDA_ENGINE_COMPUTE && kind < 7) {
			*cmd = vt_launch(rnd(1000) == 0 ? 1ull << 63 : i);
		} else if (q->engine == DRM_VCUDA_ENGINE_COPY && kind < 4) {
			uint64_t n = 1 + rnd(64 << 10);

			cmd->op = DRM_VCUDA_CMD_COPY;
			cmd->u.copy.src = c->buf + rnd(8);
			cmd->u.copy.dst = c->buf + BUF / 2 + rnd(8);
			cmd->u.copy.width = n;
			cmd->u.copy.height = 1;
			cmd->u.copy.depth = 1;
		} else if (q->engine == DRM_VCUDA_ENGINE_COPY && kind < 7) {
			cmd->op = DRM_VCUDA_CMD_FILL;
			cmd->flags = DRM_VCUDA_CMD_FILL_32;
			cmd->u.fill.dst = c->buf + 4 * rnd(1024);
			cmd->u.fill.width = 1 + rnd(1024);
			cmd->u.fill.height = 1 + rnd(64);
			cmd->u.fill.pitch = 4096;
			cmd->u.fill.value = rnd(1000);
		} else if (kind < 9) {
			cmd->op = DRM_VCUDA_CMD_TIMESTAMP;
			cmd->u.timestamp.dst = c->host + 8 * (1 + rnd(100));
		} else {
			/* Release a semaphore; acquire what was released. */
			cmd->op = rnd(2) ? DRM_VCUDA_CMD_SEM_RELEASE :
				  DRM_VCUDA_CMD_SEM_ACQUIRE;
			cmd->u.sem.addr = c->host;
			if (cmd->op == DRM_VCUDA_CMD_SEM_RELEASE)
				cmd->u.sem.value = ++c->sem;
			else
				cmd->u.sem.value = 0;	/* GEQ 0: at once */
		}
	}
	syncs[nsyncs++] = vt_signal_tl(q->tl, q->point + 1);
	/* Waits for points of other queues, of this context or another. */
	for (i = rnd(3); i; i--) {
		struct sctx *o = &S.ctx[rnd(NCTX)];
		struct squeue *oq = &o->q[rnd(NQ)];

		if (o->fd != c->fd || !oq->point)
			continue;
		syncs[nsyncs++] = vt_wait_tl(oq->tl, 1 + rnd(oq->point));
	}
	ret = vt_submit1(c->fd, q->id, cmds, ncmds, syncs, nsyncs);
	if (ret == -EIO) {
		c->faulted = true;	/* a trap just faulted it */
	} else {
		CHECK(ret == 0, "submit: %d", ret);
	}
	if (!ret) {
		q->point++;
		S.jobs++;
		add_pending(c->fd, q->tl, q->point);
	}
}

static void submit_bad(struct sctx *c)
{
	struct drm_vcuda_cmd cmd = vt_launch(1);
	struct drm_vcuda_sync_op sync = vt_signal_tl(c->q[0].tl, 0);
	int ret, kind = rnd(6);

	if (c->faulted)
		return;
	switch (kind) {
	case 0:		/* a point zero signal */
		ret = vt_submit1(c->fd, c->q[0].id, &cmd, 1, &sync, 1);
		break;
	case 1:		/* a launch on a copy queue */
		ret = vt_submit1(c->fd, c->q[NQ - 1].id, &cmd, 1, NULL, 0);
		break;
	case 2:		/* no commands */
		ret = vt_submit1(c->fd, c->q[0].id, &cmd, 0, NULL, 0);
		break;
	case 3:		/* an unknown syncobj */
		sync = vt_wait_tl(0xfffff, 1);
		ret = vt_submit1(c->fd, c->q[0].id, &cmd, 1, &sync, 1);
		if (ret == -EIO)
			c->faulted = true;
		else
			CHECK(ret == -ENOENT, "bad syncobj: %d", ret);
		return;
	case 4:		/* an unknown queue */
		ret = vt_submit1(c->fd, 0xfffff, &cmd, 1, NULL, 0);
		CHECK(ret == -ENOENT, "bad queue: %d", ret);
		return;
	default:	/* a point nobody submitted */
		sync = vt_wait_tl(c->q[0].tl, c->q[0].point + 100);
		ret = vt_submit1(c->fd, c->q[0].id, &cmd, 1, &sync, 1);
		break;
	}
	/* A trap may have faulted the context just now. */
	if (ret == -EIO)
		c->faulted = true;
	else
		CHECK(ret == -EINVAL, "bad submit %d: %d", kind, ret);
}

static void child(unsigned int seed, uint64_t deadline, int result_fd)
{
	int fds[NCTX], i, ret;
	unsigned long r[4];

	memset(&S, 0, sizeof(S));
	S.seed = seed;
	fds[0] = vt_open_index(0);
	fds[1] = vt_open_index(1);
	if (fds[1] < 0)
		fds[1] = vt_open_index(0);
	for (i = 0; i < NCTX; i++)
		if (fds[i] < 0 || ctx_make(&S.ctx[i], fds[i]))
			_exit(2);

	while (vt_now_ns() < deadline) {
		struct sctx *c = &S.ctx[rnd(NCTX)];
		uint32_t what = rnd(1000);

		if (c->faulted || what == 0) {
			/* Faulted or not, a context goes and a new one comes. */
			if (c->faulted)
				S.faults++;
			ctx_unmake(c);
			if (ctx_make(c, c->fd))
				_exit(3);
		} else if (what < 10) {
			/* A queue goes with its work, a new one comes. */
			int qi = rnd(NQ);

			ret = vt_queue_destroy(c->fd, c->q[qi].id);
			CHECK(ret == 0, "queue destroy: %d", ret);
			ret = vt_queue_create(c->fd, c->id, c->q[qi].engine,
					      qi % 3, &c->q[qi].id);
			if (ret == -EIO)
				c->faulted = true;
			else
				CHECK(ret == 0, "queue create: %d", ret);
		} else if (what < 60) {
			submit_bad(c);
		} else {
			submit_job(c, rnd(NQ));
		}
		if (S.ops % 128 == 0) {
			r[0] = S.ops;
			r[1] = S.bad;
			r[2] = S.jobs;
			r[3] = 0;
			if (write(result_fd, r, sizeof(r)) != sizeof(r))
				_exit(4);
		}
	}
	/* Every point ever submitted signals, whatever became of its job. */
	for (i = 0; i < S.npend; i++) {
		ret = vt_wait_point(S.pend[i].fd, S.pend[i].tl, S.pend[i].point,
				    30000);
		CHECK(ret == 0, "point %llu never signalled: %d",
		      (unsigned long long)S.pend[i].point, ret);
	}
	for (i = 0; i < NCTX; i++)
		ctx_unmake(&S.ctx[i]);
	r[0] = S.ops;
	r[1] = S.bad;
	r[2] = S.jobs;
	r[3] = 1;	/* finished: all points signalled */
	if (write(result_fd, r, sizeof(r)) != sizeof(r))
		_exit(4);
	_exit(S.bad ? 1 : 0);
}

struct slot {
	pid_t pid;
	int pipe;
	unsigned long r[4];
	uint64_t kill_at;
	bool finishes;
};

static void drain(struct slot *s)
{
	unsigned long r[4];

	while (read(s->pipe, r, sizeof(r)) == sizeof(r))
		memcpy(s->r, r, sizeof(r));
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	int nproc = argc > 2 ? atoi(argv[2]) : 4;
	unsigned long ops = 0, bad = 0, jobs = 0, spawned = 0, killed = 0;
	unsigned long finished = 0, unfinished = 0;
	uint64_t vram[2], deadline;
	long long before[2][5];
	int fds[2], ndev, d, i, crashes = 0, test = 0, failed = 0;
	unsigned int seed = 7;
	struct slot *slots;

	signal(SIGPIPE, SIG_IGN);
	for (ndev = 0; ndev < 2; ndev++) {
		fds[ndev] = vt_open_index(ndev);
		if (fds[ndev] < 0)
			break;
		vram[ndev] = vt_sysfs_u64(fds[ndev], "vram_used");
		vt_objects_snapshot(fds[ndev], before[ndev]);
	}
	printf("TAP version 13\n1..%d\n", 4 + 2 * ndev);
	if (!ndev) {
		printf("not ok 1 - no vcuda device\n");
		return 1;
	}
	printf("# %d processes for %d s on %d devices\n", nproc, seconds, ndev);
	fflush(stdout);
	slots = calloc(nproc, sizeof(*slots));
	deadline = vt_now_ns() + (uint64_t)seconds * 1000000000ull;
	while (vt_now_ns() < deadline) {
		for (i = 0; i < nproc; i++) {
			struct slot *s = &slots[i];
			int p[2], status;

			if (s->pid) {
				drain(s);
				if (!s->finishes && vt_now_ns() >= s->kill_at) {
					kill(s->pid, SIGKILL);
					killed++;
				} else if (waitpid(s->pid, &status, WNOHANG) !=
					   s->pid) {
					continue;
				} else if (!WIFEXITED(status) ||
					   WEXITSTATUS(status) > 1) {
					crashes++;
				}
				if (!s->finishes)
					waitpid(s->pid, &status, 0);
				drain(s);
				close(s->pipe);
				ops += s->r[0];
				bad += s->r[1];
				jobs += s->r[2];
				if (s->finishes) {
					finished += s->r[3] == 1;
					unfinished += s->r[3] != 1;
				}
				s->pid = 0;
			}
			if (vt_now_ns() >= deadline)
				break;
			if (pipe(p))
				return 1;
			fcntl(p[0], F_SETFL, O_NONBLOCK);
			memset(s->r, 0, sizeof(s->r));
			/* Lives 1 to 4 s; half are killed, half finish. */
			s->kill_at = vt_now_ns() + (1000 + rand_r(&seed) % 3000) *
				     MS;
			if (s->kill_at > deadline)
				s->kill_at = deadline;
			s->finishes = spawned % 2;
			s->pid = fork();
			if (s->pid == 0) {
				close(p[0]);
				child(seed * 104729 + spawned, s->kill_at, p[1]);
			}
			close(p[1]);
			s->pipe = p[0];
			spawned++;
		}
		usleep(20000);
	}
	/* The last ones finish, or are killed. */
	for (i = 0; i < nproc; i++) {
		struct slot *s = &slots[i];
		int status;

		if (!s->pid)
			continue;
		if (!s->finishes) {
			kill(s->pid, SIGKILL);
			killed++;
		}
		waitpid(s->pid, &status, 0);
		if (s->finishes && (!WIFEXITED(status) ||
				    WEXITSTATUS(status) > 1))
			crashes++;
		drain(s);
		close(s->pipe);
		ops += s->r[0];
		bad += s->r[1];
		jobs += s->r[2];
		if (s->finishes) {
			finished += s->r[3] == 1;
			unfinished += s->r[3] != 1;
		}
	}
	printf("# %lu processes (%lu killed, %lu finished), %lu jobs, %lu checks\n",
	       spawned, killed, finished, jobs, ops);
	printf("%sok %d - every result as documented (%lu unexpected)\n",
	       bad ? "not " : "", ++test, bad);
	failed += !!bad;
	printf("%sok %d - no process crashed (%d did)\n", crashes ? "not " : "",
	       ++test, crashes);
	failed += !!crashes;
	printf("%sok %d - every finishing process saw all its points signal (%lu did not)\n",
	       unfinished ? "not " : "", ++test, unfinished);
	failed += !!unfinished;
	printf("%sok %d - jobs ran (%lu)\n", jobs >= (unsigned long)seconds * 10 ?
	       "" : "not ", ++test, jobs);
	failed += jobs < (unsigned long)seconds * 10;
	for (d = 0; d < ndev; d++) {
		int settled = vt_objects_settle(fds[d], before[d], 30000);
		bool mem = vt_sysfs_u64(fds[d], "vram_used") == vram[d];

		printf("%sok %d - device %d: VRAM used back to %llu\n",
		       mem ? "" : "not ", ++test, d,
		       (unsigned long long)vram[d]);
		printf("%sok %d - device %d: no job, queue, context or object left\n",
		       settled ? "not " : "", ++test, d);
		failed += !mem + !!settled;
	}
	return failed ? 1 : 0;
}
