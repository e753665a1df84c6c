# SPDX-License-Identifier: GPL-2.0-only
# Out-of-tree front end: builds our modules against a kernel build tree and
# drives the test harness. In tree, Kbuild and Kconfig are used directly.
#
#   make                 build against Debian's stock kernel headers (W=1,
#                        warnings are errors, header shadowing checked),
#                        then the kernel's RDMA ULPs against that (make ulps)
#   make sparse          the same with sparse (C=2); any sparse warning fails
#   make kerneldoc       scripts/kernel-doc of a kernel source tree (KDIR or
#                        KERNELDOC) over every .c and .h of ours; any
#                        warning fails
#   make style           checkpatch --strict over every tracked .c and .h
#                        (scripts/style.sh); PATHS="kunit ulp/kperf" limits
#                        it; any finding fails
#   make install         install ours and the rebuilt ULPs into
#                        /lib/modules/$(KVER)/updates/rdmaoot, depmod
#   make uninstall       remove what install put there
#   make demo            boot the stock kernel in QEMU and show the stack
#   make bench           our stack against the inbox one, side by side in QEMU
#   make check           the whole test suite on both guest kernels
#   make selftest        break the tree on purpose and require check to fail
#   make compat          compile 6.1's RDMA ULPs against our headers
#   make ulps            build 6.1's RDMA ULPs as modules against our stack
#                        (build/ulps/<kver>/, from Debian's linux-source-6.1)
#   make tools           build our userspace test programs (tools/) into
#                        build/tools/
#   make deps            install the Debian packages all of this needs

ifneq ($(KERNELRELEASE),)
include $(src)/Kbuild
else

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KVER ?= $(shell $(TOP)/scripts/stock-kver.sh)
KDIR ?= /lib/modules/$(KVER)/build
# Everything we install goes below updates/ (searched before the inbox
# kernel/ tree), in a folder of its own so uninstall is one rm.
INSTALL_SUBDIR := updates/rdmaoot
# The kernel's ULPs rebuilt against us (make ulps) go next to ours.
ULP_DEST = $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_SUBDIR)/ulps
# INSTALL_MOD_PATH (a staging root, as in Kbuild) also applies to depmod.
DEPMOD_BASE = $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH))
# Recipes that run $(KMAKE) start with '+': make cannot see the $(MAKE)
# inside the variable, and a -j given to us reaches Kbuild only so.
KMAKE = $(MAKE) -C $(KDIR) M=$(TOP) W=1

.PHONY: all modules sparse kerneldoc style install uninstall clean check selftest demo deps compat ulps bench tools

all: modules ulps

modules:
	@test -d $(KDIR) || { echo "no kernel build tree at $(KDIR): run 'make deps' first" >&2; exit 1; }
	+$(KMAKE) modules
	@$(TOP)/scripts/check-headers.sh $(TOP) $(KDIR)

sparse:
	@test -d $(KDIR) || { echo "no kernel build tree at $(KDIR): run 'make deps' first" >&2; exit 1; }
	+@$(KMAKE) C=2 modules 2>&1 | tee $(TOP)/.sparse.log
	@if grep -E '(warning|error|ERROR):' $(TOP)/.sparse.log; then \
		echo "sparse reported the lines above" >&2; exit 1; fi
	@echo "sparse: clean"

# Debian's header packages lack scripts/kernel-doc: make check points KDIR
# at the debug kernel's source tree, which has it.
KERNELDOC ?= $(KDIR)/scripts/kernel-doc
kerneldoc:
	@test -x $(KERNELDOC) || { echo "no $(KERNELDOC): give KERNELDOC= or a source tree's KDIR" >&2; exit 1; }
	@cd $(TOP) && find core sw ulp include kunit testdrv tools -name '*.[ch]' | sort | \
		xargs $(KERNELDOC) -none > .kerneldoc.log 2>&1; \
		if grep . .kerneldoc.log; then echo "kernel-doc reported the lines above" >&2; exit 1; fi
	@echo "kernel-doc: clean"

# checkpatch.pl from KDIR if it is a source tree, else from the debug
# kernel's tree in the cache; CHECKPATCH= overrides.
style:
	@KDIR=$(KDIR) $(TOP)/scripts/style.sh $(PATHS)

install: all
	$(MAKE) -C $(KDIR) M=$(TOP) INSTALL_MOD_DIR=$(INSTALL_SUBDIR) \
		CONFIG_MODULE_SIG_ALL= modules_install
	install -d $(ULP_DEST)
	install -m 644 $(TOP)/build/ulps/$(KVER)/*.ko $(ULP_DEST)/
	depmod -a $(DEPMOD_BASE) $(KVER)

uninstall:
	rm -rf $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_SUBDIR)
	depmod -a $(DEPMOD_BASE) $(KVER)

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) clean
	rm -f $(TOP)/.sparse.log $(TOP)/.kerneldoc.log

check:
	@$(TOP)/scripts/check.sh

selftest:
	@$(TOP)/scripts/selftest-harness.sh

demo:
	@$(TOP)/scripts/demo.sh

bench:
	@$(TOP)/scripts/bench.sh

deps:
	@$(TOP)/scripts/deps.sh

compat:
	@$(TOP)/scripts/compat-check.sh

ulps: modules
	@KVER=$(KVER) KDIR=$(KDIR) $(TOP)/scripts/ulps.sh

# Userspace programs the guest tests run, one source file each.
TOOLS := rds-ping
tools: $(TOOLS:%=$(TOP)/build/tools/%)

.SECONDEXPANSION:
$(TOP)/build/tools/%: $(TOP)/tools/$$*/$$*.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

endif
