package main

import (
	"github.com/cryptocost/cryptocost/costing"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newCalibrateCmd) }

// calibrateFlags are calibrate's flags.
type calibrateFlags struct {
	ef   energyFlags
	from string
}

func newCalibrateCmd() *cobra.Command {
	var c calibrateFlags
	cmd := &cobra.Command{
		Use:     "calibrate --device NAME --from RESULTS.json",
		Short:   "Store times measured by cryptocost running on a device",
		Long:    helpLong("calibrate"),
		Example: helpExamples("calibrate"),
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return c.run(cmd) },
	}
	c.ef.dev().register(cmd)
	cmd.Flags().StringVar(&c.from, "from", "", "the run's results, written with --format json")
	cmd.Flags().StringVar(&c.ef.sel.Calibrations, "calibrations", "", "where calibrations are stored (default $CRYPTOCOST_CALIBRATIONS or the user config dir)")
	return cmd
}

// run stores the calibration the --from run gives the device.
func (c *calibrateFlags) run(cmd *cobra.Command) error {
	if err := costing.CheckCalibrate(c.from, c.ef.dev().enabled()); err != nil {
		return err
	}
	d, err := c.ef.dev().resolve()
	if err != nil {
		return err
	}
	run, err := result.ReadRunFile(c.from)
	if err != nil {
		return err
	}
	cal, path, err := costing.Calibrate(d, run, c.from, c.ef.sel.Calibrations)
	if err != nil {
		return err
	}
	cal.WriteStored(cmd.OutOrStdout(), cmd.ErrOrStderr(), path)
	return nil
}
