// Package cmdutil holds what drakit's commands share, as kubectl's
// k8s.io/kubectl/pkg/cmd/util does for kubectl's: the Factory through
// which a command reaches a cluster (and learns which build of drakit it
// is), the errors that decide the exit code, the parsers and completions
// of the flags several commands have (versions, feature gates), and the
// Reporter that prints the problems of the input one line each.
//
// Each command lives in a package of its own under cmd/drakit/app, with
// an Options struct and Complete, Validate and Run, as kubectl's commands
// do; cmd/drakit/app assembles them into the root command.
package cmdutil
