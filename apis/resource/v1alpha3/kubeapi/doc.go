// +k8s:conversion-gen=github.com/drakit/drakit/apis/resource
// +k8s:conversion-gen-external-types=k8s.io/api/resource/v1alpha3
// +k8s:defaulter-gen=TypeMeta
// +k8s:defaulter-gen-input=k8s.io/api/resource/v1alpha3
// +groupName=resource.k8s.io

// Package kubeapi converts the resource.k8s.io/v1alpha3 kinds that k8s.io/api
// ships, DeviceTaintRule (served 1.33-1.37) and ResourcePoolStatusRequest
// (1.36-1.37), in their 1.37 shape, to and from drakit's hub, with their
// registration and defaults, as upstream's pkg/apis/resource/v1alpha3 does.
// Their types are k8s.io/api's (k8s.io/api/resource/v1alpha3), as client-go
// hands them out. The kinds v1alpha3 had in 1.31, which k8s.io/api no longer
// has, are drakit's own, in the parent package; both register under the one
// group version resource.k8s.io/v1alpha3.
package kubeapi
