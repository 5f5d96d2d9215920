package allocator

import (
	"strconv"
	"strings"
)

// The allocator's explanations are read by people: a count takes the
// singular for one and the plural otherwise ("1 device matches", "0
// devices match", "3 devices match"), and a list says whether it names
// one thing or several ("request a", "requests a, b"). These helpers keep
// the messages' templates short.

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// appendCount appends n and the word that goes with it ("1 device", "3
// devices"); it does not allocate, for the details built on the stack
// (see notEnough).
func appendCount(b []byte, n int, one, many string) []byte {
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ' ')
	return append(b, plural(n, one, many)...)
}

// counted is n and the word that goes with it: "1 device", "3 devices".
func counted(n int, one, many string) string {
	return string(appendCount(nil, n, one, many))
}

// named is a list of names after its noun: "request a", "requests a, b";
// "" for no names.
func named(one, many string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	return plural(len(names), one, many) + " " + strings.Join(names, ", ")
}
