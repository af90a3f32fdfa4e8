// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda soak test: random valid and invalid memory ioctls from several
 * processes at once, for a while.
 *
 *   vcuda_memsoak_test [SECONDS [PROCESSES]]     (default 10 s, 4)
 *
 * Each process opens every vcuda device and loops until the time is up:
 * buffer objects of every kind and size (and sizes that must fail), user
 * memory, mmap, binds and unbinds of random ranges (overlapping ones
 * must fail), reservations, translations checked against what it bound,
 * dma-buf sharing within and across devices, IPC tokens, stale and
 * foreign handles, context churn. Every result is checked against the
 * errors the uAPI documents. Processes are killed and replaced at random
 * times. At the end, every device's VRAM and pinned memory, and its
 * live objects, must be back where they started. Prints TAP.
 */
#include <signal.h>
#include <sys/wait.h>

#include "vcuda_test.h"

#define MAX_DEV 4
#define MAX_BO 32
#define REGION (64ull << 20)
#define REGION_BASE 0x200000000000ull

struct bo {
	uint32_t handle;
	uint64_t size;
	bool user;
	uint32_t obj;	/* handles of one object have the same */
	uint32_t owner;	/* objects with the same pages have the same */
	int owner_dev;	/* device of the object that owns the pages */
};

struct mapping {
	uint64_t va;
	uint64_t size;
	int bo;		/* index into bos, or -1 for a reservation */
	uint64_t offset;
};

struct proc {
	int fd[MAX_DEV];
	int ndev;
	uint32_t ctx[MAX_DEV];
	struct bo bos[MAX_DEV][MAX_BO];
	int nbos[MAX_DEV];
	struct mapping maps[MAX_DEV][MAX_BO * 2];
	int nmaps[MAX_DEV];
	uint64_t base;
	unsigned int seed;
	unsigned long ops, bad;
	char *user;
	uint32_t next_obj;
};

static struct proc P;

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)rand_r(&P.seed) % n : 0;
}

/* Records an unexpected result and where. */
#define CHECK(cond, ...) do {						\
	P.ops++;							\
	if (!(cond)) {							\
		P.bad++;						\
		if (P.bad < 20) {					\
			fprintf(stderr, "# pid %d line %d: ", getpid(),	\
				__LINE__);				\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
		}							\
	}								\
} while (0)

static bool overlaps(int d, uint64_t va, uint64_t size, bool resv_ok)
{
	int i;

	for (i = 0; i < P.nmaps[d]; i++) {
		struct mapping *m = &P.maps[d][i];

		if (va < m->va + m->size && m->va < va + size) {
			/* Inside a reservation is fine for a map. */
			if (resv_ok && m->bo == -1 && m->va <= va &&
			    va + size <= m->va + m->size)
				continue;
			return true;
		}
	}
	return false;
}

static void op_create(int d)
{
	uint64_t sizes[] = { 1, 4096, 4097, 65536, 1 << 20, 2 << 20,
			     0, 1ull << 50 };
	uint32_t placement = rnd(2), flags = 0, h;
	uint64_t size = sizes[rnd(sizeof(sizes) / sizeof(sizes[0]))];
	int ret, bad = 0;

	if (rnd(10) == 0) {
		flags = 1u << rnd(8);
		bad = placement == DRM_VCUDA_BO_PLACEMENT_DEVICE || flags > 4;
	}
	if (rnd(20) == 0) {
		placement = 2 + rnd(5);
		bad = 1;
	}
	if (P.nbos[d] == MAX_BO)
		return;
	ret = vt_bo_create(P.fd[d], size, placement, flags, &h);
	if (!size || bad || size > (1ull << 47))
		CHECK(ret == -EINVAL, "create %llu: %d",
		      (unsigned long long)size, ret);
	else if (size > (1ull << 40))
		CHECK(ret == -ENOMEM, "create huge: %d", ret);
	else
		CHECK(ret == 0 || ret == -ENOMEM, "create: %d", ret);
	if (!ret) {
		P.bos[d][P.nbos[d]].handle = h;
		P.bos[d][P.nbos[d]].size = (size + 4095) & ~4095ull;
		P.bos[d][P.nbos[d]].user = false;
		P.bos[d][P.nbos[d]].obj = ++P.next_obj;
		P.bos[d][P.nbos[d]].owner = P.next_obj;
		P.bos[d][P.nbos[d]].owner_dev = d;
		P.nbos[d]++;
	}
}

