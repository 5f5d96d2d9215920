//go:build unix

package convert

import (
	"os"
	"syscall"
)

// fileOwner reads the owner of a file, so that rewriting it in place keeps
// it.
func fileOwner(info os.FileInfo, uid, gid *int) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		*uid, *gid = int(st.Uid), int(st.Gid)
	}
}
