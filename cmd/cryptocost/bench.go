package main

import (
	"time"

	"github.com/cryptocost/cryptocost/bench"
	"github.com/cryptocost/cryptocost/result"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newBenchCmd) }

func newBenchCmd() *cobra.Command {
	var (
		req bench.Request
		r   runner
		ef  energyFlags
	)
	cmd := &cobra.Command{
		Use:     "bench",
		Short:   "Measure what cryptographic primitives cost on this machine",
		Long:    helpLong("bench"),
		Example: helpExamples("bench"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req.Quiet = r.quiet
			return r.execute(cmd, job{
				check:  req.Check,
				energy: &ef,
				run:    req.Run,
				after: func(cmd *cobra.Command, _ *result.Run) error {
					if r.outputs.out == "" {
						req.NoteSkipped(cmd.ErrOrStderr())
					}
					return nil
				},
			})
		},
	}
	registerBenchFlags(cmd, &req)
	f := cmd.Flags()
	f.BoolVarP(&r.quiet, "quiet", "q", false, "no progress bar or notes on stderr")
	r.register(cmd)
	ef.register(cmd)
	return cmd
}

// registerBenchFlags declares bench's selection and measurement flags.
func registerBenchFlags(cmd *cobra.Command, req *bench.Request) {
	f := cmd.Flags()
	opts, cfg := &req.Options, &req.Config
	f.StringSliceVar(&opts.Families, "family", nil, "only these families: hash, mac, block, stream, aead, pke, sign, kex, rng")
	f.StringSliceVar(&opts.Algos, "algo", nil, "only these algorithms: names or globs ('AES-*'), comma-separated")
	f.StringSliceVar(&opts.Ops, "op", nil, "only these operations: names or globs (keygen, sign, 'encrypt-*')")
	f.StringSliceVar(&opts.Providers, "provider", nil, "only these providers: go, x/crypto, circl, cryptocost, ...")
	f.StringVar(&opts.Security, "security", "", "security bits: 128 (exactly), 112+ (at least), 80-128 (range)")
	f.BoolVar(&opts.Legacy, "legacy", false, "include legacy schemes (broken or deprecated: DES, RC4, MD5, RSA-1024, ...)")
	f.BoolVar(&opts.Slow, "slow", false, "include slow operations (RSA-7680/15360, large key generation)")
	f.StringSliceVar(&req.Sizes, "sizes", nil, "input sizes of bulk operations, e.g. 16,64,256,1k,8k,16k (k = 1024; default 1k,10k,400k)")
	f.StringSliceVar(&req.DocSizes, "doc-sizes", nil, "document sizes for sign and verify, hashed as part of the operation (default 32)")
	f.BoolVar(&opts.Quick, "quick", false, "seconds, not minutes: one bulk size (1k), short samples and budgets")
	f.StringVar(&cfg.Method, "method", bench.MethodAdaptive, "measurement method: adaptive or seed002 (K keys × R repetitions)")
	f.IntVar(&cfg.Keys, "keys", 10, "seed002: distinct keys/inputs per point (K)")
	f.IntVar(&cfg.Repetitions, "reps", 10, "seed002: repetitions per key (R)")
	f.DurationVar(&cfg.TimeBudget, "time-budget", time.Minute, "time for the whole run, shared equally by its points (each at most --point-budget); 0 for no total")
	f.DurationVar(&cfg.PointBudget, "point-budget", 0, "time for each point (default 1s, 25ms with --quick); at least --min-samples are taken regardless")
	f.Float64Var(&cfg.TargetRelCI, "ci", 0.02, "stop a point when the 95% CI of its median is within ± this fraction of it (the CI's larger half-width / the median)")
	f.StringVar(&cfg.Statistic, "clock", "wall", "the statistic: wall (wall time) or cpu (thread CPU time: steady on a busy machine, for CPU-bound work only)")
	f.IntVar(&cfg.MinSamples, "min-samples", 10, "samples per point at least")
	f.BoolVar(&cfg.NoCycles, "no-cycles", false, "do not open the hardware cycle counter (cycles are then estimated from the clock rate)")
}
