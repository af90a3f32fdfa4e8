// SPDX-License-Identifier: MIT
//
// Helpers shared by the API conformance tests of peers, IPC, virtual
// memory and pools: the SHOW line format, and what two processes of one
// test need to talk (bytes and file descriptors over a socket pair).
// Everything printed must be the same on any GPU: codes and booleans,
// never pointers, sizes of the device or names.
#ifndef VCUDA_API_TEST_H
#define VCUDA_API_TEST_H

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHOW(what, call) std::printf("%s = %d\n", what, (int)(call))
#define SAY(what, value) std::printf("%s = %d\n", what, (int)(value))

// A call given a NULL pointer that NVIDIA's libraries may not check (some
// crash): a crash prints "crash" instead of a code. Such a case is not
// one CUDA defines, and a line that reads "crash" is dropped from the test.
static sigjmp_buf crash_jump;
static inline void on_crash(int) { siglongjmp(crash_jump, 1); }
#define SHOW_NULL(what, call)                                         \
  do {                                                                \
    struct sigaction sa_ = {}, old_;                                  \
    sa_.sa_handler = on_crash;                                        \
    sigaction(SIGSEGV, &sa_, &old_);                                  \
    if (sigsetjmp(crash_jump, 1) == 0)                                \
      SHOW(what, call);                                               \
    else                                                              \
      std::printf("%s = crash\n", what);                             \
    sigaction(SIGSEGV, &old_, nullptr);                               \
  } while (0)

// Exactly @len bytes over the socket, or exit: a test half-done is a failure.
static inline void put_bytes(int sock, const void *buf, size_t len) {
  if (write(sock, buf, len) != (ssize_t)len) {
    std::perror("write");
    std::exit(3);
  }
}

static inline void get_bytes(int sock, void *buf, size_t len) {
  size_t got = 0;
  while (got < len) {
    ssize_t n = read(sock, (char *)buf + got, len - got);
    if (n <= 0) {
      std::fprintf(stderr, "the other process went away\n");
      std::exit(3);
    }
    got += (size_t)n;
  }
}

// A file descriptor travels as SCM_RIGHTS with one byte of payload.
static inline void put_fd(int sock, int fd) {
  char byte = 'f';
  char control[CMSG_SPACE(sizeof(int))] = {};
  struct iovec iov = {&byte, 1};
  struct msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  if (sendmsg(sock, &msg, 0) != 1) {
    std::perror("sendmsg");
    std::exit(3);
  }
}

static inline int get_fd(int sock) {
  char byte;
  char control[CMSG_SPACE(sizeof(int))] = {};
  struct iovec iov = {&byte, 1};
  struct msghdr msg = {};
  int fd = -1;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  if (recvmsg(sock, &msg, 0) != 1) {
    std::fprintf(stderr, "no file descriptor came\n");
    std::exit(3);
  }
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  if (c && c->cmsg_type == SCM_RIGHTS) std::memcpy(&fd, CMSG_DATA(c), sizeof(int));
  return fd;
}

// One byte: "your turn".
static inline void signal_peer(int sock) { put_bytes(sock, "t", 1); }

static inline void wait_peer(int sock) {
  char byte;
  get_bytes(sock, &byte, 1);
}

// Forks before either process touches CUDA (CUDA state does not survive a
// fork). Returns the child's status to the parent, who must reap it.
struct test_fork {
  pid_t pid;
  int sock;  // this process's end of the pair
};

static inline test_fork fork_test() {
  int sv[2];
  std::fflush(stdout);
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
    std::perror("socketpair");
    std::exit(3);
  }
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    std::exit(3);
  }
  if (pid == 0) {
    close(sv[0]);
    alarm(300);  // a hang must not hold the test run
    return {0, sv[1]};
  }
  close(sv[1]);
  return {pid, sv[0]};
}

static inline int reap_child(const test_fork &f) {
  int status = 0;
  waitpid(f.pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#endif
