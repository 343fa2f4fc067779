package link

import (
	"fmt"

	"github.com/cryptocost/cryptocost/radio"
)

// RetiredFlag is the error of --link on a command that takes no network
// path (probe talks to a real server; radio simulate prices a given
// trace): why says what the command does instead, and the error names
// --radio and the radio the old value meant. --link is always the
// network path, --radio always the radio energy profile.
func RetiredFlag(old, why string) error {
	return fmt.Errorf("--link %s: %s: give --radio %s (--link is the emulated network path of tls and the scenarios; cryptocost radio list)", old, why, RadioMeant(old))
}

// RadioMeant is the radio an old --link value named: the value itself
// when it is a radio profile, else the radio a link of that name is
// priced on, else the value (whose error --radio then gives).
func RadioMeant(v string) string {
	if _, err := radio.Lookup(v); err == nil {
		return v
	}
	if l, err := Lookup(v); err == nil && l.Radio != "" {
		return l.Radio
	}
	return v
}
