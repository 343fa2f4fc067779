package main

import (
	"fmt"
	"os"

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
	c.ef.dev.register(cmd)
	cmd.Flags().StringVar(&c.from, "from", "", "the run's results, written with --format json")
	cmd.Flags().StringVar(&c.ef.calibrations, "calibrations", "", "where calibrations are stored (default $CRYPTOCOST_CALIBRATIONS or the user config dir)")
	return cmd
}

// run stores the calibration the --from run gives the device.
func (c *calibrateFlags) run(cmd *cobra.Command) error {
	if err := costing.CheckCalibrate(c.from, c.ef.dev.enabled()); err != nil {
		return err
	}
	d, err := c.ef.dev.resolve()
	if err != nil {
		return err
	}
	run, err := readRun(c.from)
	if err != nil {
		return err
	}
	cal, path, err := costing.Calibrate(d, run, c.from, c.ef.calibrations)
	if err != nil {
		return err
	}
	cal.WriteStored(cmd.OutOrStdout(), cmd.ErrOrStderr(), path)
	return nil
}

func (f *deviceFlags) enabled() bool { return f.name != "" || f.file != "" }

// readRun reads the first run of a results file.
func readRun(name string) (*result.Run, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("--from: %w", err)
	}
	defer fh.Close()
	runs, err := result.ReadJSON(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (want a cryptocost run written with --format json)", name, err)
	}
	if len(runs) != 1 {
		return nil, fmt.Errorf("%s holds %d runs: give a file with one", name, len(runs))
	}
	return runs[0], nil
}