static void op_userptr(int d)
{
	uint64_t off = rnd(16) * 4096, size = (1 + rnd(4)) * 4096;
	struct drm_vcuda_bo_userptr u = {
		.addr = (uintptr_t)P.user + off, .size = size,
	};
	int ret, kind = rnd(6);

	if (P.nbos[d] == MAX_BO)
		return;
	if (kind == 0)
		u.addr += 8;
	else if (kind == 1)
		u.flags = 1;
	ret = vt_ioctl(P.fd[d], DRM_IOCTL_VCUDA_BO_USERPTR, &u);
	if (kind < 2) {
		CHECK(ret == -EINVAL, "userptr bad: %d", ret);
		return;
	}
	CHECK(ret == 0, "userptr: %d", ret);
	if (!ret) {
		P.bos[d][P.nbos[d]].handle = u.handle;
		P.bos[d][P.nbos[d]].size = size;
		P.bos[d][P.nbos[d]].user = true;
		P.bos[d][P.nbos[d]].obj = ++P.next_obj;
		P.bos[d][P.nbos[d]].owner = P.next_obj;
		P.bos[d][P.nbos[d]].owner_dev = d;
		P.nbos[d]++;
	}
}

static void op_close(int d)
{
	int b, ret;

	if (!P.nbos[d] || rnd(8) == 0) {
		/* Stale or never-seen handles. */
		ret = vt_bo_close(P.fd[d], 0x7fff0000 + rnd(1000));
		CHECK(ret == -EINVAL, "close stale: %d", ret);
		return;
	}
	b = rnd(P.nbos[d]);
	ret = vt_bo_close(P.fd[d], P.bos[d][b].handle);
	CHECK(ret == 0, "close: %d", ret);
	/* Mappings keep the object; they stay as they are. */
	for (ret = 0; ret < P.nmaps[d]; ret++)
		if (P.maps[d][ret].bo == b)
			P.maps[d][ret].bo = -2;
	if (b != P.nbos[d] - 1) {
		P.bos[d][b] = P.bos[d][P.nbos[d] - 1];
		for (ret = 0; ret < P.nmaps[d]; ret++)
			if (P.maps[d][ret].bo == P.nbos[d] - 1)
				P.maps[d][ret].bo = b;
	}
	P.nbos[d]--;
}

static void op_mmap(int d)
{
	struct bo *bo;
	uint8_t *p;
	uint64_t off;
	int ret;

	if (!P.nbos[d])
		return;
	bo = &P.bos[d][rnd(P.nbos[d])];
	ret = vt_bo_offset(P.fd[d], bo->handle, &off);
	if (bo->user) {
		CHECK(ret == -EINVAL, "mmap offset of userptr: %d", ret);
		return;
	}
	CHECK(ret == 0, "mmap offset: %d", ret);
	if (ret)
		return;
	p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, P.fd[d],
		 off);
	CHECK(p != MAP_FAILED, "mmap: %d", errno);
	if (p == MAP_FAILED)
		return;
	p[rnd(bo->size)] = rnd(256);
	munmap(p, bo->size);
}

