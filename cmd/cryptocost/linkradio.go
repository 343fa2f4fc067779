package main

import (
	"fmt"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/spf13/cobra"
)

// retireLink keeps --link on a command that takes no network path (probe
// talks to a real server; radio simulate prices a given trace) as a
// hidden flag that fails before any work, naming --radio and the radio
// the old value meant: --link is always the network path, --radio
// always the radio energy profile.
func retireLink(cmd *cobra.Command, why string) {
	var old string
	cmd.Flags().StringVar(&old, "link", "", "")
	cmd.Flags().MarkHidden("link")
	next := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if c.Flags().Changed("link") {
			return fmt.Errorf("--link %s: %s: give --radio %s (--link is the emulated network path of tls and the scenarios; cryptocost radio list)", old, why, radioMeant(old))
		}
		if next != nil {
			return next(c, args)
		}
		return nil
	}
}

// radioMeant is the radio an old --link value named: the value itself
// when it is a radio profile, else the radio a link of that name is
// priced on, else the value (whose error --radio then gives).
func radioMeant(v string) string {
	if _, err := radio.Lookup(v); err == nil {
		return v
	}
	if l, err := link.Lookup(v); err == nil && l.Radio != "" {
		return l.Radio
	}
	return v
}
