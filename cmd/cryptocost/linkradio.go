package main

import (
	"github.com/cryptocost/cryptocost/link"
	"github.com/spf13/cobra"
)

// retireLink keeps --link on a command that takes no network path (probe
// talks to a real server; radio simulate prices a given trace) as a
// hidden flag that fails before any work, naming --radio and the radio
// the old value meant (link.RetiredFlag): --link is always the network
// path, --radio always the radio energy profile.
func retireLink(cmd *cobra.Command, why string) {
	var old string
	cmd.Flags().StringVar(&old, "link", "", "")
	cmd.Flags().MarkHidden("link")
	next := cmd.PreRunE
	cmd.PreRunE = func(c *cobra.Command, args []string) error {
		if c.Flags().Changed("link") {
			return link.RetiredFlag(old, why)
		}
		if next != nil {
			return next(c, args)
		}
		return nil
	}
}
