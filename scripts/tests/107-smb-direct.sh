# 107-smb-direct: SMB Direct (SMB3 over RDMA: the cifs client's and the
# ksmbd server's RDMA transports) where the kernel builds it.
#
# Debian's 6.1 kernel builds cifs and ksmbd without it
# (CONFIG_CIFS_SMB_DIRECT and CONFIG_SMB_SERVER_SMBDIRECT are off), so
# neither module depends on rdma_cm and make ulps has nothing to rebuild:
# the test skips, naming that reason. A kernel that turns either on makes
# it fail instead, until make ulps rebuilds those modules against us and
# a test mounts over them: SMB Direct must not silently go untested.
TEST_KERNELS=stock
TEST_TIMEOUT=60

# smbd_in MODULE: MODULE exists and is built with its RDMA transport.
smbd_in() { modinfo -F depends "$1" 2>/dev/null | tr , '\n' | grep -qx rdma_cm; }

test_run() {
	local m found=
	for m in cifs ksmbd; do
		t_mod_path "$m" >/dev/null || { t_log "the kernel has no $m module"; continue; }
		if smbd_in "$m"; then
			found="$found $m"
		else
			t_log "$m is built without SMB Direct (it does not depend on rdma_cm)"
		fi
	done
	[ -z "$found" ] ||
		t_fail "SMB Direct is built into$found, but make ulps does not rebuild it against our stack and no test mounts over it"
	t_skip "Debian's kernel builds cifs and ksmbd without SMB Direct (CONFIG_CIFS_SMB_DIRECT, CONFIG_SMB_SERVER_SMBDIRECT off)"
}