static void op_map(int d)
{
	uint64_t va, size, offset;
	bool large = rnd(4) == 0, ro = rnd(4) == 0;
	struct bo *bo;
	int b, ret;

	if (!P.nbos[d] || P.nmaps[d] == MAX_BO * 2)
		return;
	b = rnd(P.nbos[d]);
	bo = &P.bos[d][b];
	if (large && bo->size >= (2 << 20)) {
		va = P.base + (rnd(REGION >> 21) << 21);
		offset = 0;
		size = 2 << 20;
	} else {
		va = P.base + rnd(REGION >> 12) * 4096;
		offset = rnd(bo->size >> 12) * 4096;
		size = (1 + rnd((bo->size - offset) >> 12)) * 4096;
	}
	if (va + size > P.base + REGION)
		return;
	if (rnd(16) == 0) {
		/* Past the object. */
		ret = vt_map(P.fd[d], P.ctx[d], bo->handle, offset, va,
			     bo->size - offset + 4096, 0);
		CHECK(ret == -EINVAL, "map past the end: %d", ret);
		return;
	}
	ret = vt_map(P.fd[d], P.ctx[d], bo->handle, offset, va, size,
		     ro ? DRM_VCUDA_VM_BIND_READONLY : 0);
	if (overlaps(d, va, size, true)) {
		CHECK(ret == -EEXIST, "map over mapped: %d", ret);
		return;
	}
	CHECK(ret == 0, "map: %d", ret);
	if (!ret) {
		uint64_t in = rnd(size >> 12) * 4096 + rnd(4096);
		uint64_t chunk = (va + in) & ~((2ull << 20) - 1);
		uint32_t level = chunk >= va && chunk + (2 << 20) <= va + size &&
				 !((va ^ offset) & ((2 << 20) - 1));
		struct drm_vcuda_vm_translate t;

		P.maps[d][P.nmaps[d]++] = (struct mapping){
			.va = va, .size = size, .bo = b, .offset = offset,
		};
		ret = vt_translate(P.fd[d], P.ctx[d], va + in, &t);
		/* Any handle of an object with the same pages will do. */
		for (b = 0; b < P.nbos[d]; b++)
			if (P.bos[d][b].handle == t.bo_handle &&
			    P.bos[d][b].owner == bo->owner)
				t.bo_handle = bo->handle;
		CHECK(!ret && t.bo_handle == bo->handle &&
		      t.bo_offset == offset + in &&
		      !!t.flags == ro && t.level == level,
		      "translate: %d h %u/%u off %llx/%llx level %u", ret,
		      t.bo_handle, bo->handle,
		      (unsigned long long)t.bo_offset,
		      (unsigned long long)(offset + in), t.level);
	}
}

static void op_reserve(int d)
{
	uint64_t va = P.base + (rnd(REGION >> 21) << 21);
	uint64_t size = (1 + rnd(4)) << 21;
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE, .va = va, .size = size,
	};
	int ret;

	if (va + size > P.base + REGION || P.nmaps[d] == MAX_BO * 2)
		return;
	ret = vt_bind(P.fd[d], P.ctx[d], &op, 1, NULL);
	if (overlaps(d, va, size, false)) {
		CHECK(ret == -EEXIST, "reserve over something: %d", ret);
		return;
	}
	CHECK(ret == 0, "reserve: %d", ret);
	if (!ret)
		P.maps[d][P.nmaps[d]++] = (struct mapping){
			.va = va, .size = size, .bo = -1,
		};
}

static void op_unmap(int d)
{
	struct mapping *m;
	int i, ret;

	if (!P.nmaps[d] || rnd(8) == 0) {
		uint64_t va = P.base + rnd(REGION >> 12) * 4096;

		ret = vt_unmap(P.fd[d], P.ctx[d], va, 4096);
		if (!overlaps(d, va, 4096, false))
			CHECK(ret == -ENOENT, "unmap of nothing: %d", ret);
		else if (ret == 0)
			/* It hit a mapping: forget the model, unmap all. */
			goto all;
		return;
	}
	i = rnd(P.nmaps[d]);
	m = &P.maps[d][i];
	/*
	 * A reservation goes if nothing is mapped in it; if it is all
	 * mapped, the unmap unmaps what is mapped; else it fails.
	 */
	if (m->bo == -1) {
		uint64_t inside = 0, va = m->va, size = m->size;
		int j;

		for (j = 0; j < P.nmaps[d]; j++)
			if (j != i && P.maps[d][j].va >= va &&
			    P.maps[d][j].va < va + size)
				inside += P.maps[d][j].size;
		ret = vt_unmap(P.fd[d], P.ctx[d], va, size);
		if (inside == size) {
			CHECK(ret == 0, "unmap of a full reservation: %d", ret);
			for (j = 0; j < P.nmaps[d]; j++) {
				struct mapping *n = &P.maps[d][j];

				if (n->bo != -1 && n->va >= va &&
				    n->va < va + size) {
					*n = P.maps[d][--P.nmaps[d]];
					j--;
				}
			}
			return;
		}
		if (inside) {
			CHECK(ret == -ENOENT, "unmap busy reservation: %d", ret);
			return;
		}
	} else {
		ret = vt_unmap(P.fd[d], P.ctx[d], m->va, m->size);
	}
	CHECK(ret == 0, "unmap: %d", ret);
	P.maps[d][i] = P.maps[d][--P.nmaps[d]];
	return;
all:
	/* A mapping was cut: start again with a new context. */
	ret = vt_ctx_destroy(P.fd[d], P.ctx[d]);
	CHECK(ret == 0, "ctx destroy: %d", ret);
	ret = vt_ctx_create(P.fd[d], &P.ctx[d]);
	CHECK(ret == 0, "ctx create: %d", ret);
	P.nmaps[d] = 0;
}

