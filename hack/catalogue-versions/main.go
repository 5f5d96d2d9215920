// Command catalogue-versions prints the versions of resource.k8s.io that
// apis/resource/catalogue lists, one per line, oldest first. With -own it
// prints only the versions with kinds whose Go types are drakit's own (not
// k8s.io/api's): hack/update-codegen.sh generates clients, listers,
// informers and apply configurations for exactly these, since client-go
// has them for the rest.
package main

import (
	"flag"
	"fmt"

	"github.com/drakit/drakit/apis/resource/catalogue"
)

func main() {
	own := flag.Bool("own", false, "only the versions with Go types of drakit's own")
	flag.Parse()
	for _, v := range catalogue.Versions {
		if !*own || v.OwnTypes() {
			fmt.Println(v.Name)
		}
	}
}
