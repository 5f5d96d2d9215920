package conversion

import (
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	hub "github.com/drakit/drakit/apis/resource"
)

// TestConvertAttributeNamesV1alpha2Refuses: the 1.30 API server takes only
// lowercase RFC 1123 subdomains as attribute names, which the common v1
// names (driverVersion, productName, a domain-qualified gpu.example.com/model)
// are not. A v1alpha2 instance does not list them: the stash keeps them,
// attributes and capacities alike, so that the slice is stored and comes
// back whole; an instance read from v1alpha2 that lists such a name (which
// only a manifest can, its server refuses it) lists it again.
func TestConvertAttributeNamesV1alpha2Refuses(t *testing.T) {
	q := apiresource.MustParse
	named := &hub.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Spec: hub.ResourceSliceSpec{
			Driver: "gpu.example.com", Pool: hub.ResourcePool{Name: "node-1", ResourceSliceCount: 1}, NodeName: ptrTo("node-1"),
			Devices: []hub.Device{{
				Name: "gpu-0",
				Attributes: map[hub.QualifiedName]hub.DeviceAttribute{
					"driverVersion":         {VersionValue: ptrTo("1.2.3")},
					"productName":           {StringValue: ptrTo("A100")},
					"gpu.example.com/model": {StringValue: ptrTo("a100")},
					"index":                 {IntValue: ptrTo[int64](0)},
				},
				Capacity: map[hub.QualifiedName]hub.DeviceCapacity{
					"memory":    {Value: q("40Gi")},
					"gpuMemory": {Value: q("40Gi")},
				},
			}},
		},
	}
	runHubRows(t, []hubRow{{
		name: "names 1.30 refuses are stashed",
		in:   named,
		to:   "v1alpha2",
		want: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"driverVersion":{"version":"1.2.3"},"gpu.example.com/model":{"string":"a100"},"productName":{"string":"A100"}},"capacity":{"gpuMemory":{"value":"40Gi"}}}]}'
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: index, int: 0}, {name: memory, quantity: 40Gi}]
`,
	}, {
		name: "later versions hold them",
		in:   named,
		to:   "v1alpha3",
		want: `
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: s
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    basic:
      attributes: {driverVersion: {version: 1.2.3}, productName: {string: A100}, gpu.example.com/model: {string: a100}, index: {int: 0}}
      capacity: {memory: 40Gi, gpuMemory: 40Gi}
`,
	}})

	runRows(t, []row{{
		name: "an instance that lists such a name lists it again",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: s}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: index, int: 0}, {name: productName, string: A100}, {name: gpuMemory, quantity: 40Gi}]
`,
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","namedResources":{"order":["index","productName","gpuMemory"]}}]}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes: {index: {int: 0}, productName: {string: A100}}
    capacity: {gpuMemory: {value: 40Gi}}
`,
	}, {
		name: "stashed names come back while the instance does not list them",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"productName":{"string":"A100"}},"capacity":{"gpuMemory":{"value":"40Gi"}}}]}'
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: index, int: 0}]
`,
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes: {index: {int: 0}, productName: {string: A100}}
    capacity: {gpuMemory: {value: 40Gi}}
`,
	}, {
		name: "a name the instance lists wins over the stashed one",
		in: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","attributes":{"productName":{"string":"A100"}},"capacity":{"gpuMemory":{"value":"40Gi"}}}]}'
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: productName, string: B200}, {name: gpuMemory, quantity: 80Gi}]
`,
		to: "v1",
		want: `
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s
  annotations:
    conversion.drakit.io/stash: '{"v":1,"devices":[{"index":0,"name":"gpu-0","namedResources":{"order":["productName","gpuMemory"]}}]}'
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 0, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes: {productName: {string: B200}}
    capacity: {gpuMemory: {value: 80Gi}}
`,
		back: `
apiVersion: resource.k8s.io/v1alpha2
kind: ResourceSlice
metadata: {name: s}
nodeName: node-1
driverName: gpu.example.com
namedResources:
  instances:
  - name: gpu-0
    attributes: [{name: productName, string: B200}, {name: gpuMemory, quantity: 80Gi}]
`,
	}})
}
