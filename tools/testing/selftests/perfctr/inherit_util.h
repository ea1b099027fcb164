/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perfctr selftests of inheritance: a process tree run under an
 * inheriting control, and its check.
 *
 * The caller's thread holds a control with VPERFCTR_CONTROL_INHERIT and
 * VPERFCTR_CONTROL_INHERIT_THREAD.  inherit_run() forks @children
 * processes; each starts @threads threads and forks @grandchildren
 * processes, and every one of them (child, thread, grandchild) runs the
 * work once.  Each sends the descriptor of its own inherited state to
 * the caller over a UNIX socket, so that once everything is reaped the
 * caller can read every final state and check the merge to the count:
 * a state's children's sums are exactly the sums of its merged
 * children's totals (their own sums plus their children's).
 */
#ifndef _PERFCTR_INHERIT_UTIL_H
#define _PERFCTR_INHERIT_UTIL_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../perfctr/libperfctr.h"

#define INHERIT_MAX_NODES	64

struct inherit_plan {
	unsigned int children;
	unsigned int threads;		/* per child */
	unsigned int grandchildren;	/* per child */
	int reprogram_first;		/* the first child changes its control */
	void (*work)(unsigned long arg);
	unsigned long arg;
};

/* One state of the tree, as its owner reported it. */
struct inherit_node {
	int id;			/* 1.. in the order sent; the caller is 0 */
	int parent;		/* the id of the state it inherited from */
	int reprogrammed;	/* changed its control: not merged */
	int fd;
	struct perfctr_sum_ctrs self;
	struct vperfctr_children children;
};

struct inherit_msg {
	int id, parent, reprogrammed;
};

/* Send the calling thread's own state to the caller; 0 or -1. */
static inline int inherit_send(int sock, int id, int parent, int reprogrammed)
{
	struct inherit_msg m = { id, parent, reprogrammed };
	char buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &m, sizeof(m) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *cm;
	int fd = vperfctr_open(0, 0), err;

	if (fd < 0)
		return -1;
	memset(buf, 0, sizeof(buf));
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	err = sendmsg(sock, &msg, 0) == sizeof(m) ? 0 : -1;
	close(fd);
	return err;
}

static inline int inherit_recv(int sock, struct inherit_node *n)
{
	struct inherit_msg m;
	char buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &m, sizeof(m) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *cm;

	if (recvmsg(sock, &msg, 0) != sizeof(m))
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memset(n, 0, sizeof(*n));
	memcpy(&n->fd, CMSG_DATA(cm), sizeof(int));
	n->id = m.id;
	n->parent = m.parent;
	n->reprogrammed = m.reprogrammed;
	return 0;
}

struct inherit_thread_arg {
	const struct inherit_plan *plan;
	int sock, id, parent, err;
};

static inline void *inherit_thread(void *p)
{
	struct inherit_thread_arg *a = p;

	a->err = inherit_send(a->sock, a->id, a->parent, 0);
	a->plan->work(a->plan->arg);
	return NULL;
}

/* Change the control to the same one: a new control, not merged. */
static inline int inherit_reprogram(void)
{
	struct vperfctr_control c;
	int fd = vperfctr_open(0, 0), err;

	if (fd < 0)
		return -1;
	err = vperfctr_read(fd, NULL, &c) || vperfctr_control(fd, &c) ? -1 : 0;
	close(fd);
	return err;
}

