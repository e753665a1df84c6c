// SPDX-License-Identifier: GPL-2.0-only
/* KUnit suite ib_uverbs_uobj: the per-file handle table of core/uverbs/uverbs_uobj.c. */
/*
 * No device is needed: the table only calls its kinds' destroy(). Two
 * kinds stand for a parent (a PD) and objects created on it: the parent
 * refuses to go while children exist, unless forced.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "core/uverbs/uverbs.h"

struct fake_obj {
	int children;		/* parent: children alive */
	struct fake_obj *parent;	/* child: its parent */
	int destroyed;
	int forced;
	int fail_with;		/* destroy() answers this, once, if set */
	/* while destroy() runs: what a lookup of the same handle said */
	long lookup_during;
	u32 handle;
};

static struct ib_uverbs_file *fake_file;

static int fake_destroy(struct ib_uobject *uobj, struct ib_uverbs_file *file,
			bool force)
{
	struct fake_obj *obj = uobj->object;
	struct ib_uobject *again;

	again = uverbs_uobj_get_read(file, uobj->uapi_object, obj->handle);
	obj->lookup_during = PTR_ERR_OR_ZERO(again);
	if (!IS_ERR(again))
		uverbs_uobj_put_read(again);
	if (obj->fail_with && !force) {
		int err = obj->fail_with;

		obj->fail_with = 0;
		return err;
	}
	if (obj->children && !force)
		return -EBUSY;
	if (obj->parent)
		obj->parent->children--;
	obj->destroyed++;
	obj->forced += force;
	return 0;
}

static const struct uverbs_obj_type fake_type = {
	.name = "fake", .destroy = fake_destroy,
};

static const struct uverbs_api_object fake_kind = { .type = &fake_type };
static const struct uverbs_obj_type other_type = {
	.name = "other", .destroy = fake_destroy,
};

static const struct uverbs_api_object other_kind = { .type = &other_type };

static int uobj_test_init(struct kunit *test)
{
	fake_file = kunit_kzalloc(test, sizeof(*fake_file), GFP_KERNEL);
	if (!fake_file)
		return -ENOMEM;
	mutex_init(&fake_file->ucontext_lock);
	xa_init_flags(&fake_file->uobjs, XA_FLAGS_ALLOC);
	return 0;
}

static void uobj_test_exit(struct kunit *test)
{
	/* every case leaves the table empty; a leftover is a failure */
	KUNIT_EXPECT_TRUE(test, xa_empty(&fake_file->uobjs));
	xa_destroy(&fake_file->uobjs);
}

/* A published handle for @obj of kind @kind. */
static u32 make(struct kunit *test, struct fake_obj *obj,
		const struct uverbs_api_object *kind)
{
	struct ib_uobject *uobj = uverbs_uobj_alloc(fake_file, kind);

	KUNIT_ASSERT_FALSE(test, IS_ERR(uobj));
	uobj->object = obj;
	obj->handle = uobj->id;
	KUNIT_ASSERT_EQ(test, uverbs_uobj_publish(uobj), 0);
	return uobj->id;
}

static long lookup(u32 handle, const struct uverbs_api_object *kind)
{
	struct ib_uobject *uobj = uverbs_uobj_get_read(fake_file, kind, handle);

	if (IS_ERR(uobj))
		return PTR_ERR(uobj);
	uverbs_uobj_put_read(uobj);
	return 0;
}

/* A reserved handle is invisible; aborting it frees the number. */
static void uobj_reserve_test(struct kunit *test)
{
	struct ib_uobject *uobj = uverbs_uobj_alloc(fake_file, &fake_kind);
	struct ib_uobject *next;
	u32 id;

	KUNIT_ASSERT_FALSE(test, IS_ERR(uobj));
	id = uobj->id;
	KUNIT_EXPECT_EQ(test, lookup(id, &fake_kind), -EINVAL);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, id),
			-EINVAL);
	uverbs_uobj_abort(uobj);
	next = uverbs_uobj_alloc(fake_file, &fake_kind);
	KUNIT_ASSERT_FALSE(test, IS_ERR(next));
	KUNIT_EXPECT_EQ(test, next->id, id);
	uverbs_uobj_abort(next);
}

/* Lookups find published handles of their own kind only. */
static void uobj_lookup_test(struct kunit *test)
{
	struct fake_obj a = {}, b = {};
	u32 ha = make(test, &a, &fake_kind);
	u32 hb = make(test, &b, &other_kind);

	KUNIT_EXPECT_NE(test, ha, hb);
	KUNIT_EXPECT_EQ(test, lookup(ha, &fake_kind), 0);
	KUNIT_EXPECT_EQ(test, lookup(hb, &other_kind), 0);
	KUNIT_EXPECT_EQ(test, lookup(ha, &other_kind), -EINVAL);
	KUNIT_EXPECT_EQ(test, lookup(12345, &fake_kind), -EINVAL);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &other_kind, ha),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, ha), 0);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &other_kind, hb),
			0);
	KUNIT_EXPECT_EQ(test, a.destroyed + b.destroyed, 2);
}

/* A handle in use cannot be destroyed; one being destroyed cannot be used. */
static void uobj_busy_test(struct kunit *test)
{
	struct fake_obj a = {};
	u32 h = make(test, &a, &fake_kind);
	struct ib_uobject *held;

	held = uverbs_uobj_get_read(fake_file, &fake_kind, h);
	KUNIT_ASSERT_FALSE(test, IS_ERR(held));
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, h),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, a.destroyed, 0);
	uverbs_uobj_put_read(held);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, h), 0);
	KUNIT_EXPECT_EQ(test, a.lookup_during, -EBUSY);
	KUNIT_EXPECT_EQ(test, a.destroyed, 1);
	KUNIT_EXPECT_EQ(test, lookup(h, &fake_kind), -EINVAL);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, h),
			-EINVAL);
}