static void op_bad_bind(int d)
{
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_MAP, .va = P.base + 1,
		.size = 4096,
	};
	int ret;

	switch (rnd(5)) {
	case 0:
		op.bo_handle = P.nbos[d] ? P.bos[d][0].handle : 1;
		break;
	case 1:
		op.va = P.base;
		op.size = 0;
		op.bo_handle = 1;
		break;
	case 2:
		op.flags = 7;
		op.va = P.base;
		break;
	case 3:
		op.flags = DRM_VCUDA_VM_BIND_OP_UNMAP;
		op.va = ~0ull & ~4095ull;
		break;
	default:
		op.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE;
		op.va = P.base;
		op.bo_handle = 1;
		break;
	}
	ret = vt_bind(P.fd[d], P.ctx[d], &op, 1, NULL);
	CHECK(ret == -EINVAL, "bad bind: %d", ret);
	ret = vt_bind(P.fd[d], P.ctx[d] + 1000, &op, 1, NULL);
	CHECK(ret == -ENOENT || ret == -EINVAL, "bind, unknown ctx: %d", ret);
}

static void op_share(int d)
{
	int dd = rnd(P.ndev), dmabuf, ret;
	struct bo *bo;
	uint32_t h;

	if (!P.nbos[d] || P.nbos[dd] == MAX_BO)
		return;
	bo = &P.bos[d][rnd(P.nbos[d])];
	if (rnd(2)) {
		ret = drmPrimeHandleToFD(P.fd[d], bo->handle, DRM_CLOEXEC,
					 &dmabuf) ? -errno : 0;
		if (bo->user) {
			CHECK(ret == -EOPNOTSUPP, "export userptr: %d", ret);
			return;
		}
		CHECK(ret == 0, "export: %d", ret);
		if (ret)
			return;
		ret = drmPrimeFDToHandle(P.fd[dd], dmabuf, &h) ? -errno : 0;
		close(dmabuf);
		CHECK(ret == 0, "import: %d", ret);
	} else {
		struct drm_vcuda_ipc_export e = { .handle = bo->handle };
		struct drm_vcuda_ipc_import i = { 0 };

		ret = vt_ioctl(P.fd[d], DRM_IOCTL_VCUDA_IPC_EXPORT, &e);
		if (bo->user) {
			CHECK(ret == -EINVAL, "ipc export userptr: %d", ret);
			return;
		}
		CHECK(ret == 0, "ipc export: %d", ret);
		if (ret)
			return;
		i.token = e.token;
		if (rnd(4) == 0)
			i.token.data[20] ^= 1;
		ret = vt_ioctl(P.fd[dd], DRM_IOCTL_VCUDA_IPC_IMPORT, &i);
		if (dd != d)
			CHECK(ret == -EINVAL, "ipc import, other device: %d",
			      ret);
		else if (i.token.data[20] != e.token.data[20])
			CHECK(ret == -ENOENT, "ipc import, bad secret: %d", ret);
		else
			CHECK(ret == 0 && i.size == bo->size, "ipc import: %d",
			      ret);
		if (ret)
			return;
		h = i.handle;
	}
	/* The same handle may come back (same object in the same file). */
	for (ret = 0; ret < P.nbos[dd]; ret++)
		if (P.bos[dd][ret].handle == h)
			return;
	P.bos[dd][P.nbos[dd]].handle = h;
	P.bos[dd][P.nbos[dd]].size = bo->size;
	P.bos[dd][P.nbos[dd]].user = false;
	/*
	 * Another handle of the same object, the owner of a peer object
	 * back on its device, or a new peer object: the pages are the same.
	 */
	P.bos[dd][P.nbos[dd]].obj = dd == d ? bo->obj :
				    dd == bo->owner_dev ? bo->owner :
				    ++P.next_obj;
	P.bos[dd][P.nbos[dd]].owner = bo->owner;
	P.bos[dd][P.nbos[dd]].owner_dev = bo->owner_dev;
	P.nbos[dd]++;
}