/* A child: its threads and grandchildren, and the work; the exit status. */
static inline int inherit_child(const struct inherit_plan *plan, int sock, int id, int *next)
{
	struct inherit_thread_arg targ[INHERIT_MAX_NODES];
	pthread_t t[INHERIT_MAX_NODES];
	int reprogram = plan->reprogram_first && id == 1;
	unsigned int i;
	int status;
	pid_t pid;

	if (reprogram && inherit_reprogram())
		return 10;
	if (inherit_send(sock, id, 0, reprogram))
		return 11;
	for (i = 0; i < plan->threads; i++) {
		targ[i] = (struct inherit_thread_arg){ plan, sock, (*next)++, id, 0 };
		if (pthread_create(&t[i], NULL, inherit_thread, &targ[i]))
			return 12;
	}
	for (i = 0; i < plan->grandchildren; i++) {
		int gid = (*next)++;

		pid = fork();
		if (pid < 0)
			return 13;
		if (pid == 0) {
			if (inherit_send(sock, gid, id, 0))
				_exit(14);
			plan->work(plan->arg);
			_exit(0);
		}
	}
	plan->work(plan->arg);
	for (i = 0; i < plan->threads; i++)
		if (pthread_join(t[i], NULL) || targ[i].err)
			return 15;
	for (i = 0; i < plan->grandchildren; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			return 16;
	return 0;
}

static inline unsigned int inherit_nodes(const struct inherit_plan *plan)
{
	return plan->children * (1 + plan->threads + plan->grandchildren);
}

/*
 * Run @plan under the caller's inheriting control, reap everything and
 * read every final state into @nodes (inherit_nodes(plan) of them, by
 * id - 1).  0, or a negative step number; 100 + the first failed
 * child's exit status.
 */
static inline int inherit_run(const struct inherit_plan *plan, struct inherit_node *nodes)
{
	unsigned int i, n = inherit_nodes(plan);
	int sv[2], status, err = 0;
	struct inherit_node m;

	if (n > INHERIT_MAX_NODES || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return -1;
	for (i = 0; i < plan->children; i++) {
		/* Ids: child c is 1 + c * (1 + threads + grandchildren). */
		int id = 1 + i * (1 + plan->threads + plan->grandchildren), next = id + 1;
		pid_t pid = fork();

		if (pid < 0)
			return -2;
		if (pid == 0) {
			close(sv[0]);
			_exit(inherit_child(plan, sv[1], id, &next));
		}
	}
	close(sv[1]);
	for (i = 0; i < n; i++) {
		if (inherit_recv(sv[0], &m) || m.id < 1 || m.id > (int)n) {
			err = -3;
			break;
		}
		nodes[m.id - 1] = m;
	}
	close(sv[0]);
	for (i = 0; i < plan->children; i++) {
		if (wait(&status) < 0)
			return -4;
		if (!err && (!WIFEXITED(status) || WEXITSTATUS(status)))
			err = 100 + (WIFEXITED(status) ? WEXITSTATUS(status) : 99);
	}
	if (err)
		return err;
	/* Everything is reaped: every state is final. */
	for (i = 0; i < n; i++)
		if (vperfctr_read(nodes[i].fd, &nodes[i].self, NULL) ||
		    vperfctr_read_children(nodes[i].fd, &nodes[i].children))
			return -5;
	return 0;
}

static inline void inherit_close(const struct inherit_plan *plan, struct inherit_node *nodes)
{
	unsigned int i;

	for (i = 0; i < inherit_nodes(plan); i++)
		close(nodes[i].fd);
}

/* Counter @ctr of a sum: -1 is the TSC. */
static inline __u64 inherit_ctr(const struct perfctr_sum_ctrs *s, int ctr)
{
	return ctr < 0 ? s->tsc : s->pmc[ctr];
}

/* A node's total: its own count and its children's. */
static inline __u64 inherit_total(const struct inherit_node *n, int ctr)
{
	return inherit_ctr(&n->self, ctr) + inherit_ctr(&n->children.sum, ctr);
}

/* The node of state @id, or NULL (0, the caller, has none). */
static inline const struct inherit_node *
inherit_node_of(const struct inherit_plan *plan, const struct inherit_node *nodes, int id)
{
	unsigned int i;

	for (i = 0; i < inherit_nodes(plan); i++)
		if (nodes[i].id == id)
			return &nodes[i];
	return NULL;
}

/*
 * Is @n in the merge domain of state @id: a descendant of @id whose
 * ancestors below @id all merged (none changed its control)?  Its totals
 * then reach @id's children's sums exactly once: through its parent if
 * that merged it before exiting, else directly, once its parent's exit
 * made it the nearest running ancestor's (virtual.rst, "Inheritance").
 */
static inline int inherit_in_domain(const struct inherit_plan *plan,
				    const struct inherit_node *nodes,
				    const struct inherit_node *n, int id)
{
	const struct inherit_node *p;
	int up = n->parent;

	while (up != id) {
		p = inherit_node_of(plan, nodes, up);
		if (!p || p->reprogrammed)
			return 0;
		up = p->parent;
	}
	return 1;
}

/*
 * The expected children's sums of state @id (0: the caller) once every
 * descendant is reaped: the own sums of the descendants in its merge
 * domain, how many of them, and how many changed their control (not
 * merged; their own descendants merge into them).
 */
static inline __u64 inherit_expect(const struct inherit_plan *plan,
				   const struct inherit_node *nodes, int id, int ctr,
				   unsigned int *merged, unsigned int *unmerged)
{
	unsigned int i;
	__u64 sum = 0;

	*merged = *unmerged = 0;
	for (i = 0; i < inherit_nodes(plan); i++) {
		if (nodes[i].id == id || !inherit_in_domain(plan, nodes, &nodes[i], id))
			continue;
		if (nodes[i].reprogrammed) {
			++*unmerged;
			continue;
		}
		sum += inherit_ctr(&nodes[i].self, ctr);
		++*merged;
	}
	return sum;
}

/*
 * Check every state's children's sums against the nodes: 0, or the id
 * of the first whose sums are wrong.  A state that changed its control
 * keeps its descendants (it was not merged): its sums are its whole
 * domain's, exactly.  A merged state's stopped at its exit: at most its
 * domain's -- descendants still running then went on to its parent.
 */
static inline int inherit_check_children(const struct inherit_plan *plan,
					 const struct inherit_node *nodes, int ctr)
{
	unsigned int i, merged, unmerged;

	for (i = 0; i < inherit_nodes(plan); i++) {
		const struct inherit_node *n = &nodes[i];
		__u64 want = inherit_expect(plan, nodes, n->id, ctr, &merged, &unmerged);
		__u64 got = inherit_ctr(&n->children.sum, ctr);
		int bad;

		if (n->reprogrammed)
			bad = got != want || n->children.nr_merged != merged ||
			      n->children.nr_unmerged != unmerged;
		else
			bad = got > want || n->children.nr_merged > merged ||
			      n->children.nr_unmerged > unmerged;
		if (bad) {
			fprintf(stderr,
				"# state %d: children %llu (%u merged, %u not), expected %s%llu (%u, %u)\n",
				n->id, (unsigned long long)got, n->children.nr_merged,
				n->children.nr_unmerged, n->reprogrammed ? "" : "at most ",
				(unsigned long long)want, merged, unmerged);
			return n->id;
		}
	}
	return 0;
}

/*
 * A command that leaves a daemon behind: the caller (under an inheriting
 * control) forks a child that forks a grandchild, which blocks, then
 * runs @work(@arg) and exits.  @after_child: the caller's children's
 * sums once the child is reaped (the daemon still running);
 * @after_daemon: once the daemon, reparented to the caller (a child
 * subreaper), is released and reaped too.  0, or a negative step.
 */
static inline int inherit_daemon_run(int fd, void (*work)(unsigned long), unsigned long arg,
				     struct vperfctr_children *after_child,
				     struct vperfctr_children *after_daemon)
{
	int hold[2], status, err = 0;
	pid_t child, daemon;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || pipe(hold))
		return -1;
	child = fork();
	if (child < 0)
		return -2;
	if (child == 0) {
		daemon = fork();
		if (daemon == 0) {
			char ch;

			close(hold[1]);
			/* Until the caller closes its end. */
			_exit(read(hold[0], &ch, 1) == 0 ? 0 : 1);
		}
		close(hold[0]);
		close(hold[1]);
		if (daemon < 0)
			_exit(2);
		work(arg);
		_exit(0);
	}
	close(hold[0]);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		err = -3;
	if (!err && vperfctr_read_children(fd, after_child))
		err = -4;
	close(hold[1]);
	daemon = wait(&status);
	if (!err && (daemon < 0 || !WIFEXITED(status) || WEXITSTATUS(status)))
		err = -5;
	if (!err && vperfctr_read_children(fd, after_daemon))
		err = -6;
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return err;
}

#endif
