// Command catalogue-versions prints the versions of resource.k8s.io that
// apis/resource/catalogue lists, one per line, oldest first.
// hack/update-codegen.sh generates clients, listers, informers and apply
// configurations for exactly these.
package main

import (
	"fmt"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

func main() {
	for _, v := range catalogue.Versions {
		fmt.Println(v.Name)
	}
}