static void op_ctx(int d)
{
	uint32_t ctx;
	int ret;

	if (rnd(4)) {
		/* A context of its own comes and goes. */
		ret = vt_ctx_create(P.fd[d], &ctx);
		CHECK(ret == 0, "ctx create: %d", ret);
		if (!ret)
			CHECK(!vt_ctx_destroy(P.fd[d], ctx), "ctx destroy");
		ret = vt_ctx_destroy(P.fd[d], ctx);
		CHECK(ret == -ENOENT, "ctx destroy stale: %d", ret);
		return;
	}
	/* Or the main context, with everything in it. */
	ret = vt_ctx_destroy(P.fd[d], P.ctx[d]);
	CHECK(ret == 0, "ctx destroy main: %d", ret);
	P.nmaps[d] = 0;
	ret = vt_ctx_create(P.fd[d], &P.ctx[d]);
	CHECK(ret == 0, "ctx create main: %d", ret);
}

static void child(unsigned int seed, uint64_t deadline, int result_fd)
{
	int d;

	memset(&P, 0, sizeof(P));
	P.seed = seed;
	P.base = REGION_BASE + (uint64_t)(seed % 64) * REGION * 2;
	P.user = mmap(NULL, 32 * 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (P.user == MAP_FAILED)
		_exit(2);
	for (d = 0; d < MAX_DEV; d++) {
		P.fd[d] = vt_open_index(d);
		if (P.fd[d] < 0)
			break;
		if (vt_ctx_create(P.fd[d], &P.ctx[d]))
			_exit(3);
	}
	P.ndev = d;
	if (!P.ndev)
		_exit(4);

	while (vt_now_ns() < deadline) {
		d = rnd(P.ndev);
		switch (rnd(20)) {
		case 0: case 1: case 2:
			op_create(d);
			break;
		case 3:
			op_userptr(d);
			break;
		case 4: case 5:
			op_close(d);
			break;
		case 6:
			op_mmap(d);
			break;
		case 7: case 8: case 9: case 10:
			op_map(d);
			break;
		case 11:
			op_reserve(d);
			break;
		case 12: case 13: case 14:
			op_unmap(d);
			break;
		case 15:
			op_bad_bind(d);
			break;
		case 16: case 17:
			op_share(d);
			break;
		case 18:
			if (rnd(10) == 0)
				op_ctx(d);
			break;
		default:
			break;
		}
		/* Now and then, report progress to the parent. */
		if (P.ops % 256 == 0) {
			unsigned long r[2] = { P.ops, P.bad };

			if (write(result_fd, r, sizeof(r)) != sizeof(r))
				_exit(5);
		}
	}
	{
		unsigned long r[2] = { P.ops, P.bad };

		if (write(result_fd, r, sizeof(r)) != sizeof(r))
			_exit(5);
	}
	/* Leave everything to the kernel half the time. */
	if (seed % 2)
		_exit(P.bad ? 1 : 0);
	for (d = 0; d < P.ndev; d++)
		close(P.fd[d]);
	_exit(P.bad ? 1 : 0);
}

struct slot {
	pid_t pid;
	int pipe;
	unsigned long ops, bad;
	uint64_t kill_at;
};

static void reap(struct slot *s, unsigned long *ops, unsigned long *bad,
		 int *crashes, bool killed)
{
	unsigned long r[2];
	int status;

	while (read(s->pipe, r, sizeof(r)) == sizeof(r)) {
		s->ops = r[0];
		s->bad = r[1];
	}
	close(s->pipe);
	waitpid(s->pid, &status, 0);
	*ops += s->ops;
	*bad += s->bad;
	if (!killed && !(WIFEXITED(status) && WEXITSTATUS(status) <= 1))
		(*crashes)++;
	if (killed && WIFEXITED(status) && WEXITSTATUS(status) > 1)
		(*crashes)++;
	s->pid = 0;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 10;
	int nproc = argc > 2 ? atoi(argv[2]) : 4;
	uint64_t vram[MAX_DEV], pinned[MAX_DEV], deadline;
	long long before[MAX_DEV][5];
	unsigned long ops = 0, bad = 0, spawned = 0, killed = 0;
	int fds[MAX_DEV], ndev, d, i, crashes = 0, test = 0, failed = 0;
	struct slot *slots;
	unsigned int seed = 1;

	signal(SIGPIPE, SIG_IGN);
	for (ndev = 0; ndev < MAX_DEV; ndev++) {
		fds[ndev] = vt_open_index(ndev);
		if (fds[ndev] < 0)
			break;
		vram[ndev] = vt_sysfs_u64(fds[ndev], "vram_used");
		pinned[ndev] = vt_sysfs_u64(fds[ndev], "host_pinned");
		vt_objects_snapshot(fds[ndev], before[ndev]);
	}
	printf("TAP version 13\n1..%d\n", 3 + 2 * ndev);
	if (!ndev) {
		printf("not ok 1 - no vcuda device\n");
		return 1;
	}
	printf("# %d processes for %d s on %d devices\n", nproc, seconds, ndev);
	slots = calloc(nproc, sizeof(*slots));
	deadline = vt_now_ns() + (uint64_t)seconds * 1000000000ull;
	while (vt_now_ns() < deadline) {
		for (i = 0; i < nproc; i++) {
			struct slot *s = &slots[i];
			int p[2];

			if (s->pid && vt_now_ns() >= s->kill_at) {
				kill(s->pid, SIGKILL);
				reap(s, &ops, &bad, &crashes, true);
				killed++;
			}
			if (s->pid)
				continue;
			if (pipe(p))
				return 1;
			fcntl(p[0], F_SETFL, O_NONBLOCK);
			s->ops = s->bad = 0;
			/* Lives 0.5 to 3 s, or to the end; killed, or not. */
			s->kill_at = vt_now_ns() + (500 + rand_r(&seed) % 2500) *
				     1000000ull;
			s->pid = fork();
			if (s->pid == 0) {
				close(p[0]);
				child(seed * 7919 + spawned,
				      s->kill_at - 100000000ull * (spawned % 2),
				      p[1]);
			}
			close(p[1]);
			s->pipe = p[0];
			spawned++;
		}
		for (i = 0; i < nproc; i++) {
			struct slot *s = &slots[i];
			unsigned long r[2];
			int status;

			while (s->pid && read(s->pipe, r, sizeof(r)) ==
			       sizeof(r)) {
				s->ops = r[0];
				s->bad = r[1];
			}
			if (s->pid && waitpid(s->pid, &status, WNOHANG) ==
			    s->pid) {
				/* Exited by itself: collect what it said. */
				while (read(s->pipe, r, sizeof(r)) ==
				       sizeof(r)) {
					s->ops = r[0];
					s->bad = r[1];
				}
				close(s->pipe);
				ops += s->ops;
				bad += s->bad;
				if (!WIFEXITED(status) ||
				    WEXITSTATUS(status) > 1)
					crashes++;
				s->pid = 0;
			}
		}
		usleep(20000);
	}
	for (i = 0; i < nproc; i++) {
		if (slots[i].pid) {
			kill(slots[i].pid, SIGKILL);
			reap(&slots[i], &ops, &bad, &crashes, true);
			killed++;
		}
	}
	printf("# %lu processes (%lu killed), %lu ioctls checked\n", spawned,
	       killed, ops);
	printf("%sok %d - every result as documented (%lu unexpected)\n",
	       bad ? "not " : "", ++test, bad);
	failed += !!bad;
	printf("%sok %d - no process crashed (%d did)\n", crashes ? "not " : "",
	       ++test, crashes);
	failed += !!crashes;
	printf("%sok %d - enough ioctls ran\n",
	       ops >= (unsigned long)seconds * 100 ? "" : "not ", ++test);
	failed += ops < (unsigned long)seconds * 100;
	for (d = 0; d < ndev; d++) {
		int settled = vt_objects_settle(fds[d], before[d], 20000);
		bool mem = vt_sysfs_u64(fds[d], "vram_used") == vram[d] &&
			   vt_sysfs_u64(fds[d], "host_pinned") == pinned[d];

		printf("%sok %d - device %d: VRAM used and pinned memory back to %llu and %llu\n",
		       mem ? "" : "not ", ++test, d,
		       (unsigned long long)vram[d],
		       (unsigned long long)pinned[d]);
		printf("%sok %d - device %d: no object left behind\n",
		       settled ? "not " : "", ++test, d);
		failed += !mem + !!settled;
	}
	return failed ? 1 : 0;
}
