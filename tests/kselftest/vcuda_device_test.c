// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: the device, DRM_IOCTL_VCUDA_DEV_QUERY, sysfs, fdinfo
 * and the ioctls this version does not implement.
 */
#include "kselftest_harness.h"
#include "vcuda_test.h"

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(dev, version)
{
	drmVersionPtr v = drmGetVersion(self->fd);

	ASSERT_NE(NULL, v);
	EXPECT_STREQ("vcuda", v->name);
	EXPECT_EQ(DRM_VCUDA_VERSION_MAJOR, v->version_major);
	EXPECT_EQ(DRM_VCUDA_VERSION_MINOR, v->version_minor);
	drmFreeVersion(v);
}

TEST_F(dev, size_query)
{
	uint32_t size = 12345;

	/* A NULL pointer asks for the size the kernel knows. */
	ASSERT_EQ(0, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO,
			      NULL, &size));
	EXPECT_EQ(sizeof(struct drm_vcuda_device_info), size);

	size = 0;
	ASSERT_EQ(0, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_MEMORY_INFO,
			      NULL, &size));
	EXPECT_EQ(sizeof(struct drm_vcuda_memory_info), size);
}

TEST_F(dev, device_info)
{
	struct drm_vcuda_device_info info;
	static const uint8_t zero_uuid[16];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0, vt_device_info(self->fd, &info));

	EXPECT_STREQ("vcuda Virtual GPU", info.name);
	EXPECT_NE(0, memcmp(info.uuid, zero_uuid, sizeof(zero_uuid)));
	EXPECT_EQ(info.vram_size, vt_sysfs_u64(self->fd, "vram_total"));
	EXPECT_EQ(0x10000ull, info.va_start);
	EXPECT_EQ(1ull << 47, info.va_end);
	EXPECT_EQ(DRM_VCUDA_VERSION_MAJOR << 16 | DRM_VCUDA_VERSION_MINOR << 8 |
		  DRM_VCUDA_VERSION_PATCH, info.driver_version);
	EXPECT_EQ(vt_sysfs_u64(self->fd, "index"), info.index);
	EXPECT_LE(1, info.cc_major);
	EXPECT_GE(9, info.cc_minor);
	EXPECT_LE(1, info.sm_count);
	if (vt_param("sm_count") == 0)
		EXPECT_EQ((uint32_t)cpus, info.sm_count);
	EXPECT_EQ(32, info.warp_size);
	EXPECT_EQ(1024, info.max_threads_per_block);
	EXPECT_EQ(1024, info.max_block_dim[0]);
	EXPECT_EQ(1024, info.max_block_dim[1]);
	EXPECT_EQ(64, info.max_block_dim[2]);
	EXPECT_EQ(0x7fffffffu, info.max_grid_dim[0]);
	EXPECT_EQ(65535, info.max_grid_dim[1]);
	EXPECT_EQ(65535, info.max_grid_dim[2]);
	EXPECT_EQ(2048, info.max_threads_per_sm);
	EXPECT_EQ(32, info.max_blocks_per_sm);
	EXPECT_EQ(65536, info.regs_per_block);
	EXPECT_EQ(65536, info.regs_per_sm);
	EXPECT_EQ(48 * 1024, info.shared_mem_per_block);
	EXPECT_LE(info.shared_mem_per_block, info.shared_mem_per_block_optin);
	EXPECT_LE(info.shared_mem_per_block_optin, info.shared_mem_per_sm);
	EXPECT_EQ(64 * 1024, info.const_mem_size);
	EXPECT_NE(0, info.l2_cache_size);
	EXPECT_NE(0, info.clock_rate_khz);
	EXPECT_NE(0, info.memory_clock_rate_khz);
	EXPECT_NE(0, info.memory_bus_width);
	EXPECT_EQ(2, info.copy_engine_count);
	EXPECT_EQ(1, info.compute_engine_count);
	EXPECT_EQ(DRM_VCUDA_COMPUTE_MODE_DEFAULT, info.compute_mode);
	EXPECT_EQ(0, info.pad);
}

TEST_F(dev, uuid_matches_sysfs)
{
	struct drm_vcuda_device_info info;
	char path[256], buf[64] = "", want[40];
	struct stat st;
	FILE *f;

	ASSERT_EQ(0, vt_device_info(self->fd, &info));
	snprintf(want, sizeof(want),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 info.uuid[0], info.uuid[1], info.uuid[2], info.uuid[3],
		 info.uuid[4], info.uuid[5], info.uuid[6], info.uuid[7],
		 info.uuid[8], info.uuid[9], info.uuid[10], info.uuid[11],
		 info.uuid[12], info.uuid[13], info.uuid[14], info.uuid[15]);
	ASSERT_EQ(0, fstat(self->fd, &st));
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/uuid",
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	EXPECT_STREQ(want, buf);
}

