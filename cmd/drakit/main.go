// Command drakit converts, validates, allocates and explains Kubernetes
// Dynamic Resource Allocation (resource.k8s.io) manifests, without a
// cluster or against a live one, and reads a cluster's DRA state (get,
// describe). See "drakit --help".
package main

import (
	"os"

	"github.com/drakit/drakit/cmd/drakit/app"
)

func main() {
	os.Exit(app.Main())
}
