//go:build !unix

package convert

import "os"

// fileOwner does nothing where files have no Unix owner.
func fileOwner(info os.FileInfo, uid, gid *int) {}