/* A destroy that fails leaves the handle as it was. */
static void uobj_destroy_fails_test(struct kunit *test)
{
	struct fake_obj a = { .fail_with = -EIO };
	u32 h = make(test, &a, &fake_kind);

	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, h),
			-EIO);
	KUNIT_EXPECT_EQ(test, lookup(h, &fake_kind), 0);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, h), 0);
	KUNIT_EXPECT_EQ(test, a.destroyed, 1);
}

/* Close: children first, then the parent, nothing forced. */
static void uobj_destroy_all_order_test(struct kunit *test)
{
	struct fake_obj parent = { .children = 2 };
	struct fake_obj c1 = { .parent = &parent }, c2 = { .parent = &parent };

	make(test, &parent, &fake_kind);
	make(test, &c1, &other_kind);
	make(test, &c2, &other_kind);
	mutex_lock(&fake_file->ucontext_lock);
	uverbs_uobj_destroy_all(fake_file);
	mutex_unlock(&fake_file->ucontext_lock);
	KUNIT_EXPECT_EQ(test, c1.destroyed + c2.destroyed, 2);
	KUNIT_EXPECT_EQ(test, parent.destroyed, 1);
	KUNIT_EXPECT_EQ(test, parent.forced + c1.forced + c2.forced, 0);
	KUNIT_EXPECT_EQ(test, parent.children, 0);
}

/* What refuses to go without force goes in the last, forced pass. */
static void uobj_destroy_all_forced_test(struct kunit *test)
{
	struct fake_obj stuck = { .children = 1 };
	struct fake_obj free = {};

	make(test, &stuck, &fake_kind);
	make(test, &free, &fake_kind);
	mutex_lock(&fake_file->ucontext_lock);
	uverbs_uobj_destroy_all(fake_file);
	mutex_unlock(&fake_file->ucontext_lock);
	KUNIT_EXPECT_EQ(test, free.destroyed, 1);
	KUNIT_EXPECT_EQ(test, free.forced, 0);
	KUNIT_EXPECT_EQ(test, stuck.destroyed, 1);
	KUNIT_EXPECT_EQ(test, stuck.forced, 1);
}

/*
 * A handle held for writing is busy for everyone else; the object behind
 * it can be replaced, and the handle then names the new one.
 */
static void uobj_replace_test(struct kunit *test)
{
	struct fake_obj a = {}, b = {};
	u32 h = make(test, &a, &fake_kind);
	struct ib_uobject *held, *found;

	KUNIT_EXPECT_EQ(test, PTR_ERR(uverbs_uobj_get_write(fake_file,
							    &other_kind, h)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(uverbs_uobj_get_write(fake_file,
							    &fake_kind, 999)),
			-EINVAL);
	found = uverbs_uobj_get_read(fake_file, &fake_kind, h);
	KUNIT_ASSERT_FALSE(test, IS_ERR(found));
	KUNIT_EXPECT_EQ(test, PTR_ERR(uverbs_uobj_get_write(fake_file,
							    &fake_kind, h)),
			-EBUSY);
	uverbs_uobj_put_read(found);

	held = uverbs_uobj_get_write(fake_file, &fake_kind, h);
	KUNIT_ASSERT_FALSE(test, IS_ERR(held));
	KUNIT_EXPECT_EQ(test, lookup(h, &fake_kind), -EBUSY);
	KUNIT_EXPECT_EQ(test, PTR_ERR(uverbs_uobj_get_write(fake_file,
							    &fake_kind, h)),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, h),
			-EBUSY);
	b.handle = h;
	KUNIT_EXPECT_PTR_EQ(test, uverbs_uobj_replace(held, &b), (void *)&a);
	uverbs_uobj_put_write(held);

	found = uverbs_uobj_get_read(fake_file, &fake_kind, h);
	KUNIT_ASSERT_FALSE(test, IS_ERR(found));
	KUNIT_EXPECT_EQ(test, found->id, h);
	KUNIT_EXPECT_PTR_EQ(test, found->object, (void *)&b);
	uverbs_uobj_put_read(found);
	KUNIT_EXPECT_EQ(test, uverbs_uobj_destroy(fake_file, &fake_kind, h), 0);
	KUNIT_EXPECT_EQ(test, a.destroyed, 0);
	KUNIT_EXPECT_EQ(test, b.destroyed, 1);
}

static struct kunit_case uverbs_uobj_cases[] = {
	KUNIT_CASE(uobj_reserve_test),
	KUNIT_CASE(uobj_lookup_test),
	KUNIT_CASE(uobj_busy_test),
	KUNIT_CASE(uobj_destroy_fails_test),
	KUNIT_CASE(uobj_replace_test),
	KUNIT_CASE(uobj_destroy_all_order_test),
	KUNIT_CASE(uobj_destroy_all_forced_test),
	{}
};

static struct kunit_suite uverbs_uobj_suite = {
	.name = "ib_uverbs_uobj",
	.init = uobj_test_init,
	.exit = uobj_test_exit,
	.test_cases = uverbs_uobj_cases,
};

kunit_test_suite(uverbs_uobj_suite);

MODULE_DESCRIPTION("KUnit: ib_uverbs per-file handle table");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