TEST_F(dev, truncated_buffer)
{
	struct drm_vcuda_device_info full;
	uint8_t buf[sizeof(full)];
	uint32_t size = 20;

	ASSERT_EQ(0, vt_device_info(self->fd, &full));
	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO, buf,
			      &size));
	/* The kernel says how much it knows, and wrote only 20 bytes. */
	EXPECT_EQ(sizeof(full), size);
	EXPECT_EQ(0, memcmp(buf, &full, 20));
	EXPECT_EQ(0xa5, buf[20]);
	EXPECT_EQ(0xa5, buf[sizeof(buf) - 1]);
}

TEST_F(dev, oversized_buffer)
{
	struct drm_vcuda_memory_info mem;
	uint8_t buf[sizeof(mem) + 64];
	uint32_t size = sizeof(buf);
	size_t i;

	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(0, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_MEMORY_INFO, buf,
			      &size));
	EXPECT_EQ(sizeof(mem), size);
	memcpy(&mem, buf, sizeof(mem));
	EXPECT_EQ(vt_sysfs_u64(self->fd, "vram_total"), mem.vram_size);
	/* The rest of the buffer is zero-filled. */
	for (i = sizeof(mem); i < sizeof(buf); i++)
		ASSERT_EQ(0, buf[i]);
}

TEST_F(dev, zero_size_buffer)
{
	uint8_t byte = 0xa5;
	uint32_t size = 0;

	ASSERT_EQ(0, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO, &byte,
			      &size));
	EXPECT_EQ(sizeof(struct drm_vcuda_device_info), size);
	EXPECT_EQ(0xa5, byte);
}

TEST_F(dev, unknown_type)
{
	struct drm_vcuda_device_info info;
	uint32_t size = sizeof(info);

	EXPECT_EQ(-EINVAL, vt_query(self->fd, 2, &info, &size));
	size = 0;
	EXPECT_EQ(-EINVAL, vt_query(self->fd, 0xffffffffu, NULL, &size));
}

TEST_F(dev, bad_pointer)
{
	uint32_t size = sizeof(struct drm_vcuda_device_info);

	EXPECT_EQ(-EFAULT, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO,
				    (void *)16, &size));
}

TEST_F(dev, memory_info)
{
	struct drm_vcuda_memory_info before, after;
	uint32_t handle;

	ASSERT_EQ(0, vt_memory_info(self->fd, &before));
	EXPECT_EQ(vt_sysfs_u64(self->fd, "vram_total"), before.vram_size);
	ASSERT_EQ(0, vt_bo_create(self->fd, 3 * VT_PAGE + 1,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &handle));
	ASSERT_EQ(0, vt_memory_info(self->fd, &after));
	EXPECT_EQ(before.vram_used + 4 * VT_PAGE, after.vram_used);
	EXPECT_EQ(after.vram_used, vt_sysfs_u64(self->fd, "vram_used"));
	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &handle));
	ASSERT_EQ(0, vt_memory_info(self->fd, &after));
	EXPECT_EQ(before.host_pinned + VT_PAGE, after.host_pinned);
	EXPECT_EQ(after.host_pinned, vt_sysfs_u64(self->fd, "host_pinned"));
}

TEST_F(dev, fdinfo_memory)
{
	uint32_t handle;

	ASSERT_EQ(0, vt_bo_create(self->fd, 64 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &handle));
	ASSERT_EQ(0, vt_bo_create(self->fd, 3 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &handle));
	EXPECT_EQ(256ull, vt_fdinfo_u64(self->fd, "drm-total-vram"));
	EXPECT_EQ(256ull, vt_fdinfo_u64(self->fd, "drm-resident-vram"));
	EXPECT_EQ(256ull, vt_fdinfo_u64(self->fd, "drm-memory-vram"));
	EXPECT_EQ(12ull, vt_fdinfo_u64(self->fd, "drm-total-system"));
	EXPECT_EQ(12ull, vt_fdinfo_u64(self->fd, "drm-resident-system"));
}

TEST_F(dev, unknown_ioctl)
{
	struct drm_vcuda_ctx_create c = { 0 };

	/* One past the last ioctl number. */
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd,
				    DRM_IOWR(DRM_COMMAND_BASE + DRM_VCUDA_DEVICE_RESET + 1,
					     struct drm_vcuda_ctx_create), &c));
}

TEST(all_devices_have_distinct_uuids)
{
	struct drm_vcuda_device_info a, b;
	int i, fd0 = vt_open_index(0);

	if (fd0 < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, vt_device_info(fd0, &a));
	for (i = 1; ; i++) {
		int fd = vt_open_index(i);

		if (fd < 0)
			break;
		ASSERT_EQ(0, vt_device_info(fd, &b));
		EXPECT_EQ((uint32_t)i, b.index);
		EXPECT_NE(0, memcmp(a.uuid, b.uuid, sizeof(a.uuid)));
		close(fd);
	}
	EXPECT_EQ(0u, a.index);
	close(fd0);
}

TEST_HARNESS_MAIN
