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
	if c.from == "" {
		return fmt.Errorf("--from RESULTS.json is required: a cryptocost run (--format json) made on the device")
	}
	if !c.ef.dev.enabled() {
		return fmt.Errorf("--device NAME or --device-file FILE is required: the device the run was made on")
	}
	d, err := c.ef.dev.resolve()
	if err != nil {
		return err
	}
	run, err := readRun(c.from)
	if err != nil {
		return err
	}
	cal, err := costing.NewCalibration(d, run, c.from)
	if err != nil {
		return err
	}
	dir, err := costing.CalibrationIn(c.ef.calibrations)
	if err != nil {
		return err
	}
	path, err := costing.SaveCalibration(dir, cal)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "calibrated %s with %d times per operation from run %s (%s/%s, %s)\n", d.Name, len(cal.Entries), run.ID,
		run.Environment.OS, run.Environment.Arch, orDash(run.Environment.CPUModel))
	for _, w := range cal.Warnings {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", w)
	}
	fmt.Fprintf(out, "stored in %s\n", path)
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

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
